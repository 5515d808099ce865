// SPDX-License-Identifier: GPL-2.0
/*
 * dt2scen - a pmsynth scenario from a board's flattened device tree.
 *
 *   dtc -I dts -O dtb board.dts (after cpp) | dt2scen --seed 1 > board.txt
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

/* No DTB comes near this; it bounds what a runaway input can take. */
#define MAX_BLOB (1L << 30)

struct args {
	const char *input;
	struct scen_import_opts import;
};

static const char doc[] =
"Write a pmsynth scenario from a flattened device tree (DTB; '-' or no FILE:\n"
"standard input). Devices are nodes with \"compatible\"; pm_links are the\n"
"references fw_devlink turns into device links.";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->import;
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

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &scenario_import_argp, 0, NULL, 0 }, { 0 }
	};
	static const struct argp argp = {
		NULL, parse_arg, "[FILE]", doc, children, NULL, NULL
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
	err = import(&a, f);
	if (f != stdin)
		fclose(f);
	return err ? 1 : 0;
}
