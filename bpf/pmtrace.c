// SPDX-License-Identifier: GPL-2.0
/*
 * pmtrace - per-device, per-phase timing of suspend/resume and runtime PM,
 * from the kernel's power events and the series' dpm_device and rpm events.
 *
 *   pmtrace -o records.jsonl -m scenario=dag-100 -c 'sh suspend.sh'
 *
 * Attaches pmtrace.bpf.c, runs COMMAND (or waits for SIGINT/SIGTERM), and
 * writes one JSON object per line (the record format of bpf/README.md):
 *   {"type":"begin",...}          first: format version and -m KEY=VALUEs
 *   {"type":"phase",...}          a step of a transition (suspend_resume)
 *   {"type":"device",...}         one device in one system-sleep phase
 *   {"type":"rpm_callback",...}   one runtime PM callback
 *   {"type":"rpm_request",...}    one asynchronous runtime PM request
 *   {"type":"end",...}            last: record count and dropped events
 *   {"type":"incomplete",...}     last instead of end: the recording was cut
 *                                 short (interrupted, a failed read), why
 * A file with neither is truncated.
 * Times are bpf_ktime_get_ns() (CLOCK_MONOTONIC) in nanoseconds.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <sched.h>
#include <search.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ksyms.h"
#include "pmtrace.h"
#include "pmtrace.skel.h"

/* pmtrace's own version; the records have theirs (PMTRACE_FORMAT) */
#define PMTRACE_VERSION "1.0"

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

/* distinct steps (suspend_resume action and value) a run can pair */
#define PHASE_KEYS_FIXED 64	/* dpm_*, freeze_processes, ...: about 30 */
#define PHASE_KEYS_PER_CPU 2	/* CPU_OFF[cpu], CPU_ON[cpu] */
#define MAX_OPTION_VALUE 100000000UL

/* what the command line asks for */
struct options {
	const char *out_path, *command, *stats_path;
	json_object *meta;		/* -m KEY=VALUE pairs */
	unsigned long max_phase_keys;	/* 0: PHASE_KEYS_FIXED + 2 per CPU */
	unsigned long max_events;	/* 0: as many as memory holds */
};

/* the last SIGINT or SIGTERM not acted on yet */
static volatile sig_atomic_t got_signal;

/* -v; libbpf's warning that says why a step failed (print_libbpf) */
static bool verbose;
static char libbpf_warning[512];

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

