// SPDX-License-Identifier: GPL-2.0
/*
 * pmtrace-records.c - pmtrace's events into records: the events the ring
 * buffers deliver are kept (on_sample), sorted by time (by_time) and each
 * turned into records (handle): a device's processing in a phase from its
 * queued to its done event, a step of a transition with its CPU times
 * between begin and end, a runtime PM callback and request.  The records
 * are JSON lines, between the begin and the last record (bpf/README.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <search.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"
#include "pmtrace.h"
#include "pmtrace-records.h"

static const char * const phase_names[] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

/* the kernel's enum dpm_wait_reason, enum dpm_outcome and enum rpm_request */
#define NR_RELATIONS 5
static const char * const relation_names[NR_RELATIONS] = {
	"parent", "child", "supplier", "consumer", "callback",
};

static const char * const outcome_names[] = {
	"called", "no_callback", "skipped_aborted", "skipped_wakeup", "skipped_syscore",
	"skipped_direct_complete", "skipped_not_suspended", "skipped_left_suspended",
	"skipped_removed",
};

static const char * const rpm_callbacks[] = {
	[1] = "runtime_idle", [2] = "runtime_suspend", [4] = "runtime_resume",
};

static const char * const rpm_requests[] = {
	"none", "idle", "suspend", "autosuspend", "resume",
};

/* a device's processing in a phase, from dpm_device_queued to _done (the
 * done event brings what the kernel side kept of start and callbacks)
 */
struct dev_rec {
	unsigned long long dev;		/* the key: device and phase */
	unsigned int phase;
	int event;
	unsigned long long queued, start, cb_start, cb_end, done;
	unsigned int cpu, tid;
	int async, error, outcome;
	json_object *waits;		/* array of {on, relation, ns} */
	unsigned long long wait_ns[NR_RELATIONS];
	unsigned int nvcsw, nivcsw;	/* the thread's switches, start to done */
};

/*
 * Runtime callbacks open on a thread (by its whole tid), innermost last: a
 * callback may run another device's (pm_runtime_get_sync() in
 * ->runtime_resume()).
 */
struct cb_open {
	unsigned long long dev, ts;
};

struct cb_thread {
	unsigned int tid;
	unsigned int depth, cap;
	struct cb_open *open;
};

static void add_str(json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, json_object_new_string(s));
}

static void add_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

