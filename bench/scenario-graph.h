/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario-graph.h - the device graph every scenario writer builds: devices
 * with unique names, a parent each, and pm_links added under the rules of
 * scenario_link() (no self/ancestor links, duplicates merged, a link that
 * would close a cycle dropped).  scenario_print() writes the pmsynth
 * scenario text (bench/scenarios/README.md).
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
	char *extra;		/* more fields for the line, or NULL */
};

struct scen_stats {
	int refs, links, unavailable, ancestor, duplicate, cycle;
};

extern struct scen_dev scen_devs[SCEN_MAX_DEVS];
extern int scen_ndevs;
extern struct scen_stats scen_stats;

/* Add a device named after @base (made valid and unique); its index or -1. */
int scenario_add(const char *base, int parent);

enum scen_link_result { SCEN_LINKED, SCEN_ANCESTOR, SCEN_DUPLICATE, SCEN_CYCLE };

/* Consumer @c depends on supplier @s; counted in scen_stats. */
enum scen_link_result scenario_link(int c, int s);

/* Count a reference that names nothing we know. */
void scenario_unavailable(void);

/* "# N devices, L pm_links; R references: ..." (no newline) */
void scenario_summary(FILE *f);

/* Header comment lines, @defaults, then one line per device. */
void scenario_print(FILE *f, const char *header, const char *defaults);

/*
 * Options every importer takes (argp child parser): --seed N (the jitter
 * seed written into @defaults) and --source NAME (recorded in the header).
 */
extern const struct argp scenario_import_argp;
extern unsigned long scen_seed;
extern const char *scen_source;

/* Print an importer's scenario: header naming @tool and @source, the
 * import latency model with scen_seed, the devices; the counts to stderr. */
void scenario_print_import(const char *tool, const char *source);

#endif /* SCENARIO_GRAPH_H */