/* a step of a transition, between its begin and its end event */
struct step {
	char name[PMTRACE_NAME_LEN];	/* the key: name and value */
	int val;
	unsigned long long begin;	/* its open begin's time; 0: none */
	size_t snap;			/* that begin's CPU accounting (snaps[]) */
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

/* a device's name, from the names map, sorted by device pointer */
struct dev_name {
	unsigned long long dev;
	char name[PMTRACE_NAME_LEN];
};

/*
 * Events as the per-CPU ring buffers deliver them: each CPU's in order,
 * the CPUs' one after the other.  They are kept and sorted by time before
 * any record is made (a device is queued on one CPU and runs on another).
 */
struct stamped {
	struct pmtrace_event e;
	unsigned long long seq;		/* arrival: keeps a CPU's order on ties */
};

/* one recording: the events read, and the records made of them */
struct trace {
	FILE *out;
	long long records;
	struct stamped *evs;
	size_t nevs, cap_evs, max_events;
	bool full;			/* max_events reached */
	/* the phase events' CPU accounting, in arrival order (their e.dev) */
	struct pmtrace_phase_event *snaps;
	size_t nsnaps, cap_snaps;
	bool cpu_times;			/* the snapshots can be trusted */
	unsigned long long lost;	/* events pmtrace could not use */
	struct dev_name *dev_names;
	size_t ndev_names;
	void *open_recs;		/* struct dev_rec, by device and phase */
	struct step *steps;
	size_t nsteps, max_steps;
	void *step_tree;		/* struct step, by name and value */
	unsigned long long steps_dropped;	/* phase events without a step */
	void *cb_threads;		/* struct cb_thread, by tid */
	long accounting_errors;		/* phase records without CPU times */
	long unknown_phases;		/* phase records with CPUs of unknown state */
	struct ksyms *ksyms;		/* read at the first callback */
};

/* how the recording went */
struct run {
	pid_t child;			/* the command; 0: none */
	bool reaped;
	int status;			/* its wait status, once reaped */
	int interrupted;		/* the signal that cut the recording short */
	int read_err;			/* ring_buffer__poll/consume's error */
};

static void print_version(FILE *f, struct argp_state *state)
{
	(void)state;
	fprintf(f, "pmtrace %s (records %s, libbpf %s)\n", PMTRACE_VERSION, PMTRACE_FORMAT,
		libbpf_version_string());
}

void (*argp_program_version_hook)(FILE *, struct argp_state *) = print_version;

static const char doc[] =
"Per-device, per-phase suspend/resume and runtime PM timing, as JSON lines."
"\v"
"Examples:\n"
"  pmtrace -o records.jsonl -c 'echo mem > /sys/power/state'\n"
"      record one suspend/resume transition\n"
"  pmtrace -o records.jsonl -m scenario=dag-100 -m mode=async -c 'sh s.sh'\n"
"      the same, with KEY=VALUE pairs in the begin record\n"
"  pmtrace -o records.jsonl\n"
"      record until SIGINT (Ctrl-C) or SIGTERM\n"
"  pmtrace -s bpf-stats.txt -o records.jsonl -c 'sh suspend.sh'\n"
"      also each BPF program's runs and run time\n"
"  pmtrace -v -o records.jsonl -c true\n"
"      show libbpf's messages (why the programs do not load)\n"
"\n"
"COMMAND runs in its own process group; a SIGINT or SIGTERM to pmtrace is\n"
"passed on to it, and the records end \"incomplete\".  Exit status: the\n"
"command's; 128 + the signal when interrupted; 1 when events were dropped,\n"
"reading them failed or pmtrace could not start.";

enum { OPT_MAX_PHASE_KEYS = 0x100, OPT_MAX_EVENTS };

static const struct argp_option options[] = {
	{ "output", 'o', "FILE", 0, "Write records to FILE (default: standard output)", 0 },
	{ "command", 'c', "CMD", 0, "Run CMD with /bin/sh once attached; stop when it exits", 0 },
	{ "meta", 'm', "KEY=VALUE", 0, "Record KEY=VALUE in the begin record (repeatable)", 0 },
	{ "stats", 's', "FILE", 0,
	  "Enable BPF run-time statistics and write each program's runs and ns per run to FILE",
	  0 },
	{ "verbose", 'v', NULL, 0, "Print libbpf's messages (debug level included)", 0 },
	{ NULL, 0, NULL, 0, "Limits, to test the error paths:", 1 },
	{ "max-phase-keys", OPT_MAX_PHASE_KEYS, "N", 0,
	  "Pair begin and end events of at most N distinct steps (default: 64 + 2 per possible CPU); the events of more are dropped and counted",
	  1 },
	{ "max-events", OPT_MAX_EVENTS, "N", 0,
	  "Hold at most N events; one more fails the ring buffer read (as running out of memory would)",
	  1 },
	{ 0 },
};

/* @arg as a number from 1 to MAX_OPTION_VALUE, or an argp error */
static unsigned long parse_count(struct argp_state *state, const char *opt, const char *arg)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || n < 1 || n > MAX_OPTION_VALUE)
		argp_error(state, "%s wants a number from 1 to %lu, got '%s'", opt,
			   MAX_OPTION_VALUE, arg);
	return n;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	char *eq;

	switch (key) {
	case 'o':
		o->out_path = arg;
		break;
	case 'c':
		o->command = arg;
		break;
	case 's':
		o->stats_path = arg;
		break;
	case 'v':
		verbose = true;
		break;
	case 'm':
		eq = strchr(arg, '=');
		if (!eq || eq == arg)
			argp_error(state, "-m wants KEY=VALUE, got '%s'", arg);
		*eq = '\0';
		json_object_object_add(o->meta, arg, json_object_new_string(eq + 1));
		break;
	case OPT_MAX_PHASE_KEYS:
		o->max_phase_keys = parse_count(state, "--max-phase-keys", arg);
		break;
	case OPT_MAX_EVENTS:
		o->max_events = parse_count(state, "--max-events", arg);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (the command goes in -c CMD)", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * libbpf's messages: all of them with -v; else only kept, the first
 * warning that names a program (or the first warning), for the error
 * message of a failure.
 */
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[sizeof(libbpf_warning)];

	if (verbose)
		return vfprintf(stderr, fmt, ap);
	if (level != LIBBPF_WARN || strstr(libbpf_warning, "prog '"))
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!libbpf_warning[0] || strstr(msg, "prog '"))
		memcpy(libbpf_warning, msg, sizeof(msg));
	return 0;
}

