// SPDX-License-Identifier: GPL-2.0
/*
 * scengen - seeded, reproducible pmsynth scenarios of common shapes.
 *
 *   scengen tree  -n N [--fanout F]      balanced tree (parent edges), BFS order
 *   scengen tree  --depth D [--fanout F] complete tree of depth D
 *   scengen chain -n N                   N devices, each the slave of the previous
 *   scengen star  -n N                   a hub and N-1 slaves of it
 *   scengen dag   -n N [--links L]       random tree of parents plus on average
 *                                        L pm_links per device to earlier devices
 *
 * The same arguments and --seed always give the same text.  Latencies: the
 * model of scenario-model.h, then --defaults "KEY=VALUE ..." appended to the
 * @defaults line (later keys win).
 */
#include <argp.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "scenario-graph.h"

enum shape { TREE, CHAIN, STAR, DAG };

/* --defaults fits into the header (512) and the @defaults line (1024) */
#define DEFAULTS_MAX 300

struct args {
	enum shape shape;
	long n, depth, fanout;
	double links_per_dev;
	uint64_t seed;
	const char *extra_defaults;
};

static const char doc[] =
"Generate a pmsynth scenario: SHAPE is tree, chain, star or dag.";

static const struct argp_option options[] = {
	{ "devices", 'n', "N", 0, "Number of devices (1..4096)", 0 },
	{ "depth", 'd', "D", 0, "tree: depth instead of -n", 0 },
	{ "fanout", 'f', "F", 0, "tree: children per device (default 2)", 0 },
	{ "links", 'l', "L", 0, "dag: mean pm_links per device (default 1.0)", 0 },
	{ "seed", 's', "N", 0, "Seed for the graph and the jitter (default 1)", 0 },
	{ "defaults", 'D', "FIELDS", 0, "Extra @defaults fields, e.g. \"mode=all:spin\"", 0 },
	{ 0 },
};

static long number(struct argp_state *state, const char *opt, const char *arg,
		   long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < lo || v > hi)
		argp_error(state, "%s: expected %ld..%ld, got '%s'", opt, lo, hi, arg);
	return v;
}

static void parse_shape(struct argp_state *state, struct args *a, const char *arg)
{
	if (state->arg_num)
		argp_error(state, "one SHAPE only");
	if (!strcmp(arg, "tree"))
		a->shape = TREE;
	else if (!strcmp(arg, "chain"))
		a->shape = CHAIN;
	else if (!strcmp(arg, "star"))
		a->shape = STAR;
	else if (!strcmp(arg, "dag"))
		a->shape = DAG;
	else
		argp_error(state, "unknown shape '%s' (tree, chain, star, dag)", arg);
}

static void parse_end(struct argp_state *state, struct args *a)
{
	long total = 1, level = 1, i;

	if (!state->arg_num)
		argp_error(state, "no SHAPE given");
	if (a->shape == TREE && a->depth >= 0 && a->n < 0) {
		for (i = 0; i < a->depth; i++) {
			level *= a->fanout;
			total += level;
			if (total > SCEN_MAX_DEVS)
				argp_error(state,
					   "tree of depth %ld, fanout %ld exceeds %d devices",
					   a->depth, a->fanout, SCEN_MAX_DEVS);
		}
		a->n = total;
	}
	if (a->n < 0)
		argp_error(state, "give the number of devices with -n");
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;
	char *end;

	switch (key) {
	case 'n':
		a->n = number(state, "-n", arg, 1, SCEN_MAX_DEVS);
		break;
	case 'd':
		a->depth = number(state, "--depth", arg, 0, 20);
		break;
	case 'f':
		a->fanout = number(state, "--fanout", arg, 1, SCEN_MAX_DEVS);
		break;
	case 'l':
		errno = 0;
		a->links_per_dev = strtod(arg, &end);
		if (errno || *end || end == arg || !(a->links_per_dev >= 0) ||
		    a->links_per_dev > 64)
			argp_error(state, "--links: expected 0..64, got '%s'", arg);
		break;
	case 's':
		a->seed = number(state, "--seed", arg, 0, 1L << 62);
		break;
	case 'D':
		if (strlen(arg) > DEFAULTS_MAX)
			argp_error(state, "--defaults: longer than %d characters", DEFAULTS_MAX);
		a->extra_defaults = arg;
		break;
	case ARGP_KEY_ARG:
		parse_shape(state, a, arg);
		break;
	case ARGP_KEY_END:
		parse_end(state, a);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* splitmix64 */
static uint64_t next(uint64_t *rng)
{
	uint64_t x = (*rng += 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static double uniform(uint64_t *rng)
{
	return (next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* Device @i of the shape, with its parent and pm_links; 0 or -1 (no memory). */
static int add_device(struct scen_graph *g, const struct args *a, uint64_t *rng, long i)
{
	long parent = -1, k, nl;
	char base[32];
	int r = SCEN_LINKED;

	if (a->shape == TREE && i)
		parent = (i - 1) / a->fanout;
	if (a->shape == DAG && i && uniform(rng) < 0.7)
		parent = next(rng) % i;
	snprintf(base, sizeof(base), "%s%ld", a->shape == STAR && !i ? "hub" : "d", i);
	if (scenario_add(g, base, parent) < 0)
		return -1;
	if (a->shape == CHAIN && i)
		r = scenario_link(g, i, i - 1);
	if (a->shape == STAR && i)
		r = scenario_link(g, i, 0);
	if (a->shape == DAG && i) {
		nl = (long)a->links_per_dev +
		     (uniform(rng) < a->links_per_dev - (long)a->links_per_dev);
		for (k = 0; k < nl && r != SCEN_NOMEM; k++)
			r = scenario_link(g, i, next(rng) % i);
	}
	return r == SCEN_NOMEM ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, "SHAPE", doc, NULL, NULL, NULL };
	static const char * const names[] = { "tree", "chain", "star", "dag" };
	struct args a = {
		.shape = TREE, .n = -1, .depth = -1, .fanout = 2, .links_per_dev = 1.0,
		.seed = 1, .extra_defaults = "",
	};
	const char *x;
	char header[512], defaults[1024];
	struct scen_graph g;
	uint64_t rng;
	long i;
	int err = 0;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	if (scenario_init(&g)) {
		fprintf(stderr, "scengen: out of memory\n");
		return 1;
	}
	rng = a.seed;
	for (i = 0; i < a.n && !err; i++)
		err = add_device(&g, &a, &rng, i);
	if (err) {
		fprintf(stderr, "scengen: out of memory\n");
		scenario_free(&g);
		return 1;
	}
	x = a.extra_defaults;
	snprintf(header, sizeof(header),
		 "pmsynth scenario: scengen %s -n %ld --fanout %ld --links %g --seed %llu%s%s%s",
		 names[a.shape], a.n, a.fanout, a.links_per_dev, (unsigned long long)a.seed,
		 *x ? " --defaults \"" : "", x, *x ? "\"" : "");
	snprintf(defaults, sizeof(defaults), "%s seed=%llu%s%s", SCEN_IMPORT_DEFAULTS,
		 (unsigned long long)a.seed, *x ? " " : "", x);
	if (scenario_print(&g, stdout, header, NULL, defaults)) {
		fprintf(stderr, "scengen: writing the scenario: %s\n", strerror(errno));
		err = 1;
	}
	scenario_free(&g);
	return err;
}
