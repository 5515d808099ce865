/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario-graph.h - the device graph every scenario writer builds: devices
 * with unique names, a parent each, and pm_links added under the rules of
 * scenario_link() (no self/ancestor links, duplicates merged, a link that
 * would close a cycle dropped).  scenario_print() writes the pmsynth
 * scenario text (bench/scenarios/README.md).
 *
 * All state lives in the struct scen_graph the caller passes: a tool (or a
 * fuzz harness) may build as many graphs as it likes, one after the other.
 */
#ifndef SCENARIO_GRAPH_H
#define SCENARIO_GRAPH_H

#include <argp.h>
#include <stdio.h>
#include "scenario-model.h"

#define SCEN_MAX_DEVS 4096

struct scen_dev {
	char name[SCEN_NAME_LEN];
	int parent;		/* device index or -1 */
	int *masters;
	int nmasters, cap;
	int async;		/* opted in (default 1); 0 prints async=0 */
	int deps_unknown;	/* prints deps=unknown: not all dependencies known */
	/*
	 * scenario_link()'s own: the device's place in a dependency order
	 * (its parent and masters come before it) and the devices depending
	 * on it (children and slaves).
	 */
	int order;
	int *deps;
	int ndeps, deps_cap;
};

/* A device seen by the search of scenario_link(), with its place. */
struct scen_visit {
	int order, dev;
};

struct scen_stats {
	int refs, links, unavailable, ancestor, duplicate, cycle;
	/*
	 * dt2scen: phandle lists whose rest was skipped at an unknown phandle,
	 * a #...-cells over 16 or arguments past the end (not references:
	 * nothing after that point can be told apart from argument cells).
	 */
	int lists_cut;
};

struct scen_graph {
	struct scen_dev *devs;
	int ndevs, cap;
	struct scen_stats stats;
	/* unique names: open-addressed table of device indices (-1: free) */
	int *names;
	/* per device: the next ".N" suffix to try when its name is a base */
	int *next_suffix;
	/* scenario_link() scratch: search stack, visit marks, devices found */
	int *stack;
	unsigned int *seen, gen;
	struct scen_visit *fwd, *back;
};

/* An empty graph; 0, or -1 when out of memory (@g then needs no free). */
int scenario_init(struct scen_graph *g);
void scenario_free(struct scen_graph *g);

/*
 * Add a device named after @base (made valid, then unique: BASE, BASE.2,
 * BASE.3, ... the first not taken); its index, or -1 when there are
 * SCEN_MAX_DEVS already or memory ran out (errno ENOSPC or ENOMEM).
 */
int scenario_add(struct scen_graph *g, const char *base, int parent);

enum scen_link_result {
	SCEN_NOMEM = -1, SCEN_LINKED, SCEN_ANCESTOR, SCEN_DUPLICATE, SCEN_CYCLE
};

/* Consumer @c depends on supplier @s; counted in @g->stats. */
enum scen_link_result scenario_link(struct scen_graph *g, int c, int s);

/* Count a reference that names nothing we know. */
void scenario_unavailable(struct scen_graph *g);

/* "N devices, L pm_links; R references: ..." (no newline) */
void scenario_summary(const struct scen_graph *g, FILE *f);

/*
 * "# @header", "# " and the counts, "# @note" (when not NULL), @defaults,
 * then one line per device (async=0 and deps=unknown where they apply); 0,
 * or -1 when writing failed (errno set).
 */
int scenario_print(const struct scen_graph *g, FILE *f, const char *header,
		   const char *note, const char *defaults);

/*
 * Options every importer takes (argp child parser; point the parent's
 * state->child_inputs[i] at a struct scen_import_opts in ARGP_KEY_INIT):
 * --seed N (the jitter seed written into @defaults), --source NAME
 * (recorded in the header) and --all-async (every device async=1 instead
 * of the importer's as-is opt-ins; deps= is written either way).
 */
struct scen_import_opts {
	unsigned long seed;	/* default 1 */
	const char *source;	/* or NULL */
	int all_async;
};

extern const struct argp scenario_import_argp;

/*
 * Print an importer's scenario to stdout: header naming @tool and the
 * source (@o->source, else @source), the import latency model with
 * @o->seed, the devices; the counts to stderr.  0, or -1 (said on stderr)
 * when stdout could not be written.
 */
int scenario_print_import(struct scen_graph *g, const struct scen_import_opts *o,
			  const char *tool, const char *source);

#endif /* SCENARIO_GRAPH_H */