/* A libbpf call failed: what, its error, and libbpf's first warning (the cause). */
static void libbpf_failed(const char *what, int err)
{
	char msg[128];

	libbpf_strerror(err, msg, sizeof(msg));
	fprintf(stderr, "pmtrace: %s: error %d (%s)\n", what, err, msg);
	if (libbpf_warning[0])
		fprintf(stderr, "pmtrace: %.*s\n", (int)strcspn(libbpf_warning, "\n"),
			libbpf_warning);
	if (!verbose)
		fprintf(stderr, "pmtrace: -v shows all of libbpf's messages\n");
	libbpf_warning[0] = '\0';
}

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

/* The first line: what the file is. */
static void write_begin(struct trace *t, json_object *meta)
{
	json_object *o = json_object_new_object();

	add_str(o, "type", "begin");
	add_str(o, "format", PMTRACE_FORMAT);
	json_object_object_add(o, "meta", json_object_get(meta));
	write_line(t, o);
}

/*
 * The last line: "end" when the file holds the whole recording (complete
 * if nothing was dropped), "incomplete" with the reason when it was cut
 * short.
 */
static void write_trailer(struct trace *t, unsigned long long dropped, const char *why)
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

static void free_rec(void *p)
{
	struct dev_rec *r = p;

	json_object_put(r->waits);
	free(r);
}

static int by_dev(const void *a, const void *b)
{
	const struct dev_name *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* The name of the device at @dev ("?" if the names map lacks it). */
static const char *name_of_dev(const struct trace *t, unsigned long long dev)
{
	struct dev_name key = { .dev = dev };
	const struct dev_name *n = bsearch(&key, t->dev_names, t->ndev_names, sizeof(key), by_dev);

	return n ? n->name : "?";
}

static void close_rec(struct trace *t, struct dev_rec *r)
{
	json_object *o = json_object_new_object(), *w = json_object_new_object();
	int i;

	add_str(o, "type", "device");
	add_str(o, "device", name_of_dev(t, r->dev));
	add_str(o, "phase", NAME(phase_names, r->phase));
	add_int(o, "event", r->event);
	add_int(o, "async", r->async);
	add_int(o, "cpu", r->cpu);
	add_int(o, "tid", r->tid);
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

static void free_cb_thread(void *p)
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
static void handle(struct trace *t, const struct pmtrace_event *e)
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
static int on_sample(void *ctx, void *data, size_t size)
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

/* One ring buffer per possible CPU in the rings map, all read by @rb. */
static struct ring_buffer *open_rings(struct pmtrace_bpf *skel, int ncpus, struct trace *t)
{
	int rings = bpf_map__fd(skel->maps.rings);
	struct ring_buffer *rb = NULL;
	int cpu, fd = -1, err;

	for (cpu = 0; cpu < ncpus; cpu++) {
		fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, PMTRACE_RING_BYTES, NULL);
		if (fd < 0 || bpf_map_update_elem(rings, &(__u32){ cpu }, &fd, BPF_ANY))
			goto fail;
		if (!rb)
			rb = ring_buffer__new(fd, on_sample, t, NULL);
		else if (ring_buffer__add(rb, fd, on_sample, t))
			goto fail;
		if (!rb)
			goto fail;
		close(fd);	/* the map holds it */
	}
	return rb;
fail:
	err = -errno;
	fprintf(stderr, "pmtrace: ring buffer for CPU %d: error %d (%s)\n", cpu, err,
		strerror(-err));
	if (fd >= 0)
		close(fd);
	ring_buffer__free(rb);
	return NULL;
}

static int by_time(const void *a, const void *b)
{
	const struct stamped *x = a, *y = b;

	if (x->e.ts != y->e.ts)
		return x->e.ts < y->e.ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The programs count every online CPU as one that can be idle. */
static int set_config(struct pmtrace_bpf *skel)
{
	struct pmtrace_config c = { .ncpus = sysconf(_SC_NPROCESSORS_ONLN) };
	char want[32];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char got[256] = "";
	int err;

	/* the programs account CPUs 0..ncpus-1: the online ones must be those */
	snprintf(want, sizeof(want), c.ncpus > 1 ? "0-%u" : "0", c.ncpus - 1);
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		got[strcspn(got, "\n")] = '\0';
		fclose(f);
	}
	if (strcmp(got, want) || c.ncpus > PMTRACE_MAX_CPUS) {
		fprintf(stderr,
			"pmtrace: online CPUs '%s': CPU accounting wants CPUs 0..N-1, N <= %d;"
			" phase records get no CPU times\n",
			got, PMTRACE_MAX_CPUS);
		c.ncpus = 0;
	}
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.config), &(__u32){ 0 }, &c, BPF_ANY)) {
		err = -errno;
		libbpf_failed("cannot configure the BPF programs", err);
		return err;
	}
	return 0;
}