static void write_line(struct trace *t, json_object *o)
{
	fprintf(t->out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void emit(struct trace *t, json_object *o)
{
	write_line(t, o);
	t->records++;
}

/*
 * What a kernel without the dpm_device events leaves out (bpf/README.md):
 * device record fields, null in every device record, and "uncalled": a
 * device whose callback did not run in a phase has no record of it.
 */
static const char * const no_dpm[] = {
	"queued", "start", "queue_ns", "wait_ns", "waits", "outcome", "uncalled",
};

/* without the rpm events: those record types */
static const char * const no_rpm[] = { "rpm_callback", "rpm_request" };

/* The first line: what the file is. */
void write_begin(struct trace *t, json_object *meta)
{
	json_object *o = json_object_new_object(), *absent = json_object_new_array();
	size_t i;

	add_str(o, "type", "begin");
	add_str(o, "format", PMTRACE_FORMAT);
	json_object_object_add(o, "meta", json_object_get(meta));
	json_object_object_add(o, "absent", absent);
	if (t->no_dpm)
		for (i = 0; i < sizeof(no_dpm) / sizeof(no_dpm[0]); i++)
			json_object_array_add(absent, json_object_new_string(no_dpm[i]));
	if (t->no_rpm)
		for (i = 0; i < sizeof(no_rpm) / sizeof(no_rpm[0]); i++)
			json_object_array_add(absent, json_object_new_string(no_rpm[i]));
	write_line(t, o);
}

/*
 * The last line: "end" when the file holds the whole recording (complete
 * if nothing was dropped), "incomplete" with the reason when it was cut
 * short.
 */
void write_trailer(struct trace *t, unsigned long long dropped, const char *why)
{
	json_object *o = json_object_new_object();

	add_str(o, "type", why ? "incomplete" : "end");
	add_int(o, "records", t->records);
	add_int(o, "dropped", dropped);
	if (why)
		add_str(o, "reason", why);
	write_line(t, o);
}

static const char *name_of(const char * const *names, size_t n, int i)
{
	return i >= 0 && (size_t)i < n && names[i] ? names[i] : "unknown";
}

#define NAME(tab, i) name_of(tab, sizeof(tab) / sizeof(tab[0]), i)

static int by_dev_phase(const void *a, const void *b)
{
	const struct dev_rec *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->phase < y->phase ? -1 : x->phase > y->phase;
}

/* The open record of e's device in e's phase, a new one if there is none. */
static struct dev_rec *lookup(struct trace *t, const struct pmtrace_event *e)
{
	struct dev_rec key = { .dev = e->dev, .phase = e->phase }, *r, **found;

	found = tfind(&key, &t->open_recs, by_dev_phase);
	if (found)
		return *found;
	r = calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	*r = key;
	r->event = e->event;
	r->waits = json_object_new_array();
	if (r->waits && tsearch(r, &t->open_recs, by_dev_phase))
		return r;
	json_object_put(r->waits);
	free(r);
nomem:
	t->lost++;
	return NULL;
}

void free_rec(void *p)
{
	struct dev_rec *r = p;

	json_object_put(r->waits);
	free(r);
}

int by_dev(const void *a, const void *b)
{
	const struct dev_name *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* The names of the device at @dev, or NULL if the names map lacks it. */
static const struct dev_name *names_of_dev(const struct trace *t, unsigned long long dev)
{
	struct dev_name key = { .dev = dev };

	return bsearch(&key, t->dev_names, t->ndev_names, sizeof(key), by_dev);
}

/* The name of the device at @dev ("?" if the names map lacks it). */
static const char *name_of_dev(const struct trace *t, unsigned long long dev)
{
	const struct dev_name *n = names_of_dev(t, dev);

	return n ? n->name : "?";
}

static void close_rec(struct trace *t, struct dev_rec *r)
{
	json_object *o = json_object_new_object(), *w = json_object_new_object();
	const struct dev_name *n;
	int i;

	add_str(o, "type", "device");
	add_str(o, "device", name_of_dev(t, r->dev));
	add_str(o, "phase", NAME(phase_names, r->phase));
	add_int(o, "event", r->event);
	add_int(o, "async", r->async);
	add_int(o, "cpu", r->cpu);
	add_int(o, "tid", r->tid);
	n = names_of_dev(t, r->dev);
	if (n && n->parent[0])
		add_str(o, "parent", n->parent);
	else
		json_object_object_add(o, "parent", NULL);
	add_int(o, "queued", r->queued);
	add_int(o, "start", r->start);
	add_int(o, "callback_start", r->cb_start);
	add_int(o, "end", r->done);
	add_int(o, "queue_ns", r->queued && r->start ? r->start - r->queued : 0);
	add_int(o, "callback_ns", r->cb_end > r->cb_start ? r->cb_end - r->cb_start : 0);
	for (i = 0; i < NR_RELATIONS; i++)
		add_int(w, relation_names[i], r->wait_ns[i]);
	json_object_object_add(o, "wait_ns", w);
	json_object_object_add(o, "waits", r->waits);
	r->waits = NULL;		/* the record owns them now */
	add_int(o, "nvcsw", r->nvcsw);
	add_int(o, "nivcsw", r->nivcsw);
	add_int(o, "error", r->error);
	add_str(o, "outcome", r->outcome == PMT_OUTCOME_UNKNOWN ?
		"unknown" : NAME(outcome_names, r->outcome));
	if (t->no_dpm)		/* what only dpm_device events tell: no_dpm[] but "uncalled" */
		for (i = 0; i < (int)(sizeof(no_dpm) / sizeof(no_dpm[0])) - 1; i++)
			json_object_object_add(o, no_dpm[i], NULL);
	emit(t, o);
}

static void on_queued(struct trace *t, const struct pmtrace_event *e)
{
	struct dev_rec *r = lookup(t, e);

	if (!r)
		return;
	r->queued = e->ts;
	r->async = e->async;
}

static void on_wait_end(struct trace *t, const struct pmtrace_event *e)
{
	struct dev_rec *r = lookup(t, e);
	unsigned long long ns;
	json_object *o;

	if (!r || !e->start || e->relation >= NR_RELATIONS)
		return;
	ns = e->ts - e->start;
	o = json_object_new_object();
	add_str(o, "on", name_of_dev(t, e->other));
	add_str(o, "relation", relation_names[e->relation]);
	add_int(o, "ns", ns);
	json_object_array_add(r->waits, o);
	r->wait_ns[e->relation] += ns;
}

static void on_done(struct trace *t, const struct pmtrace_event *e)
{
	struct dev_rec *r = lookup(t, e);

	if (!r)
		return;
	r->event = e->event;
	r->start = e->start;
	r->cb_start = e->cb_start;
	r->cb_end = e->cb_end;
	r->cpu = e->start_cpu;
	r->tid = e->tid;
	r->async = e->async;
	r->nvcsw = e->nvcsw;
	r->nivcsw = e->nivcsw;
	r->done = e->ts;
	r->error = e->value;
	r->outcome = e->outcome;
	close_rec(t, r);
	tdelete(r, &t->open_recs, by_dev_phase);
	free_rec(r);
}

static int by_step(const void *a, const void *b)
{
	const struct step *x = a, *y = b;

	if (x->val != y->val)
		return x->val < y->val ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The step @name[@val], a new one if there is none and there is room. */
static struct step *step_of(struct trace *t, const char *name, int val)
{
	struct step key = { .val = val }, *s, **found;

	snprintf(key.name, sizeof(key.name), "%s", name);
	found = tfind(&key, &t->step_tree, by_step);
	if (found)
		return *found;
	if (t->nsteps == t->max_steps)
		return NULL;
	s = &t->steps[t->nsteps];
	*s = key;
	if (!tsearch(s, &t->step_tree, by_step))
		return NULL;
	t->nsteps++;
	return s;
}

/*
 * A phase record's CPU accounting: per CPU the busy and idle ns between
 * its begin (@b) and end (@x) events, and the ns all CPUs were idle.  CPUs
 * that had no cpu_idle event yet are counted in "cpus_unknown" (their
 * time is in neither sum).
 */
static void add_cpu_times(struct trace *t, json_object *o, const struct pmtrace_phase_event *b,
			  const struct pmtrace_phase_event *x)
{
	json_object *cpus;
	unsigned int c, n = b->ncpus < x->ncpus ? b->ncpus : x->ncpus;

	if (n > PMTRACE_MAX_CPUS)
		n = PMTRACE_MAX_CPUS;
	/* a sum that went backwards, or an all-idle total not read whole */
	for (c = 0; c < n; c++)
		if (x->busy[c] < b->busy[c] || x->idle[c] < b->idle[c])
			break;
	if (!n || c < n || !b->all_idle_valid || !x->all_idle_valid ||
	    x->all_idle < b->all_idle) {
		t->accounting_errors++;
		return;
	}
	cpus = json_object_new_array();
	for (c = 0; c < n; c++) {
		json_object *one = json_object_new_object();

		add_int(one, "cpu", c);
		add_int(one, "busy_ns", x->busy[c] - b->busy[c]);
		add_int(one, "idle_ns", x->idle[c] - b->idle[c]);
		json_object_array_add(cpus, one);
	}
	json_object_object_add(o, "cpus", cpus);
	add_int(o, "all_idle_ns", x->all_idle - b->all_idle);
	add_int(o, "cpus_unknown", b->unknown > x->unknown ? b->unknown : x->unknown);
	if (b->unknown || x->unknown)
		t->unknown_phases++;
}

/* A step begins, or ends: its record (an end pairs with one begin only). */
static void on_phase(struct trace *t, const struct pmtrace_event *e)
{
	const struct pmtrace_phase_event *p;
	struct step *s;
	json_object *o;

	if (e->dev >= t->nsnaps) {	/* on_sample keeps one per phase event */
		t->lost++;
		return;
	}
	p = &t->snaps[e->dev];
	s = step_of(t, p->name, e->value);
	if (!s) {
		t->steps_dropped++;
		return;
	}
	if (e->kind == PMT_PHASE_BEGIN) {
		s->begin = e->ts;
		s->snap = e->dev;
		return;
	}
	o = json_object_new_object();
	add_str(o, "type", "phase");
	add_str(o, "name", p->name);
	add_int(o, "val", e->value);
	add_int(o, "start", s->begin);
	add_int(o, "end", e->ts);
	if (s->begin && t->cpu_times)
		add_cpu_times(t, o, &t->snaps[s->snap], p);
	s->begin = 0;
	emit(t, o);
}

static int by_tid(const void *a, const void *b)
{
	const struct cb_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void free_cb_thread(void *p)
{
	struct cb_thread *th = p;

	free(th->open);
	free(th);
}

/* The open callbacks of thread @tid, a new entry if it has none. */
static struct cb_thread *cb_thread(struct trace *t, unsigned int tid)
{
	struct cb_thread key = { .tid = tid }, *th, **found;

	found = tfind(&key, &t->cb_threads, by_tid);
	if (found)
		return *found;
	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	th->tid = tid;
	if (!tsearch(th, &t->cb_threads, by_tid)) {
		free(th);
		return NULL;
	}
	return th;
}

static void on_rpm_cb_start(struct trace *t, const struct pmtrace_event *e)
{
	struct cb_thread *th = cb_thread(t, e->tid);
	struct cb_open *more;

	if (!th)
		goto nomem;
	if (th->depth == th->cap) {
		more = reallocarray(th->open, th->cap ? 2 * th->cap : 4, sizeof(*more));
		if (!more)
			goto nomem;
		th->open = more;
		th->cap = th->cap ? 2 * th->cap : 4;
	}
	th->open[th->depth].dev = e->dev;
	th->open[th->depth++].ts = e->ts;
	return;
nomem:
	t->lost++;
}

static void on_rpm_cb_end(struct trace *t, const struct pmtrace_event *e)
{
	struct cb_thread key = { .tid = e->tid }, **found;
	unsigned long long start = 0;
	char buf[32];
	json_object *o;

	found = tfind(&key, &t->cb_threads, by_tid);
	while (found && (*found)->depth > 0) {	/* the innermost open one of this device */
		struct cb_thread *th = *found;

		if (th->open[--th->depth].dev == e->dev) {
			start = th->open[th->depth].ts;
			break;
		}
	}
	if (!t->ksyms)
		t->ksyms = ksyms_load();
	o = json_object_new_object();
	add_str(o, "type", "rpm_callback");
	add_str(o, "device", name_of_dev(t, e->dev));
	add_str(o, "callback", NAME(rpm_callbacks, e->event));
	add_str(o, "function", ksym_name(t->ksyms, e->other, buf, sizeof(buf)));
	add_int(o, "forced", e->async);
	add_int(o, "start", start);
	add_int(o, "end", e->ts);
	add_int(o, "ret", e->value);
	add_int(o, "cpu", e->cpu);
	emit(t, o);
}

static void on_rpm_request(struct trace *t, const struct pmtrace_event *e)
{
	json_object *o = json_object_new_object();
	const char *what = "run";

	if (e->kind == PMT_RPM_QUEUE)
		what = e->value ? "queued" : "replaced";
	else if (e->kind == PMT_RPM_CANCEL)
		what = "cancelled";
	add_str(o, "type", "rpm_request");
	add_str(o, "device", name_of_dev(t, e->dev));
	add_str(o, "request", NAME(rpm_requests, e->event));
	add_str(o, "what", what);
	add_int(o, "ts", e->ts);
	emit(t, o);
}

/* Turn one event, in time order, into records. */
void handle(struct trace *t, const struct pmtrace_event *e)
{
	switch (e->kind) {
	case PMT_PHASE_BEGIN:
	case PMT_PHASE_END:
		on_phase(t, e);
		break;
	case PMT_QUEUED:
		on_queued(t, e);
		break;
	case PMT_WAIT_END:
		on_wait_end(t, e);
		break;
	case PMT_DONE:
		on_done(t, e);
		break;
	case PMT_RPM_CB_START:
		on_rpm_cb_start(t, e);
		break;
	case PMT_RPM_CB_END:
		on_rpm_cb_end(t, e);
		break;
	case PMT_RPM_QUEUE:
	case PMT_RPM_CANCEL:
	case PMT_RPM_RUN:
		on_rpm_request(t, e);
		break;
	default:
		t->lost++;
	}
}

/* Keep a phase event's CPU accounting; its stamped copy finds it by e.dev. */
static struct pmtrace_event *keep_snapshot(struct trace *t, const void *data)
{
	struct pmtrace_phase_event *p;

	if (t->nsnaps == t->cap_snaps) {
		size_t cap = t->cap_snaps ? 2 * t->cap_snaps : 1024;

		p = reallocarray(t->snaps, cap, sizeof(*p));
		if (!p)
			return NULL;
		t->snaps = p;
		t->cap_snaps = cap;
	}
	p = &t->snaps[t->nsnaps];
	memcpy(p, data, sizeof(*p));
	p->name[PMTRACE_NAME_LEN - 1] = '\0';
	p->e.dev = t->nsnaps++;
	return &p->e;
}

/*
 * A ring buffer sample: kept for sorting.  An error ends the read
 * (ring_buffer__poll/consume return it): out of memory, or more events
 * than --max-events.
 */
int on_sample(void *ctx, void *data, size_t size)
{
	struct trace *t = ctx;
	const struct pmtrace_event *e = data;
	bool phase = size >= sizeof(*e) &&
		     (e->kind == PMT_PHASE_BEGIN || e->kind == PMT_PHASE_END);

	if (size < sizeof(*e) || (phase && size < sizeof(struct pmtrace_phase_event))) {
		t->lost++;
		return 0;
	}
	if (t->max_events && t->nevs == t->max_events) {
		t->full = true;
		return -ENOBUFS;
	}
	if (t->nevs == t->cap_evs) {
		size_t cap = t->cap_evs ? 2 * t->cap_evs : 65536;
		struct stamped *more = reallocarray(t->evs, cap, sizeof(*more));

		if (!more)
			return -ENOMEM;
		t->evs = more;
		t->cap_evs = cap;
	}
	if (phase) {
		e = keep_snapshot(t, data);
		if (!e)
			return -ENOMEM;
	}
	memcpy(&t->evs[t->nevs].e, e, sizeof(*e));
	t->evs[t->nevs].seq = t->nevs;
	t->nevs++;
	return 0;
}

int by_time(const void *a, const void *b)
{
	const struct stamped *x = a, *y = b;

	if (x->e.ts != y->e.ts)
		return x->e.ts < y->e.ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}
