// SPDX-License-Identifier: GPL-2.0
/*
 * dt-walk.c - the device graph of a flattened device tree; see dt-walk.h.
 *
 * Devices: every enabled node with a "compatible" property, except the root,
 * under its nearest device ancestor (as of_platform_populate() and friends
 * create them).  pm_links: every phandle reference that fw_devlink turns
 * into a device link (the of_supplier_bindings list of drivers/of/property.c
 * in 6.12), from the device owning the referring node (the nearest device
 * ancestor-or-self) to the device owning the referenced node.
 *
 * Rules, in DT order (nodes depth first, properties in order):
 *   - a reference to a disabled node, or one with no device above it, is
 *     dropped ("unavailable");
 *   - a reference to the consumer itself or to one of its ancestors is
 *     dropped ("ancestor": the parent relation already orders them);
 *   - a repeated (consumer, supplier) pair is merged ("duplicate");
 *   - a reference that would close a dependency cycle (parents and the
 *     links accepted so far) is dropped ("cycle"): first come, first kept.
 *     fw_devlink also finds these cycles and stops them from ordering PM;
 *   - a phandle list stops at an unknown phandle, at a provider whose
 *     #...-cells is above DT_MAX_CELLS, or whose arguments run past the end
 *     of the list ("cut short", counted per list): what follows cannot be
 *     told apart from argument cells.  __of_parse_phandle_with_args()
 *     fails there too (or warns, above MAX_PHANDLE_ARGS), and fw_devlink's
 *     loop over the list stops.
 * A provider without #...-cells (or with one shorter than a cell) takes no
 * arguments: fw_devlink's parse_prop_cells() passes a cell_count of 0 for
 * that case (nvmem cells without #nvmem-cell-cells are common).  A phandle
 * of 0 (or 0xffffffff) is an empty slot without arguments.  Not
 * parsed: interrupt-map, iommu-map, post-init-providers (fw_devlink ignores
 * the last for ordering).  Nodes after the root node's end are ignored, as
 * unflatten_dt_nodes() does.
 *
 * Async (async=0|1): what 6.12 does for the bus the device lands on or
 * its driver (async_by_bus()).  Dependencies (deps=unknown) are not all known for a
 * device with a phandle list cut short, a reference dropped to break a
 * cycle, or a property this reader does not follow (unparsed_props[]).
 *
 * Every lookup is by table (phandles sorted, each node's #...-cells and
 * interrupt parent noted once), so the walk stays linear in the blob.
 */
#include <errno.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dt-walk.h"

enum cells {
	NO_CELLS = -1, CLOCK_CELLS, INTERCONNECT_CELLS, IOMMU_CELLS, MBOX_CELLS,
	IO_CHANNEL_CELLS, IO_BACKEND_CELLS, DMA_CELLS, POWER_DOMAIN_CELLS,
	HWLOCK_CELLS, NVMEM_CELL_CELLS, PHY_CELLS, PWM_CELLS, RESET_CELLS,
	MSI_CELLS, ACCESS_CONTROLLER_CELLS, PSE_CELLS, INTERRUPT_CELLS,
	GPIO_CELLS, NR_CELLS
};

static const char *const cells_names[NR_CELLS] = {
	[CLOCK_CELLS] = "#clock-cells",
	[INTERCONNECT_CELLS] = "#interconnect-cells",
	[IOMMU_CELLS] = "#iommu-cells",
	[MBOX_CELLS] = "#mbox-cells",
	[IO_CHANNEL_CELLS] = "#io-channel-cells",
	[IO_BACKEND_CELLS] = "#io-backend-cells",
	[DMA_CELLS] = "#dma-cells",
	[POWER_DOMAIN_CELLS] = "#power-domain-cells",
	[HWLOCK_CELLS] = "#hwlock-cells",
	[NVMEM_CELL_CELLS] = "#nvmem-cell-cells",
	[PHY_CELLS] = "#phy-cells",
	[PWM_CELLS] = "#pwm-cells",
	[RESET_CELLS] = "#reset-cells",
	[MSI_CELLS] = "#msi-cells",
	[ACCESS_CONTROLLER_CELLS] = "#access-controller-cells",
	[PSE_CELLS] = "#pse-cells",
	[INTERRUPT_CELLS] = "#interrupt-cells",
	[GPIO_CELLS] = "#gpio-cells",
};

