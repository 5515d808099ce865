// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-graph.c - the device graph shared by scengen, dt2scen and
 * sysfs2scen; see scenario-graph.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "scenario-graph.h"

struct scen_dev scen_devs[SCEN_MAX_DEVS];
int scen_ndevs;
struct scen_stats scen_stats;

static bool name_taken(const char *name)
{
	int i;

	for (i = 0; i < scen_ndevs; i++)
		if (!strcmp(scen_devs[i].name, name))
			return true;
	return false;
}

int scenario_add(const char *base, int parent)
{
	struct scen_dev *d = &scen_devs[scen_ndevs];
	char b[SCEN_NAME_LEN];
	int k = 1;

	if (scen_ndevs == SCEN_MAX_DEVS)
		return -1;
	snprintf(b, sizeof(b), "%s", base);
	scen_sanitize(b);
	snprintf(d->name, sizeof(d->name), "%s", b);
	while (name_taken(d->name))
		snprintf(d->name, sizeof(d->name), "%s.%d", b, ++k);
	d->parent = parent;
	return scen_ndevs++;
}

static bool is_ancestor(int anc, int d)
{
	for (d = scen_devs[d].parent; d >= 0; d = scen_devs[d].parent)
		if (d == anc)
			return true;
	return false;
}

/* Does device @from depend, through parents and masters, on @to? */
static bool depends_on(int from, int to)
{
	static int stack[SCEN_MAX_DEVS], seen[SCEN_MAX_DEVS], gen;
	int sp = 0, v, i, w;

	gen++;
	stack[sp++] = from;
	seen[from] = gen;
	while (sp) {
		v = stack[--sp];
		if (v == to)
			return true;
		for (i = -1; i < scen_devs[v].nmasters; i++) {
			w = i < 0 ? scen_devs[v].parent : scen_devs[v].masters[i];
			if (w >= 0 && seen[w] != gen) {
				seen[w] = gen;
				stack[sp++] = w;
			}
		}
	}
	return false;
}

enum scen_link_result scenario_link(int c, int s)
{
	struct scen_dev *d = &scen_devs[c];
	int i;

	scen_stats.refs++;
	if (s == c || is_ancestor(s, c)) {
		scen_stats.ancestor++;
		return SCEN_ANCESTOR;
	}
	for (i = 0; i < d->nmasters; i++) {
		if (d->masters[i] == s) {
			scen_stats.duplicate++;
			return SCEN_DUPLICATE;
		}
	}
	if (depends_on(s, c)) {
		scen_stats.cycle++;
		return SCEN_CYCLE;
	}
	if (d->nmasters == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 4;
		d->masters = realloc(d->masters, d->cap * sizeof(int));
		if (!d->masters) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	d->masters[d->nmasters++] = s;
	scen_stats.links++;
	return SCEN_LINKED;
}

void scenario_unavailable(void)
{
	scen_stats.refs++;
	scen_stats.unavailable++;
}

void scenario_summary(FILE *f)
{
	fprintf(f, "%d devices, %d pm_links; %d references: %d unavailable, %d to self or ancestor, %d duplicate, %d dropped to break cycles",
		scen_ndevs, scen_stats.links, scen_stats.refs, scen_stats.unavailable,
		scen_stats.ancestor, scen_stats.duplicate, scen_stats.cycle);
}

void scenario_print(FILE *f, const char *header, const char *defaults)
{
	int i, j;

	fprintf(f, "# %s\n# ", header);
	scenario_summary(f);
	fprintf(f, "\n@defaults %s\n", defaults);
	for (i = 0; i < scen_ndevs; i++) {
		struct scen_dev *d = &scen_devs[i];

		fputs(d->name, f);
		if (d->parent >= 0)
			fprintf(f, " parent=%s", scen_devs[d->parent].name);
		for (j = 0; j < d->nmasters; j++)
			fprintf(f, "%s%s", j ? "," : " masters=", scen_devs[d->masters[j]].name);
		if (d->extra)
			fprintf(f, " %s", d->extra);
		fputc('\n', f);
	}
}

unsigned long scen_seed = 1;
const char *scen_source;

static const struct argp_option import_options[] = {
	{ "seed", 's', "N", 0, "Jitter seed written into the scenario (default 1)", 0 },
	{ "source", 'S', "NAME", 0, "Source name recorded in the header", 0 },
	{ 0 },
};

static error_t import_parse(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 's':
		errno = 0;
		scen_seed = strtoul(arg, &end, 0);
		if (errno || *end)
			argp_error(state, "--seed: '%s' is not a number", arg);
		return 0;
	case 'S':
		scen_source = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp scenario_import_argp = {
	import_options, import_parse, NULL, NULL, NULL, NULL, NULL
};

void scenario_print_import(const char *tool, const char *source)
{
	char header[512], defaults[512];

	snprintf(header, sizeof(header),
		 "pmsynth scenario imported by %s from %s (latency model: bench/scenario-model.h)",
		 tool, scen_source ? scen_source : source);
	snprintf(defaults, sizeof(defaults), "%s seed=%lu", SCEN_IMPORT_DEFAULTS, scen_seed);
	scenario_print(stdout, header, defaults);
	fprintf(stderr, "%s: %s: ", tool, scen_source ? scen_source : source);
	scenario_summary(stderr);
	fputc('\n', stderr);
}
