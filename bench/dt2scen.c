// SPDX-License-Identifier: GPL-2.0
/*
 * dt2scen - a pmsynth scenario from a board's flattened device tree.
 *
 *   dt2scen board.dts > board.txt            (cpp + dtc run as the kernel does)
 *   dt2scen --seed 1 board.dtb > board.txt
 *
 * Devices: every enabled node with a "compatible" property, except the root,
 * under its nearest device ancestor.  pm_links: every phandle reference that
 * fw_devlink turns into a device link.  The rules (what is dropped, merged,
 * cut short and counted) are in dt-walk.c, the reader this tool shares with
 * its fuzz harness.  The counts go to stderr and into the scenario's header;
 * a damaged or unusable DTB is refused with the file, the offset when there
 * is one, and the cause, and nothing is written to stdout.
 */
#include <argp.h>
#include <errno.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dt-walk.h"
#include "dts-compile.h"

/* No DTB comes near this; it bounds what a runaway input can take. */
#define MAX_BLOB (1L << 30)

struct args {
	const char *input;
	struct dts_compile dts;
	int tree_given;
	struct scen_import_opts import;
};

static const char doc[] =
"Write a pmsynth scenario from a device tree: a source (.dts, or a file that\n"
"begins with /dts-v1/ or #include), preprocessed with cpp and compiled with dtc\n"
"as the kernel's build does, or a flattened one (DTB; '-' or no FILE: standard\n"
"input). Devices are nodes with \"compatible\"; pm_links are the references\n"
"fw_devlink turns into device links."
"\v"
"Examples:\n"
"  dt2scen build/linux/arch/arm64/boot/dts/qcom/sdm845-db845c.dts > db845c.txt\n"
"  dt2scen --kernel-tree ~/linux board.dts > board.txt\n"
"  dtc -I dts -O dtb board.dts | dt2scen --seed 2 > board.txt\n"
"Kernel tree (for a source's #include <dt-bindings/...>): --kernel-tree, else\n"
"the lab's (build/linux beside build/tools) when there is one.";

enum { OPT_TREE = 0x100 };

static const struct argp_option options[] = {
	{ "kernel-tree", OPT_TREE, "DIR", 0,
	  "kernel source tree whose scripts/dtc/include-prefixes a .dts includes from", 0 },
	{ "include", 'I', "DIR", 0, "another include directory for a .dts (repeatable)", 0 },
	{ 0 }
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->import;
		break;
	case OPT_TREE:
		a->dts.kernel_tree = arg;
		a->tree_given = 1;
		break;
	case 'I':
		if (a->dts.nincs == DTS_MAX_INCLUDES)
			argp_error(state, "at most %d -I directories", DTS_MAX_INCLUDES);
		a->dts.incdirs[a->dts.nincs++] = arg;
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "one FILE at most");
		a->input = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * All of @f (up to MAX_BLOB; reading stops early when the first bytes are
 * not a DTB's magic) in a malloc'ed buffer; NULL with the cause in @why.
 */
static void *read_all(FILE *f, size_t *len, const char **why)
{
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap), *p;

	while (buf) {
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0 || (n >= 4 && fdt_magic(buf) != FDT_MAGIC))
			break;
		if (n < cap)
			continue;
		if (cap >= MAX_BLOB) {
			*why = "larger than 1 GiB: not a device tree";
			free(buf);
			return NULL;
		}
		p = realloc(buf, cap * 2);
		if (!p)
			free(buf);
		buf = p;
		cap *= 2;
	}
	if (!buf) {
		*why = "out of memory";
		return NULL;
	}
	if (ferror(f)) {
		*why = strerror(errno);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static int import(const struct args *a, FILE *f)
{
	struct dt_walk_result r;
	struct scen_graph g;
	const char *why;
	size_t len;
	void *fdt;
	int err;

	fdt = read_all(f, &len, &why);
	if (!fdt) {
		fprintf(stderr, "dt2scen: %s: %s\n", a->input, why);
		return -1;
	}
	err = scenario_init(&g);
	if (err)
		fprintf(stderr, "dt2scen: out of memory\n");
	if (!err) {
		err = dt_walk(fdt, len, &g, &r);
		if (err && r.err_offset >= 0)
			fprintf(stderr, "dt2scen: %s: offset %ld: %s\n", a->input, r.err_offset,
				r.err);
		else if (err)
			fprintf(stderr, "dt2scen: %s: %s\n", a->input, r.err);
	}
	if (!err)
		err = scenario_print_import(&g, &a->import, "dt2scen", a->input);
	if (!err && r.first_cut[0])
		fprintf(stderr, "dt2scen: %s: the first phandle list cut short: %s\n",
			a->input, r.first_cut);
	scenario_free(&g);
	free(fdt);
	return err;
}

static FILE *dtb_copy;

/* Copy the compiler's output @f (closed here) to the tmpfile dtb_copy. */
static int copy_dtb(FILE *f, const char *path)
{
	char buf[65536];
	size_t n;
	int err = 0;

	dtb_copy = tmpfile();
	if (!dtb_copy) {
		fprintf(stderr, "dt2scen: %s: a temporary file: %s\n", path, strerror(errno));
		err = -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (!err && fwrite(buf, 1, n, dtb_copy) != n)
			err = -1;
	fclose(f);
	if (!err && fflush(dtb_copy))
		err = -1;
	if (err && dtb_copy)
		fprintf(stderr, "dt2scen: %s: a temporary file: %s\n", path, strerror(errno));
	if (!err)
		rewind(dtb_copy);
	return err;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &scenario_import_argp, 0, NULL, 0 }, { 0 }
	};
	static const struct argp argp = {
		options, parse_arg, "[FILE]", doc, children, NULL, NULL
	};
	struct args a = { .input = "-" };
	FILE *f;
	int err;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	f = strcmp(a.input, "-") ? fopen(a.input, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "dt2scen: %s: %s\n", a.input, strerror(errno));
		return 1;
	}
	if (!dts_is_source(a.input, f)) {
		err = import(&a, f);
		if (f != stdin)
			fclose(f);
		return err ? 1 : 0;
	}
	fclose(f);
	if (!a.tree_given)
		a.dts.kernel_tree = dts_default_tree();
	f = dts_compile_start(&a.dts, a.input);
	if (!f) {
		fprintf(stderr, "dt2scen: %s: cannot run cpp | dtc: %s\n", a.input,
			strerror(errno));
		return 1;
	}
	err = copy_dtb(f, a.input);
	if (dts_compile_finish(&a.dts, "dt2scen", a.input) || err)
		return 1;
	err = import(&a, dtb_copy);
	fclose(dtb_copy);
	return err ? 1 : 0;
}