/* Properties whose value is a phandle list, with the provider's #cells. */
static const struct {
	const char *prop;
	enum cells cells;
} simple_props[] = {
	{ "clocks", CLOCK_CELLS },
	{ "interconnects", INTERCONNECT_CELLS },
	{ "iommus", IOMMU_CELLS },
	{ "mboxes", MBOX_CELLS },
	{ "io-channels", IO_CHANNEL_CELLS },
	{ "io-backends", IO_BACKEND_CELLS },
	{ "dmas", DMA_CELLS },
	{ "power-domains", POWER_DOMAIN_CELLS },
	{ "hwlocks", HWLOCK_CELLS },
	{ "extcon", NO_CELLS },
	{ "nvmem-cells", NVMEM_CELL_CELLS },
	{ "phys", PHY_CELLS },
	{ "wakeup-parent", NO_CELLS },
	{ "pinctrl-0", NO_CELLS }, { "pinctrl-1", NO_CELLS }, { "pinctrl-2", NO_CELLS },
	{ "pinctrl-3", NO_CELLS }, { "pinctrl-4", NO_CELLS }, { "pinctrl-5", NO_CELLS },
	{ "pinctrl-6", NO_CELLS }, { "pinctrl-7", NO_CELLS }, { "pinctrl-8", NO_CELLS },
	{ "pwms", PWM_CELLS },
	{ "resets", RESET_CELLS },
	{ "leds", NO_CELLS },
	{ "backlight", NO_CELLS },
	{ "panel", NO_CELLS },
	{ "msi-parent", MSI_CELLS },
	{ "access-controllers", ACCESS_CONTROLLER_CELLS },
	{ "pses", PSE_CELLS },
	{ "power-supplies", NO_CELLS },
	{ "interrupts-extended", INTERRUPT_CELLS },
	{ "remote-endpoint", NO_CELLS },
	{ "gpio", GPIO_CELLS },
	{ "gpios", GPIO_CELLS },
};

/* Dependencies this reader does not follow: their device's are not all known. */
static const char *const unparsed_props[] = { "interrupt-map", "iommu-map", "msi-map" };

struct node {
	int off;		/* offset in the blob */
	int owner;		/* the device of this node or its nearest ancestor, -1 */
	bool enabled;		/* this node and all its ancestors are */
	uint32_t irq_parent;	/* phandle of its (or inherited) interrupt-parent, 0 */
	int cells, ncells;	/* its #...-cells: walk.cells[cells .. cells + ncells) */
};

struct cells_value {
	enum cells which;
	uint32_t value;		/* its first cell; 0 when shorter than a cell */
};

struct phandle_node {
	uint32_t phandle;
	int node;
};

struct walk {
	const void *fdt;
	struct scen_graph *g;
	struct dt_walk_result *r;
	struct node *nodes;
	int nnodes, nodes_cap;
	struct cells_value *cells;
	int ncells, cells_cap;
	struct phandle_node *phandles;	/* sorted by phandle, then node */
	int nphandles;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct walk *w, long off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->r->err, sizeof(w->r->err), fmt, ap);
	va_end(ap);
	w->r->err_offset = off;
	return -1;
}

static int nomem(struct walk *w)
{
	return fail(w, -1, "out of memory");
}

