// SPDX-License-Identifier: GPL-2.0
/*
 * trace-events - one transition's pmtrace records as a Chrome trace-event
 * JSON file, which ui.perfetto.dev and chrome://tracing open.
 *
 * One process (the transition, named by the records' scenario and mode),
 * one track per thread that ran device callbacks (the phase's own thread
 * or an async worker, named by tid), plus a "phases" track with a slice
 * per device phase.  Each device record is a complete ("X") slice from
 * its start to its end on its thread's track, with its phase, callback
 * time, queue delay and blocked time as arguments; a queued async
 * device's wait for a worker is an async slice ("b"/"e", an id each:
 * these overlap) under "queued for a worker".  Each wait that blocked is
 * a flow arrow from the end of the device waited for ("s") to where the
 * waiter's slice was when it ended ("f", bound to that slice).  Times are microseconds (fractions
 * keep the ns) from the first phase's start.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "records.h"

/* the two tracks of no thread: above any kernel tid (at most 2^22) */
#define PHASES_TID	0x7ffffff0	/* a slice per device phase */
#define QUEUED_TID	0x7ffffff1	/* async devices waiting for a worker */

struct args {
	const char *records, *title;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case 't':
		a->title = arg;
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
	{ "title", 't', "TEXT", 0, "The process name (default: scenario and mode)", 0 },
	{ 0 }
};

static const struct argp argp = {
	options, parse_opt, "RECORDS",
	"One transition's pmtrace records as Chrome trace-event JSON (Perfetto, "
	"chrome://tracing).\v"
	"Example:\n  trace-events async-1.jsonl > async-1.trace.json\n"
	"Exit status: 0, or 1 after a message naming the file and the cause.",
	NULL, NULL, NULL
};

static long long origin;		/* ns: the first phase's start */

static json_object *event(const char *ph, const char *name, const char *cat, int tid,
			  long long ns)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "ph", json_object_new_string(ph));
	json_object_object_add(e, "name", json_object_new_string(name));
	if (cat)
		json_object_object_add(e, "cat", json_object_new_string(cat));
	json_object_object_add(e, "pid", json_object_new_int(1));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_object_add(e, "ts", json_object_new_double((ns - origin) / 1e3));
	return e;
}