/*
 * Run on every online CPU once, so that each leaves and re-enters idle
 * and the programs learn its state: a CPU's time counts only from its
 * first power:cpu_idle event (an idle tickless CPU may have none for long).
 */
static void visit_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (long c = 0; c < n && c < CPU_SETSIZE; c++) {
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			usleep(1000);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * Each program's runs and run time (kernel.bpf_stats_enabled, enabled
 * by us for our lifetime): "PROGRAM RUNS NS NS_PER_RUN" lines in @path.
 */
static int write_stats(struct pmtrace_bpf *skel, const char *path)
{
	struct bpf_program *prog;
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "pmtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# program runs run_ns ns_per_run (BPF_STATS_RUN_TIME)\n");
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		fprintf(f, "%s %llu %llu %.0f\n", bpf_program__name(prog),
			(unsigned long long)info.run_cnt, (unsigned long long)info.run_time_ns,
			info.run_cnt ? (double)info.run_time_ns / info.run_cnt : 0.0);
	}
	if (fclose(f)) {
		fprintf(stderr, "pmtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Updates of the idle-CPU count given up on (pmtrace.bpf.c allidle_step) */
static unsigned long long allidle_races(struct pmtrace_bpf *skel)
{
	struct pmtrace_allidle g = {};

	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.allidle), &(__u32){ 0 }, &g))
		return 0;
	if (g.races)
		fprintf(stderr,
			"pmtrace: the idle-CPU count lost %llu updates: no CPU times in any phase record\n",
			g.races);
	return g.races;
}

/* Events the programs could not send (pmtrace.bpf.c count_drop) */
static unsigned long long bpf_dropped(struct pmtrace_bpf *skel)
{
	__u64 n = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.dropped), &(__u32){ 0 }, &n)) {
		fprintf(stderr, "pmtrace: cannot read the programs' drop count: %s: counted as 1\n",
			strerror(errno));
		return 1;	/* unknown: not presented as none */
	}
	return n;
}

/* Copy the names map (pmtrace.h) into t->dev_names, sorted by device. */
static int read_names(struct pmtrace_bpf *skel, struct trace *t)
{
	int fd = bpf_map__fd(skel->maps.names);
	unsigned long long key, next, *prev = NULL;
	size_t cap = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct dev_name *n;

		key = next;
		prev = &key;
		if (t->ndev_names == cap) {
			cap = cap ? 2 * cap : 1024;
			n = reallocarray(t->dev_names, cap, sizeof(*n));
			if (!n)
				return -ENOMEM;
			t->dev_names = n;
		}
		n = &t->dev_names[t->ndev_names];
		n->dev = key;
		if (bpf_map_lookup_elem(fd, &key, n->name))
			continue;
		n->name[PMTRACE_NAME_LEN - 1] = '\0';
		t->ndev_names++;
	}
	qsort(t->dev_names, t->ndev_names, sizeof(*t->dev_names), by_dev);
	return 0;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/* SIGINT and SIGTERM stop the recording (no SA_RESTART: they end waits). */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* A signal received: passed on to the command's process group. */