/* Make room for one more of @n elements of @size in *@p (capacity *@cap). */
static int reserve(void **p, int *cap, int n, size_t size)
{
	int c = *cap ? 2 * *cap : 64;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static bool node_enabled(const void *fdt, int off)
{
	int len;
	const char *s = fdt_getprop(fdt, off, "status", &len);

	/* a value without its NUL is not "okay" (fdt_check_full() allows it) */
	if (s && (len < 1 || s[len - 1]))
		return false;
	return !s || !strcmp(s, "okay") || !strcmp(s, "ok");
}

static enum cells cells_index(const char *name)
{
	int k;

	for (k = 0; k < NR_CELLS; k++)
		if (!strcmp(name, cells_names[k]))
			return k;
	return NO_CELLS;
}

/* Note node @n's #...-cells values (the first property of each name). */
static int note_cells(struct walk *w, int n)
{
	struct node *nd = &w->nodes[n];
	const char *name;
	const void *v;
	int prop, len, k, i;

	nd->cells = w->ncells;
	nd->ncells = 0;
	fdt_for_each_property_offset(prop, w->fdt, nd->off) {
		v = fdt_getprop_by_offset(w->fdt, prop, &name, &len);
		if (!v || !name || name[0] != '#')
			continue;
		k = cells_index(name);
		for (i = 0; k != NO_CELLS && i < nd->ncells; i++)
			if (w->cells[nd->cells + i].which == k)
				k = NO_CELLS;
		if (k == NO_CELLS)
			continue;
		if (reserve((void **)&w->cells, &w->cells_cap, w->ncells, sizeof(*w->cells)))
			return nomem(w);
		w->cells[w->ncells].which = k;
		w->cells[w->ncells].value = len >= 4 ? fdt32_ld(v) : 0;
		w->ncells++;
		nd->ncells++;
	}
	return 0;
}

static bool name_starts(const void *fdt, int off, const char *prefix)
{
	const char *name = fdt_get_name(fdt, off, NULL);

	return name && !strncmp(name, prefix, strlen(prefix));
}

/* A "compatible" of the bus's own, "usbVID,PID" or "pciVID,DID": its first entry. */
static bool compatible_bus(const void *fdt, int off, const char *bus)
{
	const char *c = fdt_getprop(fdt, off, "compatible", NULL);
	size_t n = strlen(bus);

	return c && !strncmp(c, bus, n) && c[n] && strchr("0123456789abcdefABCDEF", c[n]);
}

/*
 * Platform drivers that make their own device async in probe in 6.12
 * (device_enable_async_suspend()): compatibles they match, whole; and any
 * compatible naming a UFS host controller, "ufs" but not "phy"
 * (ufshcd_init() does it for every UFS glue driver).
 */
static const char *const async_drivers[] = {
	"generic-ehci", "generic-xhci", "xhci-platform", "snps,designware-i2c",
	"mediatek,mtu3", "mediatek,mtk-xhci", "brcm,bcm7445-ehci", "hisilicon,hi3798cv200-xhci",
};

/* Whether one of node @off's compatibles is in async_drivers[] or names UFS. */
static bool async_driver(const void *fdt, int off)
{
	int len, i;
	const char *c = fdt_getprop(fdt, off, "compatible", &len), *end;

	if (!c || len <= 0)
		return false;
	for (end = c + len; c < end; c += strnlen(c, end - c) + 1) {
		if (strnlen(c, end - c) == (size_t)(end - c))
			break;	/* not NUL-terminated: no more strings */
		if (strstr(c, "ufs") && !strstr(c, "phy"))	/* not a UFS PHY */
			return true;
		for (i = 0; i < (int)(sizeof(async_drivers) / sizeof(async_drivers[0])); i++)
			if (!strcmp(c, async_drivers[i]))
				return true;
	}
	return false;
}

/*
 * Whether Linux 6.12 makes the device of node @off (under node @parent)
 * asynchronous: by the bus it lands on, I2C clients (i2c_new_client_device()),
 * USB and PCI devices (compatible "usbVID,PID" / "pciVID,DID", or under a
 * node of device_type "pci") and SDIO functions (under an mmc or sdhci
 * node), each a child with a "reg" (an OPP table or other child without
 * one is no device on that bus); or by its driver (async_driver()).
 * Platform, AMBA, SPI and serdev devices are otherwise sync.
 */
static int async_by_bus(const void *fdt, int off, int parent)
{
	const char *type = fdt_getprop(fdt, parent, "device_type", NULL);
	bool reg = fdt_getprop(fdt, off, "reg", NULL);

	if (compatible_bus(fdt, off, "usb") || compatible_bus(fdt, off, "pci") ||
	    async_driver(fdt, off))
		return 1;
	if (reg && ((type && !strcmp(type, "pci")) || name_starts(fdt, parent, "i2c") ||
		    name_starts(fdt, parent, "mmc") || name_starts(fdt, parent, "sdhci")))
		return 1;
	return 0;
}

/* Node @off at index w->nnodes, under node @parent (-1: the root). */
static int add_node(struct walk *w, int off, int parent)
{
	const struct node *up;
	struct node *nd;
	const fdt32_t *ip;
	const char *name;
	int len, dev;

	if (reserve((void **)&w->nodes, &w->nodes_cap, w->nnodes, sizeof(*w->nodes)))
		return nomem(w);
	up = parent >= 0 ? &w->nodes[parent] : NULL;
	nd = &w->nodes[w->nnodes];
	nd->off = off;
	nd->enabled = node_enabled(w->fdt, off) && (!up || up->enabled);
	nd->owner = up ? up->owner : -1;
	ip = fdt_getprop(w->fdt, off, "interrupt-parent", &len);
	nd->irq_parent = ip && len == 4 ? fdt32_ld(ip) : up ? up->irq_parent : 0;
	if (up && nd->enabled && fdt_getprop(w->fdt, off, "compatible", NULL)) {
		name = fdt_get_name(w->fdt, off, NULL);
		dev = scenario_add(w->g, name ? name : "", nd->owner);
		if (dev < 0 && errno == ENOSPC)
			return fail(w, off, "more than %d devices", SCEN_MAX_DEVS);
		if (dev < 0)
			return nomem(w);
		nd->owner = dev;	/* its own device */
		w->g->devs[dev].async = async_by_bus(w->fdt, off, up->off);
	}
	if (note_cells(w, w->nnodes))
		return -1;
	w->nnodes++;
	return 0;
}

/* Every node of the root's tree, depth first. */
static int walk_nodes(struct walk *w)
{
	int off, depth = -1, stack[DT_MAX_DEPTH];

	for (off = fdt_next_node(w->fdt, -1, &depth); off >= 0 && depth >= 0;
	     off = fdt_next_node(w->fdt, off, &depth)) {
		if (depth >= DT_MAX_DEPTH)
			return fail(w, off, "nodes nested deeper than %d levels", DT_MAX_DEPTH);
		if (w->nnodes == DT_MAX_NODES)
			return fail(w, off, "more than %d nodes", DT_MAX_NODES);
		stack[depth] = w->nnodes;
		if (add_node(w, off, depth ? stack[depth - 1] : -1))
			return -1;
	}
	if (off < 0 && off != -FDT_ERR_NOTFOUND)
		return fail(w, -1, "bad structure block (%s)", fdt_strerror(off));
	if (!w->nnodes)
		return fail(w, -1, "no root node");
	return 0;
}

static int cmp_phandle(const void *a, const void *b)
{
	const struct phandle_node *x = a, *y = b;

	if (x->phandle != y->phandle)
		return x->phandle < y->phandle ? -1 : 1;
	return x->node - y->node;
}

/* The phandle table: the first node (in DT order) of each phandle wins. */
static int index_phandles(struct walk *w)
{
	uint32_t ph;
	int n;

	w->phandles = malloc(w->nnodes * sizeof(*w->phandles));
	if (!w->phandles)
		return nomem(w);
	for (n = 0; n < w->nnodes; n++) {
		ph = fdt_get_phandle(w->fdt, w->nodes[n].off);
		if (!ph || ph == ~0u)
			continue;
		w->phandles[w->nphandles].phandle = ph;
		w->phandles[w->nphandles++].node = n;
	}
	qsort(w->phandles, w->nphandles, sizeof(*w->phandles), cmp_phandle);
	return 0;
}

/* The node of phandle @ph, or -1. */
static int node_by_phandle(const struct walk *w, uint32_t ph)
{
	int lo = 0, hi = w->nphandles;	/* first entry >= ph in [lo, hi) */

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (w->phandles[mid].phandle < ph)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->nphandles && w->phandles[lo].phandle == ph ? w->phandles[lo].node : -1;
}

/* Consumer device @c references node @t. */
static int reference(struct walk *w, int c, int t)
{
	const struct node *nd = &w->nodes[t];

	if (!nd->enabled || nd->owner < 0) {
		scenario_unavailable(w->g);
		return 0;
	}
	switch (scenario_link(w->g, c, nd->owner)) {
	case SCEN_NOMEM:
		return nomem(w);
	case SCEN_CYCLE:
		w->g->devs[c].deps_unknown = 1;	/* a dependency not linked */
		break;
	default:
		break;
	}
	return 0;
}

/* Node @n's list @prop stops here: count it, note the first such place. */
__attribute__((format(printf, 4, 5)))
static int cut(struct walk *w, int n, const char *prop, const char *fmt, ...)
{
	char *s = w->r->first_cut, path[160];
	size_t size = sizeof(w->r->first_cut);
	int len;
	va_list ap;

	w->g->devs[w->nodes[n].owner].deps_unknown = 1;	/* the rest unread */
	if (w->g->stats.lists_cut++)
		return 0;
	if (fdt_get_path(w->fdt, w->nodes[n].off, path, sizeof(path)))
		snprintf(path, sizeof(path), "the node at offset %d", w->nodes[n].off);
	len = snprintf(s, size, "%s: %s: ", path, prop);
	if (len < 0 || (size_t)len >= size)
		return 0;
	va_start(ap, fmt);
	vsnprintf(s + len, size - len, fmt, ap);
	va_end(ap);
	return 0;
}

/* The value of @which in node @t: 0 when it has none (of_property_read_u32). */
static uint32_t provider_cells(const struct walk *w, int t, enum cells which)
{
	const struct node *nd = &w->nodes[t];
	int i;

	for (i = 0; i < nd->ncells; i++)
		if (w->cells[nd->cells + i].which == which)
			return w->cells[nd->cells + i].value;
	return 0;
}

static const char *name_of(const struct walk *w, int t)
{
	const char *name = fdt_get_name(w->fdt, w->nodes[t].off, NULL);

	return name && *name ? name : "/";
}

/*
 * Node @n (of device @c) has phandle list @prop (@len bytes at @v): each
 * phandle, then @which's number of argument cells from its provider.
 */
static int phandle_list(struct walk *w, int n, int c, const char *prop, const fdt32_t *v,
			int len, enum cells which)
{
	int ncells = len / 4, i = 0, t;
	uint32_t ph, count;

	while (i < ncells) {
		ph = fdt32_ld(&v[i++]);
		if (!ph || ph == ~0u)
			continue;	/* empty slot */
		t = node_by_phandle(w, ph);
		if (t < 0)
			return cut(w, n, prop, "phandle 0x%x names no node", ph);
		count = which == NO_CELLS ? 0 : provider_cells(w, t, which);
		if (count > DT_MAX_CELLS)
			return cut(w, n, prop, "%s of %s (phandle 0x%x) is %u, more than %d",
				   cells_names[which], name_of(w, t), ph, count, DT_MAX_CELLS);
		if (count > (uint32_t)(ncells - i))
			return cut(w, n, prop, "%s (phandle 0x%x) takes %u argument cells, %d left",
				   name_of(w, t), ph, count, ncells - i);
		if (reference(w, c, t))
			return -1;
		i += count;
	}
	return 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a > b && !strcmp(s + a - b, suffix);
}

/* Property @name (@len bytes at @v) of node @n, owned by device @c. */
static int scan_prop(struct walk *w, int n, int c, const char *name, const void *v, int len)
{
	size_t i;
	int ip;

	for (i = 0; i < sizeof(simple_props) / sizeof(simple_props[0]); i++)
		if (!strcmp(name, simple_props[i].prop))
			return phandle_list(w, n, c, name, v, len, simple_props[i].cells);
	for (i = 0; i < sizeof(unparsed_props) / sizeof(unparsed_props[0]); i++)
		if (!strcmp(name, unparsed_props[i]))
			w->g->devs[c].deps_unknown = 1;
	if (has_suffix(name, "-supply"))
		return phandle_list(w, n, c, name, v, len, NO_CELLS);
	if ((has_suffix(name, "-gpios") || has_suffix(name, "-gpio")) && strcmp(name, "nr-gpios"))
		return phandle_list(w, n, c, name, v, len, GPIO_CELLS);
	if (!strcmp(name, "interrupts")) {
		ip = node_by_phandle(w, w->nodes[n].irq_parent);
		if (ip >= 0)
			return reference(w, c, ip);
	}
	return 0;
}

static int scan_node(struct walk *w, int n)
{
	int c = w->nodes[n].owner, prop, len;
	const char *name;
	const void *v;

	if (c < 0 || !w->nodes[n].enabled)
		return 0;
	fdt_for_each_property_offset(prop, w->fdt, w->nodes[n].off) {
		v = fdt_getprop_by_offset(w->fdt, prop, &name, &len);
		if (!v || !name)
			continue;
		if (scan_prop(w, n, c, name, v, len))
			return -1;
	}
	return 0;
}

/* A DTB libfdt can walk safely, or -1 with the cause. */
static int check_blob(struct walk *w, size_t size)
{
	int err;

	if (size < 4 || fdt_magic(w->fdt) != FDT_MAGIC)
		return fail(w, -1, "not a flattened device tree (DTB)");
	if (size < sizeof(struct fdt_header))
		return fail(w, -1, "cut short: %zu bytes, less than a DTB header", size);
	if (fdt_totalsize(w->fdt) > size)
		return fail(w, -1, "cut short: the header says %u bytes, there are %zu",
			    fdt_totalsize(w->fdt), size);
	/*
	 * Before version 16 a node's name is its path; libfdt 1.6.1's
	 * fdt_check_full() dereferences NULL on such a root without a '/'.
	 * dtc has written version 17 since 2007.
	 */
	if (fdt_version(w->fdt) < 16)
		return fail(w, -1, "DTB version %u is not supported (16 or 17 are)",
			    fdt_version(w->fdt));
	err = fdt_check_full(w->fdt, size);
	switch (err) {
	case 0:
		return 0;
	case -FDT_ERR_BADVERSION:
		return fail(w, -1, "DTB version %u (compatible with %u) is not supported "
			    "(16 or 17 are)", fdt_version(w->fdt), fdt_last_comp_version(w->fdt));
	case -FDT_ERR_TRUNCATED:
		return fail(w, -1, "a block runs past the end of the DTB (%s)", fdt_strerror(err));
	default:
		return fail(w, -1, "damaged DTB (%s)", fdt_strerror(err));
	}
}

int dt_walk(const void *fdt, size_t size, struct scen_graph *g, struct dt_walk_result *r)
{
	struct walk w = { .fdt = fdt, .g = g, .r = r };
	int n, err;

	r->err_offset = -1;
	r->err[0] = '\0';
	r->first_cut[0] = '\0';
	err = check_blob(&w, size);
	if (!err)
		err = walk_nodes(&w);
	if (!err && !g->ndevs)
		err = fail(&w, -1, "no node with a compatible property");
	if (!err)
		err = index_phandles(&w);
	for (n = 0; !err && n < w.nnodes; n++)
		err = scan_node(&w, n);
	free(w.nodes);
	free(w.cells);
	free(w.phandles);
	return err;
}
