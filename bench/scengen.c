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

static enum shape shape;
static long n = -1, depth = -1, fanout = 2;
static double links_per_dev = 1.0;
static uint64_t seed = 1, rng;
static const char *extra_defaults = "";

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
	if (errno || *end || v < lo || v > hi)
		argp_error(state, "%s: expected %ld..%ld, got '%s'", opt, lo, hi, arg);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'n':
		n = number(state, "-n", arg, 1, SCEN_MAX_DEVS);
		break;
	case 'd':
		depth = number(state, "--depth", arg, 0, 20);
		break;
	case 'f':
		fanout = number(state, "--fanout", arg, 1, SCEN_MAX_DEVS);
		break;
	case 'l':
		errno = 0;
		links_per_dev = strtod(arg, &end);
		if (errno || *end || links_per_dev < 0 || links_per_dev > 64)
			argp_error(state, "--links: expected 0..64, got '%s'", arg);
		break;
	case 's':
		seed = number(state, "--seed", arg, 0, 1L << 62);
		break;
	case 'D':
		extra_defaults = arg;
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num)
			argp_error(state, "one SHAPE only");
		if (!strcmp(arg, "tree"))
			shape = TREE;
		else if (!strcmp(arg, "chain"))
			shape = CHAIN;
		else if (!strcmp(arg, "star"))
			shape = STAR;
		else if (!strcmp(arg, "dag"))
			shape = DAG;
		else
			argp_error(state, "unknown shape '%s' (tree, chain, star, dag)", arg);
		break;
	case ARGP_KEY_END:
		if (!state->arg_num)
			argp_error(state, "no SHAPE given");
		if (shape == TREE && depth >= 0 && n < 0) {
			long total = 1, level = 1, i;

			for (i = 0; i < depth; i++) {
				level *= fanout;
				total += level;
				if (total > SCEN_MAX_DEVS)
					argp_error(state, "tree of depth %ld, fanout %ld exceeds %d devices",
						   depth, fanout, SCEN_MAX_DEVS);
			}
			n = total;
		}
		if (n < 0)
			argp_error(state, "give the number of devices with -n");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* splitmix64 */
static uint64_t next(void)
{
	uint64_t x = (rng += 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static double uniform(void)
{
	return (next() >> 11) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, "SHAPE", doc, NULL, NULL, NULL };
	static const char *names[] = { "tree", "chain", "star", "dag" };
	char base[32], header[512], defaults[1024];
	long i, k, nl;

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	rng = seed;
	for (i = 0; i < n; i++) {
		long parent = -1;

		if (shape == TREE && i)
			parent = (i - 1) / fanout;
		if (shape == DAG && i && uniform() < 0.7)
			parent = next() % i;
		snprintf(base, sizeof(base), "%s%ld", shape == STAR && !i ? "hub" : "d", i);
		scenario_add(base, parent);
		if (shape == CHAIN && i)
			scenario_link(i, i - 1);
		if (shape == STAR && i)
			scenario_link(i, 0);
		if (shape == DAG && i) {
			nl = (long)links_per_dev + (uniform() < links_per_dev - (long)links_per_dev);
			for (k = 0; k < nl; k++)
				scenario_link(i, next() % i);
		}
	}
	snprintf(header, sizeof(header),
		 "pmsynth scenario: scengen %s -n %ld --fanout %ld --links %g --seed %llu%s%s%s",
		 names[shape], n, fanout, links_per_dev, (unsigned long long)seed,
		 *extra_defaults ? " --defaults \"" : "", extra_defaults,
		 *extra_defaults ? "\"" : "");
	snprintf(defaults, sizeof(defaults), "%s seed=%llu%s%s", SCEN_IMPORT_DEFAULTS,
		 (unsigned long long)seed, *extra_defaults ? " " : "", extra_defaults);
	scenario_print(stdout, header, defaults);
	return 0;
}