static void pass_signal(struct run *r)
{
	int sig = got_signal;

	if (!sig)
		return;
	got_signal = 0;
	r->interrupted = sig;
	if (r->child && !r->reaped && kill(-r->child, sig) && kill(r->child, sig))
		fprintf(stderr, "pmtrace: cannot pass %s on to the command: %s\n", strsignal(sig),
			strerror(errno));
}

/*
 * Run COMMAND with /bin/sh in its own process group; its standard output
 * goes to standard error when the records go there.
 */
static int start_command(struct run *r, const char *command, bool records_on_stdout)
{
	r->child = fork();
	if (r->child < 0) {
		fprintf(stderr, "pmtrace: cannot run the command: fork: %s\n", strerror(errno));
		r->child = 0;
		return -1;
	}
	if (r->child == 0) {
		setpgid(0, 0);
		if (records_on_stdout)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		fprintf(stderr, "pmtrace: /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	setpgid(r->child, r->child);	/* either may run first */
	return 0;
}

/* Wait for the command to end, passing signals on; true once reaped. */
static bool reap(struct run *r, bool block)
{
	pid_t w;

	while (r->child && !r->reaped) {
		w = waitpid(r->child, &r->status, block ? 0 : WNOHANG);
		if (w == r->child) {
			r->reaped = true;
		} else if (w < 0 && errno == EINTR) {
			pass_signal(r);
		} else if (w < 0) {
			fprintf(stderr, "pmtrace: waiting for the command: %s\n", strerror(errno));
			r->status = -1;
			r->reaped = true;
		} else {
			break;		/* still running */
		}
	}
	return r->reaped;
}

/*
 * Read the rings until the command ends (or, without one, until SIGINT or
 * SIGTERM).  A signal while the command runs is passed on to it and the
 * recording goes on until it ends; a failed read stops the command.
 */
static void record(struct run *r, struct ring_buffer *rb)
{
	int err;

	for (;;) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR) {
			r->read_err = err;
			break;
		}
		if (!r->child && (got_signal || r->interrupted))
			break;
		pass_signal(r);
		if (r->child && reap(r, false))
			break;
	}
	err = ring_buffer__consume(rb);
	if (err < 0 && !r->read_err)
		r->read_err = err;
	if (r->child && !r->reaped) {
		fprintf(stderr, "pmtrace: reading the ring buffers failed: stopping the command\n");
		if (kill(-r->child, SIGTERM) && kill(r->child, SIGTERM))
			fprintf(stderr, "pmtrace: cannot stop the command: %s\n", strerror(errno));
		reap(r, true);
	}
}

/* How the command ended, after a signal or a failed read stopped it. */
static void report_command(const struct run *r)
{
	if (!r->child)
		fprintf(stderr, "pmtrace: the command was not started\n");
	else if (r->status >= 0 && WIFEXITED(r->status))
		fprintf(stderr, "pmtrace: the command (pid %d) exited with status %d\n", r->child,
			WEXITSTATUS(r->status));
	else if (r->status >= 0 && WIFSIGNALED(r->status))
		fprintf(stderr, "pmtrace: the command (pid %d) was killed by %s\n", r->child,
			strsignal(WTERMSIG(r->status)));
}

/* Why the records are incomplete, in @buf; NULL when they are not. */
static const char *cut_short(const struct run *r, const struct trace *t, char *buf, size_t n)
{
	if (r->read_err)
		snprintf(buf, n, "reading the ring buffers failed: error %d (%s)%s", r->read_err,
			 strerror(-r->read_err), t->full ? ", --max-events reached" : "");
	else if (r->interrupted)
		snprintf(buf, n, "interrupted by %s",
			 r->interrupted == SIGINT ? "SIGINT" : "SIGTERM");
	else
		return NULL;
	fprintf(stderr, "pmtrace: %s: records incomplete\n", buf);
	return buf;
}

