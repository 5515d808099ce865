// SPDX-License-Identifier: GPL-2.0
/*
 * rpm-latency - runtime resume latency of a leaf device through a chain of
 * N suppliers (pm_links), from pmtrace's runtime PM records.
 *
 * Each FILE is one recording in mode "runtime" (pmtrace -m mode=runtime)
 * of rounds in which the leaf is resumed while the whole chain is
 * suspended, with meta "suppliers" (N) and "request": "sync" (the leaf's
 * pm_runtime_resume()) or "queued" (pm_request_resume(), carried out by
 * pm_wq).  A round ends with the leaf's ->runtime_resume() returning 0.
 * Its latency starts at:
 *   sync    the first ->runtime_resume() of the round (the deepest
 *           supplier's: the PM core resumes suppliers first);
 *   queued  the leaf's resume request being queued (so pm_wq's delay and
 *           the PM core's walk count).
 * Every round must resume each of the N suppliers once (else the chain was
 * not suspended, or the links are not the ones declared): refused, named.
 *
 * Output: one row per FILE, "suppliers request rounds p50 p99 max" in us
 * (nearest-rank percentiles), after a header; with --callback-us US (each
 * runtime callback's own time) also the floor, (N + 1) * US: the N + 1
 * resume callbacks run one after the other, and what the PM core (and for
 * queued, pm_wq) adds per device at p50: (p50 - floor) / (N + 1).
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "percentile.h"
#include "records.h"

static const char *leaf_name = "leaf";
static long long callback_us = -1;	/* --callback-us, -1: not given */

static const struct argp_option options[] = {
	{ "device", 'd', "NAME", 0, "The leaf device (default: leaf)", 0 },
	{ "callback-us", 'c', "US", 0,
	  "Each runtime callback's own time: adds the floor and the overhead per device", 0 },
	{ 0 }
};

struct args {
	char **files;
	int nfiles;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;
	char *end;