static void add_int(json_object *o, const char *key, long long v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

/* a metadata event naming process 1 or thread @tid */
static json_object *meta(const char *what, int tid, const char *name)
{
	json_object *e = json_object_new_object(), *args = json_object_new_object();

	json_object_object_add(e, "ph", json_object_new_string("M"));
	json_object_object_add(e, "name", json_object_new_string(what));
	json_object_object_add(e, "pid", json_object_new_int(1));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_object_add(args, "name", json_object_new_string(name));
	json_object_object_add(e, "args", args);
	return e;
}

/*
 * the slice of device record @r of phase @p; without dpm_device events
 * (@no_dpm) no queue or blocked time: none measured, none given
 */
static json_object *slice(const struct names *nm, int p, const struct dev_record *r, int no_dpm)
{
	json_object *e = event("X", names_get(nm, r->dev), dpm_phase_names[p], r->tid, r->start);
	json_object *args = json_object_new_object();
	long long blocked = 0;
	int k;

	for (k = 0; k < r->nwaits; k++)
		blocked += r->wait_ns[k];
	json_object_object_add(e, "dur", json_object_new_double((r->end - r->start) / 1e3));
	json_object_object_add(args, "phase", json_object_new_string(dpm_phase_names[p]));
	add_int(args, "async", r->async);
	add_int(args, "callback_ns", r->cb_ns);
	if (!no_dpm) {
		add_int(args, "queue_ns", r->queued ? r->start - r->queued : 0);
		add_int(args, "blocked_ns", blocked);
	}
	json_object_object_add(e, "args", args);
	return e;
}

/* the flow arrow of @r's @k-th wait, id @id; the two ends into @ev */
static void flow(json_object *ev, const struct names *nm, const struct transition *t, int p,
		 const struct dev_record *r, int k, int id)
{
	const struct dev_record *on = transition_rec(t, p, r->waits[k]);
	long long from, to;
	json_object *s, *f;

	if (!on)		/* a device of no record in this phase */
		return;
	/*
	 * "s" just inside the end of the slice waited for; "f" where the wait
	 * ended, that end held within the waiter's slice: never before "s"
	 */
	from = on->end > on->start ? on->end - 1 : on->end;
	to = from < r->start ? r->start : from > r->end ? r->end : from;

	if (to < from)		/* the waiter ended before the device it waited for */
		return;
	s = event("s", "wait", "wait", on->tid, from);
	f = event("f", "wait", "wait", r->tid, to);
	json_object_object_add(s, "id", json_object_new_int(id));
	json_object_object_add(f, "id", json_object_new_int(id));
	json_object_object_add(f, "bp", json_object_new_string("e"));
	json_object_object_add(f, "args", json_object_new_object());
	json_object_object_add(json_object_object_get(f, "args"), "on",
			       json_object_new_string(names_get(nm, r->waits[k])));
	json_object_array_add(ev, s);
	json_object_array_add(ev, f);
}

/* a track for thread @tid, once: its name into @ev; -1 when out of memory */
static int thread_track(json_object *ev, int **tids, int *ntids, int tid)
{
	char name[32];
	int k, *more;

	for (k = 0; k < *ntids; k++)
		if ((*tids)[k] == tid)
			return 0;
	more = reallocarray(*tids, *ntids + 1, sizeof(*more));
	if (!more)
		return -1;
	*tids = more;
	(*tids)[(*ntids)++] = tid;
	snprintf(name, sizeof(name), "thread %d", tid);
	json_object_array_add(ev, meta("thread_name", tid, name));
	return 0;
}

/* a complete slice of @ns_len ns from @ns on track @tid */
static json_object *span(const char *name, const char *cat, int tid, long long ns,
			 long long ns_len)
{
	json_object *e = event("X", name, cat, tid, ns);

	json_object_object_add(e, "dur", json_object_new_double(ns_len / 1e3));
	return e;
}

/*
 * @r's wait for a worker, queued to start: an async slice ("b", "e") of
 * its own id, which viewers stack on tracks of their own (queued
 * intervals overlap without nesting)
 */
static void queued(json_object *ev, const char *name, const struct dev_record *r, int id)
{
	json_object *b = event("b", name, "queued", QUEUED_TID, r->queued);
	json_object *e = event("e", name, "queued", QUEUED_TID, r->start);

	json_object_object_add(b, "id", json_object_new_int(id));
	json_object_object_add(e, "id", json_object_new_int(id));
	json_object_array_add(ev, b);
	json_object_array_add(ev, e);
}

/* every phase's events into @ev; -1 when out of memory */
static int phase_events(json_object *ev, const struct names *nm, const struct transition *t)
{
	int p, i, k, id = 0, qid = 0, ntids = 0, *tids = NULL;

	for (p = 0; p < DPM_NR_PHASES; p++) {
		json_object_array_add(ev, span(dpm_phase_names[p], "phase", PHASES_TID,
					       t->phase_start[p],
					       t->phase_end[p] - t->phase_start[p]));
		for (i = 0; i < t->nrecs[p]; i++) {
			const struct dev_record *r = &t->recs[p][i];

			if (thread_track(ev, &tids, &ntids, r->tid)) {
				free(tids);
				return -1;
			}
			json_object_array_add(ev, slice(nm, p, r, t->no_dpm));
			if (r->queued && r->start > r->queued)
				queued(ev, names_get(nm, r->dev), r, ++qid);
			for (k = 0; k < r->nwaits; k++)
				flow(ev, nm, t, p, r, k, ++id);
		}
	}
	free(tids);
	return 0;
}

int main(int argc, char **argv)
{
	json_object *root = NULL, *ev, *md;
	struct args a = { 0 };
	struct transition t;
	struct names *nm;
	char name[256];
	int ret = 1;

	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 1;
	nm = names_new();
	if (!nm) {
		fprintf(stderr, "trace-events: out of memory\n");
		return 1;
	}
	memset(&t, 0, sizeof(t));
	if (transition_read(nm, a.records, &t))
		goto out;
	if (t.runtime_only) {
		fprintf(stderr, "%s: a runtime PM recording has no device phases\n", a.records);
		goto out;
	}
	if (transition_index(nm, &t))
		goto out;
	origin = t.phase_start[0];
	root = json_object_new_object();
	ev = json_object_new_array();
	json_object_object_add(root, "traceEvents", ev);
	snprintf(name, sizeof(name), "%s, %s", t.scenario ? t.scenario : "transition",
		 t.mode ? t.mode : "?");
	json_object_array_add(ev, meta("process_name", 0, a.title ? a.title : name));
	json_object_array_add(ev, meta("thread_name", PHASES_TID, "phases"));
	json_object_array_add(ev, meta("thread_name", QUEUED_TID, "queued for a worker"));
	if (phase_events(ev, nm, &t)) {
		fprintf(stderr, "trace-events: out of memory\n");
		goto out;
	}
	json_object_object_add(root, "displayTimeUnit", json_object_new_string("ns"));
	md = json_object_new_object();
	json_object_object_add(md, "scenario", json_object_new_string(t.scenario ?: ""));
	json_object_object_add(md, "mode", json_object_new_string(t.mode ?: ""));
	json_object_object_add(md, "clock", json_object_new_string(t.clock ?: ""));
	json_object_object_add(md, "source", json_object_new_string(a.records));
	json_object_object_add(root, "metadata", md);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "trace-events: writing the JSON failed\n");
		goto out;
	}
	ret = 0;
out:
	json_object_put(root);
	transition_free(&t);
	names_free(nm);
	return ret;
}