/* The drops, each cause on stderr: their sum goes into the last record. */
static unsigned long long count_drops(struct pmtrace_bpf *skel, const struct trace *t)
{
	unsigned long long bpf = bpf_dropped(skel), total;

	if (bpf)
		fprintf(stderr,
			"pmtrace: %llu events dropped by the BPF programs (ring buffer or names map full, or a device's work not found on its thread)\n",
			bpf);
	if (t->lost)
		fprintf(stderr,
			"pmtrace: %llu events pmtrace could not use (malformed, or out of memory)\n",
			t->lost);
	if (t->steps_dropped)
		fprintf(stderr,
			"pmtrace: %llu phase events dropped: more than %zu distinct steps (--max-phase-keys)\n",
			t->steps_dropped, t->max_steps);
	total = bpf + t->lost + t->steps_dropped;
	if (total)
		fprintf(stderr, "pmtrace: %llu events dropped: records incomplete\n", total);
	return total;
}

/* everything one run holds */
struct session {
	struct options opt;
	struct trace t;
	struct run r;
	struct pmtrace_bpf *skel;
	struct ring_buffer *rb;
	int stats_fd;
	unsigned long long dropped;
};

static int init_trace(struct trace *t, const struct options *opt, int ncpus)
{
	t->max_steps = opt->max_phase_keys;
	if (!t->max_steps)
		t->max_steps = PHASE_KEYS_FIXED + PHASE_KEYS_PER_CPU * (size_t)ncpus;
	t->steps = calloc(t->max_steps, sizeof(*t->steps));
	t->max_events = opt->max_events;
	t->cpu_times = true;
	if (!t->steps)
		fprintf(stderr, "pmtrace: out of memory\n");
	return t->steps ? 0 : -ENOMEM;
}

static void no_free(void *p)
{
	(void)p;
}

static void free_trace(struct trace *t)
{
	tdestroy(t->open_recs, free_rec);
	tdestroy(t->step_tree, no_free);	/* the steps are in t->steps */
	tdestroy(t->cb_threads, free_cb_thread);
	free(t->steps);
	free(t->evs);
	free(t->snaps);
	free(t->dev_names);
	ksyms_free(t->ksyms);
}

/* Attach each program, naming the one that fails; the skeleton frees the links. */
static int attach_programs(struct pmtrace_bpf *skel)
{
	const struct bpf_object_skeleton *sk = skel->skeleton;
	char what[160];
	int i, err;

	for (i = 0; i < sk->prog_cnt; i++) {
		struct bpf_program *prog = *sk->progs[i].prog;
		struct bpf_link *link = bpf_program__attach(prog);

		if (!link) {
			err = -errno;
			snprintf(what, sizeof(what), "cannot attach program '%s' (%s)",
				 bpf_program__name(prog), bpf_program__section_name(prog));
			libbpf_failed(what, err);
			return err;
		}
		*sk->progs[i].link = link;
	}
	return 0;
}

/* Load the programs, one ring buffer per possible CPU, and attach them. */
static int setup(struct session *s)
{
	int ncpus = libbpf_num_possible_cpus(), err;

	if (ncpus < 1) {
		libbpf_failed("cannot count the possible CPUs", ncpus);
		return -EINVAL;
	}
	err = init_trace(&s->t, &s->opt, ncpus);
	if (err)
		return err;
	/* kernels that still charge BPF memory to RLIMIT_MEMLOCK */
	setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ RLIM_INFINITY, RLIM_INFINITY });
	s->skel = pmtrace_bpf__open();
	if (!s->skel) {
		err = -errno;
		libbpf_failed("cannot open the BPF object", err);
		return err;
	}
	err = bpf_map__set_max_entries(s->skel->maps.rings, ncpus);
	if (err) {
		libbpf_failed("cannot size the rings map", err);
		return err;
	}
	err = pmtrace_bpf__load(s->skel);
	if (err) {
		libbpf_failed("cannot load the BPF programs", err);
		return err;
	}
	/* the rings exist before any program can run */
	s->rb = open_rings(s->skel, ncpus, &s->t);
	if (!s->rb)
		return -EIO;
	err = set_config(s->skel);
	if (err)
		return err;
	if (s->opt.stats_path) {
		s->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (s->stats_fd < 0) {
			err = -errno;
			libbpf_failed("cannot enable BPF run-time statistics", err);
			return err;
		}
	}
	return attach_programs(s->skel);
}

