// SPDX-License-Identifier: GPL-2.0
/*
 * dt2scen - a pmsynth scenario from a board's flattened device tree.
 *
 *   dtc -I dts -O dtb board.dts (after cpp) | dt2scen --seed 1 > board.txt
 *
 * Devices: every enabled node with a "compatible" property, except the root,
 * under its nearest device ancestor (as of_platform_populate() and friends
 * create them).  pm_links: every phandle reference that fw_devlink turns
 * into a device link (the of_supplier_bindings list of drivers/of/property.c
 * in 6.12), from the device owning the referring node (the nearest device
 * ancestor-or-self) to the device owning the referenced node.
 *
 * Rules, in DT order (nodes depth first, properties in order):
 *   - a reference to a disabled node, or one with no device above it, or an
 *     unknown phandle is dropped ("unavailable");
 *   - a reference to the consumer itself or to one of its ancestors is
 *     dropped ("ancestor": the parent relation already orders them);
 *   - a repeated (consumer, supplier) pair is merged ("duplicate");
 *   - a reference that would close a dependency cycle (parents and the
 *     links accepted so far) is dropped ("cycle"): first come, first kept.
 *     fw_devlink also finds these cycles and stops them from ordering PM.
 * Not parsed: interrupt-map, iommu-map, post-init-providers (fw_devlink
 * ignores the last for ordering).  The counts go to stderr and into the
 * scenario's header.
 */
#include <argp.h>
#include <errno.h>
#include <libfdt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario-graph.h"

#define MAX_NODES 65536

struct node {
	int off;		/* offset in the blob */
	int parent;		/* node index, -1 for the root */
	int dev;		/* device index if this node is one, else -1 */
	bool enabled;		/* this node and all its ancestors are */
};

static struct node nodes[MAX_NODES];
static int nnodes;
static const void *fdt;

static const char *input = "-";

/* Properties whose value is a phandle list; cells from the provider's
 * #cells property (NULL: no arguments). */
static const struct { const char *prop, *cells; } simple_props[] = {
	{ "clocks", "#clock-cells" },
	{ "interconnects", "#interconnect-cells" },
	{ "iommus", "#iommu-cells" },
	{ "mboxes", "#mbox-cells" },
	{ "io-channels", "#io-channel-cells" },
	{ "io-backends", "#io-backend-cells" },
	{ "dmas", "#dma-cells" },
	{ "power-domains", "#power-domain-cells" },
	{ "hwlocks", "#hwlock-cells" },
	{ "extcon", NULL },
	{ "nvmem-cells", "#nvmem-cell-cells" },
	{ "phys", "#phy-cells" },
	{ "wakeup-parent", NULL },
	{ "pinctrl-0", NULL }, { "pinctrl-1", NULL }, { "pinctrl-2", NULL },
	{ "pinctrl-3", NULL }, { "pinctrl-4", NULL }, { "pinctrl-5", NULL },
	{ "pinctrl-6", NULL }, { "pinctrl-7", NULL }, { "pinctrl-8", NULL },
	{ "pwms", "#pwm-cells" },
	{ "resets", "#reset-cells" },
	{ "leds", NULL },
	{ "backlight", NULL },
	{ "panel", NULL },
	{ "msi-parent", "#msi-cells" },
	{ "access-controllers", "#access-controller-cells" },
	{ "pses", "#pse-cells" },
	{ "power-supplies", NULL },
	{ "interrupts-extended", "#interrupt-cells" },
	{ "remote-endpoint", NULL },
	{ "gpio", "#gpio-cells" },
	{ "gpios", "#gpio-cells" },
};

static const char doc[] =
"Write a pmsynth scenario from a flattened device tree (DTB; '-' or no FILE:\n"
"standard input). Devices are nodes with \"compatible\"; pm_links are the\n"
"references fw_devlink turns into device links.";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "one FILE at most");
		input = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void die(const char *msg)
{
	fprintf(stderr, "dt2scen: %s: %s\n", input, msg);
	exit(1);
}

static void *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 20, n = 0, r;
	char *buf = malloc(cap);

	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf)
		die("out of memory");
	*len = n;
	return buf;
}