	switch (key) {
	case 'c':
		errno = 0;
		callback_us = strtoll(arg, &end, 10);
		if (!*arg || *end || errno || callback_us < 0 || callback_us > 1000000)
			argp_error(state, "--callback-us %s: want microseconds 0..1000000", arg);
		break;
	case 'd':
		if (!*arg)
			argp_error(state, "--device: an empty name");
		leaf_name = arg;
		break;
	case ARGP_KEY_ARG:
		a->files = &state->argv[state->next - 1];
		a->nfiles = state->argc - state->next + 1;
		state->next = state->argc;
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no records file given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, "FILE...",
	"Runtime resume latency of a leaf through a chain of suppliers, from pmtrace "
	"records of mode runtime (meta suppliers=N, request=sync|queued).\v"
	"Example:\n  rpm-latency rpm-10-sync.jsonl rpm-10-queued.jsonl\n"
	"Exit status: 0, or 1 after a message naming the file and the cause.",
	NULL, NULL, NULL
};

static int is_resume_cb(const struct rpm_record *x)
{
	return !x->is_request && x->kind == RPM_CB_RESUME;
}

/*
 * The latency of the round that ends with @t->rpm[@li] (the leaf's resume
 * callback), the previous round having ended at @after (ns); -1 after a
 * message.
 */
static long long round_latency(const struct transition *t, int leaf, int li, long long after,
			       long long suppliers, int queued, int round)
{
	const struct rpm_record *l = &t->rpm[li];
	long long start = queued ? 0 : l->start;
	int i, n = 0;

	for (i = 0; i < t->nrpm; i++) {
		const struct rpm_record *x = &t->rpm[i];

		if (queued && x->is_request && x->dev == leaf && x->kind == RPM_REQ_QUEUED &&
		    x->request == 4 && x->start > after && x->start <= l->start)
			start = x->start;
		if (!is_resume_cb(x) || x->dev == leaf || x->end <= after || x->end > l->end)
			continue;
		n++;
		if (!queued && x->start && x->start < start)
			start = x->start;
	}
	if (n != suppliers) {
		fprintf(stderr, "%s:%lld: round %d resumed %d suppliers, the chain has %lld: "
				"the chain was not all suspended, or its links differ\n",
			t->path, l->line, round, n, suppliers);
		return -1;
	}
	if (!start) {
		fprintf(stderr, "%s:%lld: round %d: %s\n", t->path, l->line, round,
			queued ? "no queued resume request of the leaf before its callback" :
				 "the leaf's callback start was not seen");
		return -1;
	}
	return l->end - start;
}

/* one file's row, to @out; -1 after a message */
static int file_row(struct names *nm, const char *path, FILE *out)
{
	struct transition t;
	const char *sup, *req;
	long long suppliers, *lat = NULL, after = 0, p50;
	int i, n = 0, leaf, queued, ret = -1;
	char *end;

	if (transition_read(nm, path, &t))
		goto out;
	if (!t.runtime_only) {
		fprintf(stderr, "%s: mode '%s': not a runtime recording (mode=runtime)\n", path,
			t.mode ? t.mode : "(none)");
		goto out;
	}
	sup = transition_meta(&t, "suppliers");
	req = transition_meta(&t, "request");
	errno = 0;
	suppliers = sup ? strtoll(sup, &end, 10) : -1;
	if (!sup || !*sup || *end || errno || suppliers < 1 || suppliers > RECORDS_MAX_NAMES) {
		fprintf(stderr, "%s: meta 'suppliers' = %s: want a number 1..%d\n", path,
			sup ? sup : "(missing)", RECORDS_MAX_NAMES);
		goto out;
	}
	if (!req || (strcmp(req, "sync") && strcmp(req, "queued"))) {
		fprintf(stderr, "%s: meta 'request' = %s: want sync or queued\n", path,
			req ? req : "(missing)");
		goto out;
	}
	queued = !strcmp(req, "queued");
	leaf = names_id(nm, leaf_name, 0);
	lat = calloc(t.nrpm ? t.nrpm : 1, sizeof(*lat));
	if (!lat)
		goto out;
	for (i = 0; leaf >= 0 && i < t.nrpm; i++) {
		const struct rpm_record *x = &t.rpm[i];

		if (!is_resume_cb(x) || x->dev != leaf || x->ret)
			continue;
		lat[n] = round_latency(&t, leaf, i, after, suppliers, queued, n + 1);
		if (lat[n] < 0)
			goto out;
		after = x->end;
		n++;
	}
	if (!n) {
		fprintf(stderr, "%s: no runtime resume of '%s' recorded\n", path, leaf_name);
		goto out;
	}
	ll_sort(lat, n);
	p50 = percentile(lat, n, 0.5);
	fprintf(out, "%9lld %-7s %6d %10.1f %10.1f %10.1f", suppliers, req, n, p50 / 1e3,
		percentile(lat, n, 0.99) / 1e3, lat[n - 1] / 1e3);
	if (callback_us >= 0) {
		long long floor_ns = (suppliers + 1) * callback_us * 1000;

		fprintf(out, " %10.1f %10.1f", floor_ns / 1e3,
			(p50 - floor_ns) / 1e3 / (suppliers + 1));
	}
	fputc('\n', out);
	ret = 0;
out:
	free(lat);
	transition_free(&t);
	return ret;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct names *nm;
	char *rows = NULL;
	size_t len = 0;
	FILE *out;
	int i, ret = 0;

	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 1;
	nm = names_new();
	out = open_memstream(&rows, &len);
	if (!nm || !out) {
		fprintf(stderr, "rpm-latency: out of memory\n");
		return 1;
	}
	/* every file read before anything is printed: nothing half-made */
	for (i = 0; i < a.nfiles && !ret; i++)
		ret = file_row(nm, a.files[i], out) ? 1 : 0;
	fclose(out);
	if (!ret)
		printf("# runtime resume of '%s' through a chain of suppliers, us: sync from the "
		       "first\n# supplier callback, queued from the request; nearest-rank "
		       "percentiles%s\nsuppliers request  rounds        p50        p99        max%s\n%s",
		       leaf_name, callback_us < 0 ? "" : "; floor: the resume callbacks' own time, "
		       "per-dev:\n# (p50 - floor) / devices",
		       callback_us < 0 ? "" : "      floor    per-dev", rows);
	free(rows);
	names_free(nm);
	return ret;
}