/* Record until the command ends (or a signal): the begin record first. */
static int run(struct session *s)
{
	visit_cpus();
	write_begin(&s->t, s->opt.meta);
	fflush(s->t.out);
	if (s->opt.command && got_signal) {
		pass_signal(&s->r);	/* before the command started: not run */
	} else if (s->opt.command) {
		if (start_command(&s->r, s->opt.command, !s->opt.out_path))
			return -1;
	}
	record(&s->r, s->rb);
	return 0;
}

/* The events into records, and the last record: "end" or "incomplete". */
static int finish(struct session *s)
{
	struct trace *t = &s->t;
	const char *why;
	char buf[160];
	size_t i;

	if (allidle_races(s->skel))
		t->cpu_times = false;	/* no snapshot is trusted */
	if (read_names(s->skel, t)) {
		fprintf(stderr, "pmtrace: out of memory reading device names\n");
		return -ENOMEM;
	}
	qsort(t->evs, t->nevs, sizeof(*t->evs), by_time);
	for (i = 0; i < t->nevs; i++)
		handle(t, &t->evs[i].e);
	s->dropped = count_drops(s->skel, t);
	if (t->accounting_errors)
		fprintf(stderr,
			"pmtrace: %ld phase records without CPU times (inconsistent reads)\n",
			t->accounting_errors);
	if (t->unknown_phases)
		fprintf(stderr,
			"pmtrace: %ld phase records with CPUs of unknown state (no cpu_idle event yet)\n",
			t->unknown_phases);
	why = cut_short(&s->r, t, buf, sizeof(buf));
	if (why)
		report_command(&s->r);
	write_trailer(t, s->dropped, why);
	fprintf(stderr, "pmtrace: %lld records\n", t->records);
	if (s->opt.stats_path && write_stats(s->skel, s->opt.stats_path))
		return -EIO;
	return 0;
}

/* Close the records; none are left behind when pmtrace failed (@err). */
static int close_output(struct session *s, int err)
{
	const char *path = s->opt.out_path;

	if (fflush(s->t.out) || ferror(s->t.out)) {
		fprintf(stderr, "pmtrace: %s: %s\n", path ? path : "standard output",
			strerror(errno));
		err = -EIO;
	}
	if (path && fclose(s->t.out) && !err) {
		fprintf(stderr, "pmtrace: %s: %s\n", path, strerror(errno));
		err = -EIO;
	}
	if (err && path)
		unlink(path);
	return err;
}

static int exit_status(const struct session *s, int err)
{
	if (err)
		return 1;
	if (s->r.interrupted)
		return 128 + s->r.interrupted;
	if (s->r.read_err || s->dropped)
		return 1;
	if (s->r.child)
		return WIFEXITED(s->r.status) ? WEXITSTATUS(s->r.status) : 1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	struct session s = { .t.out = stdout, .stats_fd = -1 };
	int err;

	s.opt.meta = json_object_new_object();
	if (!s.opt.meta)
		return 1;
	argp_parse(&argp, argc, argv, 0, NULL, &s.opt);
	catch_signals();
	libbpf_set_print(print_libbpf);
	if (s.opt.out_path) {
		s.t.out = fopen(s.opt.out_path, "we");
		if (!s.t.out) {
			fprintf(stderr, "pmtrace: %s: %s\n", s.opt.out_path, strerror(errno));
			json_object_put(s.opt.meta);
			return 1;
		}
	}
	err = setup(&s);
	if (!err)
		err = run(&s);
	if (!err)
		err = finish(&s);
	err = close_output(&s, err);
	if (s.stats_fd >= 0)
		close(s.stats_fd);
	ring_buffer__free(s.rb);
	pmtrace_bpf__destroy(s.skel);
	free_trace(&s.t);
	json_object_put(s.opt.meta);
	return exit_status(&s, err);
}