static int node_index(int off)
{
	int lo = 0, hi = nnodes - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (nodes[mid].off == off)
			return mid;
		if (nodes[mid].off < off)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The device owning node @n: itself or its nearest device ancestor. */
static int owner(int n)
{
	for (; n >= 0; n = nodes[n].parent)
		if (nodes[n].dev >= 0)
			return nodes[n].dev;
	return -1;
}

/* Consumer device @c references node @target (by offset). */
static void reference(int c, int target_off)
{
	int t = node_index(target_off), s;

	if (t < 0 || !nodes[t].enabled || (s = owner(t)) < 0) {
		scenario_unavailable();
		return;
	}
	scenario_link(c, s);
}

static uint32_t cells_of(int off, const char *cells)
{
	const fdt32_t *p;
	int len;

	if (!cells)
		return 0;
	p = fdt_getprop(fdt, off, cells, &len);
	return p && len == 4 ? fdt32_to_cpu(*p) : 0;
}

/* A phandle list: phandle, then the provider's #cells arguments, repeated. */
static void phandle_list(int c, const fdt32_t *v, int len, const char *cells)
{
	int n = len / 4, i = 0, off;

	while (i < n) {
		uint32_t ph = fdt32_to_cpu(v[i++]);

		if (!ph || ph == (uint32_t)-1)
			continue;	/* empty slot */
		off = fdt_node_offset_by_phandle(fdt, ph);
		if (off < 0) {
			scenario_unavailable();
			continue;
		}
		reference(c, off);
		i += cells_of(off, cells);
	}
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a > b && !strcmp(s + a - b, suffix);
}

/* The interrupt parent of node @n: its own or its nearest ancestor's. */
static int interrupt_parent(int n)
{
	const fdt32_t *p;
	int len;

	for (; n >= 0; n = nodes[n].parent) {
		p = fdt_getprop(fdt, nodes[n].off, "interrupt-parent", &len);
		if (p && len == 4)
			return fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(*p));
	}
	return -1;
}

static void scan_node(int n)
{
	int c = owner(n), prop, len, i;
	const char *name;
	const fdt32_t *v;

	if (c < 0 || !nodes[n].enabled)
		return;
	fdt_for_each_property_offset(prop, fdt, nodes[n].off) {
		v = fdt_getprop_by_offset(fdt, prop, &name, &len);
		if (!v)
			continue;
		for (i = 0; i < (int)(sizeof(simple_props) / sizeof(simple_props[0])); i++) {
			if (!strcmp(name, simple_props[i].prop)) {
				phandle_list(c, v, len, simple_props[i].cells);
				break;
			}
		}
		if (i < (int)(sizeof(simple_props) / sizeof(simple_props[0])))
			continue;
		if (has_suffix(name, "-supply")) {
			phandle_list(c, v, len, NULL);
		} else if ((has_suffix(name, "-gpios") || has_suffix(name, "-gpio")) &&
			   strcmp(name, "nr-gpios")) {
			phandle_list(c, v, len, "#gpio-cells");
		} else if (!strcmp(name, "interrupts")) {
			int ip = interrupt_parent(n);

			if (ip >= 0)
				reference(c, ip);
		}
	}
}

static bool node_enabled(int off)
{
	const char *s = fdt_getprop(fdt, off, "status", NULL);

	return !s || !strcmp(s, "okay") || !strcmp(s, "ok");
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &scenario_import_argp, 0, NULL, 0 }, { 0 }
	};
	static const struct argp argp = { NULL, parse_arg, "[FILE]", doc, children, NULL, NULL };
	int off, depth = 0, stack[256], n, err;
	FILE *f;
	size_t len;

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	f = strcmp(input, "-") ? fopen(input, "rb") : stdin;
	if (!f)
		die(strerror(errno));
	fdt = read_all(f, &len);
	if (len < 4 || fdt_magic(fdt) != FDT_MAGIC)
		die("not a flattened device tree (DTB)");
	err = len < sizeof(struct fdt_header) ? -FDT_ERR_TRUNCATED : fdt_check_full(fdt, len);
	if (err)
		die(err == -FDT_ERR_BADMAGIC ? "not a flattened device tree (DTB)" :
		    fdt_strerror(err));

	for (off = 0; off >= 0 && nnodes < MAX_NODES; off = fdt_next_node(fdt, off, &depth)) {
		struct node *nd = &nodes[nnodes];

		if (depth >= 256)
			die("device tree nested too deep");
		stack[depth] = nnodes;
		nd->off = off;
		nd->parent = depth ? stack[depth - 1] : -1;
		nd->enabled = node_enabled(off) && (nd->parent < 0 || nodes[nd->parent].enabled);
		nd->dev = -1;
		if (depth && nd->enabled && fdt_getprop(fdt, off, "compatible", NULL)) {
			nd->dev = scenario_add(fdt_get_name(fdt, off, NULL),
					       nd->parent >= 0 ? owner(nd->parent) : -1);
			if (nd->dev < 0)
				die("more than 4096 devices");
		}
		nnodes++;
	}
	if (off >= 0)
		die("more than 65536 nodes");
	if (!scen_ndevs)
		die("no node with a compatible property");
	for (n = 0; n < nnodes; n++)
		scan_node(n);

	scenario_print_import("dt2scen", input);
	return 0;
}
