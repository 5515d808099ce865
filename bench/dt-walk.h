/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dt-walk.h - dt2scen's reader: the device graph of a flattened device tree
 * (DTB), built into a struct scen_graph.  Used by dt2scen and by the fuzz
 * harness bench/fuzz/fuzz-dt-walk.c; it prints nothing and never exits.
 */
#ifndef DT_WALK_H
#define DT_WALK_H

#include <stddef.h>
#include "scenario-graph.h"

#define DT_MAX_NODES 65536
#define DT_MAX_DEPTH 256
/* arguments after a phandle: MAX_PHANDLE_ARGS of include/linux/of.h */
#define DT_MAX_CELLS 16

struct dt_walk_result {
	/* when dt_walk() fails: the offset in the blob (-1: none) and why */
	long err_offset;
	char err[160];
	/* where and why the first phandle list was cut short, or "" */
	char first_cut[320];
};

/*
 * Add the devices and pm_links of the DTB @fdt (@size bytes, 8-byte
 * aligned) to the empty graph @g; the rules are in dt2scen.c's header.
 * 0, or -1 with @r->err (and @r->err_offset) saying why: not a DTB, a
 * damaged one, nodes nested deeper than DT_MAX_DEPTH, more than
 * DT_MAX_NODES nodes or SCEN_MAX_DEVS devices, none at all, no memory.
 * @g may hold devices after a failure; scenario_free() it either way.
 */
int dt_walk(const void *fdt, size_t size, struct scen_graph *g, struct dt_walk_result *r);

#endif /* DT_WALK_H */
