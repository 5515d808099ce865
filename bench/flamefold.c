// SPDX-License-Identifier: GPL-2.0
/*
 * flamefold - one transition's pmtrace records as folded stacks, the input
 * of flame graphs (flamegraph.pl, speedscope, inferno, d3-flame-graph).
 *
 * Two views of the device phases (prepare ... complete):
 *   callbacks  PHASE;ROOT;...;PARENT;DEVICE  the device's callback ns:
 *              a frame is as wide as its subtree's callbacks, so the
 *              subtrees that cost the time stand out (the hierarchy from
 *              --scenario; devices not in it under "[guest]", or each
 *              under its phase when no scenario is given);
 *   waits      PHASE;WAITED-FOR;WAITER  the ns WAITER was blocked on
 *              WAITED-FOR: the devices everyone waits for stand out.
 * Lines are sorted, one per stack (equal stacks summed), "STACK VALUE" (ns);
 * a frame's ';' is written as ':'.  Stacks of value 0 are left out.  Exit status: 0, or 1
 * after a message naming the file and the cause (nothing printed).
 */
#define _GNU_SOURCE
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "records.h"
#include "scenario-read.h"

struct args {
	const char *records, *scenario;
	int waits;		/* the waits view */
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case 's':
		a->scenario = arg;
		break;
	case 'v':
		if (!strcmp(arg, "waits"))
			a->waits = 1;
		else if (strcmp(arg, "callbacks"))
			argp_error(state, "--view %s: want callbacks or waits", arg);
		break;
	case ARGP_KEY_ARG:
		if (a->records)
			argp_error(state, "one records file (one transition), got '%s' too", arg);
		a->records = arg;
		break;
	case ARGP_KEY_END:
		if (!a->records)
			argp_error(state, "no records file given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option options[] = {
	{ "view", 'v', "VIEW", 0,
	  "callbacks (default): by device hierarchy; waits: by device waited for", 0 },
	{ "scenario", 's', "FILE", 0, "The scenario the records ran (device hierarchy)", 0 },
	{ 0 }
};

static const struct argp argp = {
	options, parse_opt, "RECORDS",
	"One transition's pmtrace records as folded stacks (flame graph input), in ns.\v"
	"Example:\n  flamefold --scenario dag-100.txt async-1.jsonl > async.folded\n"
	"Exit status: 0, or 1 after a message naming the file and the cause.",
	NULL, NULL, NULL
};

/* the folded stacks, each "STACK" and its ns */
struct stack {
	char *frames;
	long long ns;
};

struct lines {
	struct stack *v;
	size_t n, cap;
};

static int lines_add(struct lines *l, char *frames, long long ns)
{
	if (l->n == l->cap) {
		struct stack *more = reallocarray(l->v, l->cap ? 2 * l->cap : 256, sizeof(*more));

		if (!more)
			return -1;
		l->v = more;
		l->cap = l->cap ? 2 * l->cap : 256;
	}
	l->v[l->n].frames = frames;
	l->v[l->n++].ns = ns;
	return 0;
}

/* @name with ';' (the folded format's separator) written as ':' */
static void put_frame(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(*name == ';' ? ':' : *name, f);
}

/*
 * @node and its ancestors, outermost first, each a frame.  Recursion as
 * deep as the hierarchy: the scenario reader bounds it (4,096 devices, no
 * cycles), every level kept.
 */
static void put_chain(FILE *f, const struct scenario *scen, int node)
{
	if (node < 0)
		return;
	put_chain(f, scen, scen->nodes[node].parent);
	put_frame(f, scen->nodes[node].name);
	fputc(';', f);
}

/*
 * The frames above @dev: its ancestors in @scen, outermost first, or
 * "[guest]" for a device the scenario does not have.
 */
static void put_ancestors(FILE *f, const struct scenario *scen, const char *dev)
{
	int i = scen ? scenario_find(scen, dev) : -1;

	if (!scen)
		return;
	if (i < 0) {
		fputs("[guest];", f);
		return;
	}
	put_chain(f, scen, scen->nodes[i].parent);
}

static int by_frames(const void *a, const void *b)
{
	return strcmp(((const struct stack *)a)->frames, ((const struct stack *)b)->frames);
}

/* one folded line to @out; -1 when out of memory */
static int fold(struct lines *out, const char *phase, const struct scenario *scen,
		const char *top, const char *leaf, long long ns)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (ns <= 0)
		return 0;
	f = open_memstream(&s, &len);
	if (!f)
		return -1;
	fprintf(f, "%s;", phase);
	if (top) {
		put_frame(f, top);
		fputc(';', f);
	} else {
		put_ancestors(f, scen, leaf);
	}
	put_frame(f, leaf);
	if (fclose(f) || lines_add(out, s, ns)) {
		free(s);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct scenario scen = { 0 }, *sp = NULL;
	struct lines out = { 0 };
	struct args a = { 0 };
	struct transition t;
	struct names *nm;
	int p, i, k, ret = 1;
	size_t j;

	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 1;
	nm = names_new();
	if (!nm) {
		fprintf(stderr, "flamefold: out of memory\n");
		return 1;
	}
	memset(&t, 0, sizeof(t));
	if (a.scenario) {
		if (scenario_read(a.scenario, &scen))
			goto out;
		sp = &scen;
	}
	if (transition_read(nm, a.records, &t))
		goto out;
	if (t.runtime_only) {
		fprintf(stderr, "%s: a runtime PM recording has no device phases\n", a.records);
		goto out;
	}
	/* another scenario's hierarchy would misplace every device */
	if (sp && t.sha256 && strcmp(t.sha256, scen.sha256)) {
		fprintf(stderr,
			"%s: recorded with scenario sha256 %.12s..., not %s (sha256 %.12s...)\n",
			a.records, t.sha256, a.scenario, scen.sha256);
		goto out;
	}
	for (p = 0; p < DPM_NR_PHASES; p++) {
		for (i = 0; i < t.nrecs[p]; i++) {
			const struct dev_record *r = &t.recs[p][i];
			const char *dev = names_get(nm, r->dev);
			int err = 0;

			if (!a.waits)
				err = fold(&out, dpm_phase_names[p], sp, NULL, dev, r->cb_ns);
			for (k = 0; a.waits && k < r->nwaits && !err; k++)
				err = fold(&out, dpm_phase_names[p], sp, names_get(nm, r->waits[k]),
					   dev, r->wait_ns[k]);
			if (err) {
				fprintf(stderr, "flamefold: out of memory\n");
				goto out;
			}
		}
	}
	/* sorted, equal stacks (a device waiting twice on another) summed */
	qsort(out.v, out.n, sizeof(*out.v), by_frames);
	for (j = 0; j < out.n; j++) {
		long long ns = out.v[j].ns;

		while (j + 1 < out.n && !strcmp(out.v[j].frames, out.v[j + 1].frames))
			ns += out.v[++j].ns;
		printf("%s %lld\n", out.v[j].frames, ns);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "flamefold: writing the folded stacks failed\n");
		goto out;
	}
	ret = 0;
out:
	for (j = 0; j < out.n; j++)
		free(out.v[j].frames);
	free(out.v);
	transition_free(&t);
	if (sp)
		scenario_free(sp);
	names_free(nm);
	return ret;
}
