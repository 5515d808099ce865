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
 *   {"type":"end",...}            last: record count and dropped events;
 *                                 a file without it is truncated
 * Times are bpf_ktime_get_ns() (CLOCK_MONOTONIC) in nanoseconds.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <sched.h>
#include <search.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ksyms.h"
#include "pmtrace.h"
#include "pmtrace.skel.h"

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
static const char * const rpm_requests[] = { "none", "idle", "suspend", "autosuspend", "resume" };

#define MAX_KEYS 65536	/* distinct (device, phase) pairs */

/* a device's processing in a phase, from dpm_device_queued to _done (the
 * done event brings what the kernel side kept of start and callbacks) */
struct dev_rec {
	ENTRY *entry;			/* its entry in open_recs */
	struct pmtrace_event first;	/* its first event (key, phase, event); name set at done */
	unsigned long long queued, start, cb_start, cb_end, done;
	unsigned int cpu, tid;
	int async, error, outcome;
	json_object *waits;		/* array of {other, relation, ns} */
	unsigned long long wait_ns[NR_RELATIONS];
	unsigned int nvcsw, nivcsw;	/* the thread's switches, start to done */
};

static struct hsearch_data open_recs;	/* key "device/phase" -> open record */
/*
 * Runtime callbacks open on a thread (by tid), innermost last: a callback
 * may run another device's (pm_runtime_get_sync() in ->runtime_resume()).
 */
#define CB_THREADS 8192
#define CB_DEPTH 4
static struct { unsigned long long dev, ts; } open_cbs[CB_THREADS][CB_DEPTH];
static unsigned char cb_depth[CB_THREADS];
static unsigned long long phase_begin[64];
static long phase_begin_snap[64];	/* index in snaps[] */
static char phase_key[64][PMTRACE_NAME_LEN + 12];
static int nphase_keys;

static FILE *out;
static const char *out_path, *command, *stats_path;
static volatile sig_atomic_t stop;
static long long records;
static json_object *meta;		/* -m KEY=VALUE pairs */

static const char doc[] =
"Per-device, per-phase suspend/resume and runtime PM timing, as JSON lines.";

static const struct argp_option options[] = {
	{ "output", 'o', "FILE", 0, "Write records to FILE (default: standard output)", 0 },
	{ "command", 'c', "CMD", 0, "Run CMD with /bin/sh once attached; stop when it exits", 0 },
	{ "meta", 'm', "KEY=VALUE", 0, "Record KEY=VALUE in the begin record (repeatable)", 0 },
	{ "stats", 's', "FILE", 0,
	  "Enable BPF run-time statistics and write each program's runs and ns per run to FILE", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'o':
		out_path = arg;
		break;
	case 'c':
		command = arg;
		break;
	case 's':
		stats_path = arg;
		break;
	case 'm': {
		char *eq = strchr(arg, '=');

		if (!eq || eq == arg)
			argp_error(state, "-m wants KEY=VALUE, got '%s'", arg);
		*eq = '\0';
		json_object_object_add(meta, arg, json_object_new_string(eq + 1));
		break;
	}
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void write_line(json_object *o)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void emit(json_object *o)
{
	write_line(o);
	records++;
}

/* The first and last lines: what the file is, and that it is complete. */
static void write_begin(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("begin"));
	json_object_object_add(o, "format", json_object_new_string(PMTRACE_FORMAT));
	json_object_object_add(o, "meta", json_object_get(meta));
	write_line(o);
}

static void write_end(unsigned long long dropped)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("end"));
	json_object_object_add(o, "records", json_object_new_int64(records));
	json_object_object_add(o, "dropped", json_object_new_int64(dropped));
	write_line(o);
}

static const char *name_of(const char * const *names, size_t n, int i)
{
	return i >= 0 && (size_t)i < n && names[i] ? names[i] : "unknown";
}

#define NAME(tab, i) name_of(tab, sizeof(tab) / sizeof(tab[0]), i)

/*
 * The open record of e's device in e's phase; with @create, a new one when
 * there is none.  The table keeps one entry per "device/phase" key (it
 * cannot delete): a closed record leaves its entry with no data.
 */
static struct dev_rec *lookup(const struct pmtrace_event *e, bool create)
{
	char key[PMTRACE_NAME_LEN + 4];	/* 8 + 1 + 3 + 1 + 16 + 1 */
	ENTRY item = { .key = key }, *found = NULL;
	struct dev_rec *r;

	/*
	 * glibc's hsearch hashes mostly a key's first eight characters: the
	 * pointer's low 32 bits go first (all high halves are ffff8880...)
	 */
	snprintf(key, sizeof(key), "%08x/%u/%llx", (unsigned int)e->dev, e->phase, e->dev);
	hsearch_r(item, FIND, &found, &open_recs);
	if (!create || (found && found->data))
		return found ? found->data : NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	if (!found) {
		item.key = strdup(key);
		if (!item.key || !hsearch_r(item, ENTER, &found, &open_recs)) {
			free(item.key);
			free(r);
			return NULL;
		}
	}
	r->first = *e;
	r->waits = json_object_new_array();
	r->entry = found;
	found->data = r;
	return r;
}

static void close_rec(struct dev_rec *r)
{
	json_object *o = json_object_new_object(), *w = json_object_new_object();
	int i;

	json_object_object_add(o, "type", json_object_new_string("device"));
	json_object_object_add(o, "device", json_object_new_string(r->first.name));
	json_object_object_add(o, "phase", json_object_new_string(NAME(phase_names, r->first.phase)));
	json_object_object_add(o, "event", json_object_new_int(r->first.event));
	json_object_object_add(o, "async", json_object_new_int(r->async));
	json_object_object_add(o, "cpu", json_object_new_int(r->cpu));
	json_object_object_add(o, "tid", json_object_new_int(r->tid));
	json_object_object_add(o, "queued", json_object_new_int64(r->queued));
	json_object_object_add(o, "start", json_object_new_int64(r->start));
	json_object_object_add(o, "callback_start", json_object_new_int64(r->cb_start));
	json_object_object_add(o, "end", json_object_new_int64(r->done));
	json_object_object_add(o, "queue_ns", json_object_new_int64(r->queued && r->start ? r->start - r->queued : 0));
	json_object_object_add(o, "callback_ns", json_object_new_int64(r->cb_end > r->cb_start ? r->cb_end - r->cb_start : 0));
	for (i = 0; i < NR_RELATIONS; i++)
		json_object_object_add(w, relation_names[i], json_object_new_int64(r->wait_ns[i]));
	json_object_object_add(o, "wait_ns", w);
	json_object_object_add(o, "waits", r->waits);
	json_object_object_add(o, "nvcsw", json_object_new_int64(r->nvcsw));
	json_object_object_add(o, "nivcsw", json_object_new_int64(r->nivcsw));
	json_object_object_add(o, "error", json_object_new_int(r->error));
	json_object_object_add(o, "outcome", json_object_new_string(r->outcome == PMT_OUTCOME_UNKNOWN ?
		"unknown" : NAME(outcome_names, r->outcome)));
	emit(o);
}

static int phase_slot(const char *name, int val)
{
	char key[PMTRACE_NAME_LEN + 12];
	int i;

	snprintf(key, sizeof(key), "%s[%d]", name, val);
	for (i = 0; i < nphase_keys; i++)
		if (!strcmp(phase_key[i], key))
			return i;
	if (nphase_keys == 64)
		return -1;
	snprintf(phase_key[nphase_keys], sizeof(phase_key[0]), "%s", key);
	return nphase_keys++;
}

/* the phase events' CPU accounting, in arrival order (struct stamped's dev) */
static struct pmtrace_phase_event *snaps;
static size_t nsnaps;
/* phase records without CPU times (inconsistent reads), with unknown CPUs */
static long accounting_errors, unknown_phases;

/*
 * A phase record's CPU accounting: per CPU the busy and idle ns between
 * its begin (@b) and end (@x) events, and the ns all CPUs were idle.  CPUs
 * that had no cpu_idle event yet are counted in "cpus_unknown" (their
 * time is in neither sum).
 */
static void add_cpu_times(json_object *o, const struct pmtrace_phase_event *b,
			  const struct pmtrace_phase_event *x)
{
	json_object *cpus;
	unsigned int c, n = b->ncpus < x->ncpus ? b->ncpus : x->ncpus;

	/* a sum that went backwards, or an all-idle total not read whole */
	for (c = 0; c < n; c++)
		if (x->busy[c] < b->busy[c] || x->idle[c] < b->idle[c])
			break;
	if (!n || c < n || !b->all_idle_valid || !x->all_idle_valid ||
	    x->all_idle < b->all_idle) {
		accounting_errors++;
		return;
	}
	cpus = json_object_new_array();
	for (c = 0; c < n; c++) {
		json_object *one = json_object_new_object();

		json_object_object_add(one, "cpu", json_object_new_int(c));
		json_object_object_add(one, "busy_ns", json_object_new_int64(x->busy[c] - b->busy[c]));
		json_object_object_add(one, "idle_ns", json_object_new_int64(x->idle[c] - b->idle[c]));
		json_object_array_add(cpus, one);
	}
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "all_idle_ns", json_object_new_int64(x->all_idle - b->all_idle));
	json_object_object_add(o, "cpus_unknown",
			       json_object_new_int(b->unknown > x->unknown ? b->unknown : x->unknown));
	if (b->unknown || x->unknown)
		unknown_phases++;
}

/* the names map, read once the events are in: sorted by device pointer */
struct dev_name {
	unsigned long long dev;
	char name[PMTRACE_NAME_LEN];
};
static struct dev_name *dev_names;
static size_t ndev_names;

static int by_dev(const void *a, const void *b)
{
	const struct dev_name *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* Copy the names map (pmtrace.h) into dev_names. */
static int read_names(struct pmtrace_bpf *skel)
{
	int fd = bpf_map__fd(skel->maps.names);
	unsigned long long key, next, *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct dev_name *more;

		key = next;
		prev = &key;
		more = realloc(dev_names, (ndev_names + 1) * sizeof(*dev_names));
		if (!more)
			return -ENOMEM;
		dev_names = more;
		dev_names[ndev_names].dev = key;
		if (bpf_map_lookup_elem(fd, &key, dev_names[ndev_names].name))
			continue;
		dev_names[ndev_names].name[PMTRACE_NAME_LEN - 1] = '\0';
		ndev_names++;
	}
	qsort(dev_names, ndev_names, sizeof(*dev_names), by_dev);
	return 0;
}

/* The name of the device at @dev ("?" if the names map lacks it). */
static const char *name_of_dev(unsigned long long dev)
{
	struct dev_name key = { .dev = dev };
	const struct dev_name *n = bsearch(&key, dev_names, ndev_names, sizeof(key), by_dev);

	return n ? n->name : "?";
}

/* Turn one event, in time order, into records. */
static void handle(const struct pmtrace_event *e)
{
	unsigned long long start;
	struct dev_rec *r;
	json_object *o;
	int slot;

	switch (e->kind) {
	case PMT_PHASE_BEGIN:
	case PMT_PHASE_END:
		slot = phase_slot(e->name, e->value);
		if (slot < 0)
			break;
		if (e->kind == PMT_PHASE_BEGIN) {
			phase_begin[slot] = e->ts;
			phase_begin_snap[slot] = (long)e->dev;
			break;
		}
		o = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("phase"));
		json_object_object_add(o, "name", json_object_new_string(e->name));
		json_object_object_add(o, "val", json_object_new_int(e->value));
		json_object_object_add(o, "start", json_object_new_int64(phase_begin[slot]));
		json_object_object_add(o, "end", json_object_new_int64(e->ts));
		if (phase_begin[slot] && phase_begin_snap[slot] >= 0 && e->dev < nsnaps)
			add_cpu_times(o, &snaps[phase_begin_snap[slot]], &snaps[e->dev]);
		phase_begin[slot] = 0;		/* an end pairs with one begin only */
		phase_begin_snap[slot] = -1;
		emit(o);
		break;
	case PMT_QUEUED:
		r = lookup(e, true);
		if (r) {
			r->queued = e->ts;
			r->async = e->async;
		}
		break;
	case PMT_WAIT_END:
		r = lookup(e, true);
		if (r && e->start && e->relation < NR_RELATIONS) {
			unsigned long long ns = e->ts - e->start;

			o = json_object_new_object();
			json_object_object_add(o, "on", json_object_new_string(name_of_dev(e->other)));
			json_object_object_add(o, "relation", json_object_new_string(relation_names[e->relation]));
			json_object_object_add(o, "ns", json_object_new_int64(ns));
			json_object_array_add(r->waits, o);
			r->wait_ns[e->relation] += ns;
		}
		break;
	case PMT_DONE:
		r = lookup(e, true);
		if (!r)
			break;
		snprintf(r->first.name, sizeof(r->first.name), "%s", name_of_dev(e->dev));
		r->first.event = e->event;
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
		close_rec(r);		/* the record's JSON owns r->waits now */
		r->entry->data = NULL;
		free(r);
		break;
	case PMT_RPM_CB_START:
		slot = e->tid % CB_THREADS;
		if (cb_depth[slot] < CB_DEPTH) {
			open_cbs[slot][cb_depth[slot]].dev = e->dev;
			open_cbs[slot][cb_depth[slot]++].ts = e->ts;
		}
		break;
	case PMT_RPM_CB_END:
		slot = e->tid % CB_THREADS;
		start = 0;
		while (cb_depth[slot] > 0) {	/* the innermost open one of this device */
			cb_depth[slot]--;
			if (open_cbs[slot][cb_depth[slot]].dev == e->dev) {
				start = open_cbs[slot][cb_depth[slot]].ts;
				break;
			}
		}
		o = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("rpm_callback"));
		json_object_object_add(o, "device", json_object_new_string(name_of_dev(e->dev)));
		json_object_object_add(o, "callback", json_object_new_string(NAME(rpm_callbacks, e->event)));
		json_object_object_add(o, "function", json_object_new_string(ksym_name(e->other)));
		json_object_object_add(o, "forced", json_object_new_int(e->async));
		json_object_object_add(o, "start", json_object_new_int64(start));
		json_object_object_add(o, "end", json_object_new_int64(e->ts));
		json_object_object_add(o, "ret", json_object_new_int(e->value));
		json_object_object_add(o, "cpu", json_object_new_int(e->cpu));
		emit(o);
		break;
	case PMT_RPM_QUEUE:
	case PMT_RPM_CANCEL:
	case PMT_RPM_RUN:
		o = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("rpm_request"));
		json_object_object_add(o, "device", json_object_new_string(name_of_dev(e->dev)));
		json_object_object_add(o, "request", json_object_new_string(NAME(rpm_requests, e->event)));
		json_object_object_add(o, "what", json_object_new_string(e->kind == PMT_RPM_QUEUE ?
			(e->value ? "queued" : "replaced") : e->kind == PMT_RPM_CANCEL ? "cancelled" : "run"));
		json_object_object_add(o, "ts", json_object_new_int64(e->ts));
		emit(o);
		break;
	}
}

/*
 * Events as the per-CPU ring buffers deliver them: each CPU's in order,
 * the CPUs' one after the other.  They are kept and sorted by time before
 * any record is made (a device is queued on one CPU and runs on another).
 */
struct stamped {
	struct pmtrace_event e;
	unsigned long long seq;		/* arrival: keeps a CPU's order on ties */
};

static struct stamped *evs;
static size_t nevs, cap_evs;
static unsigned long long lost;

static int on_sample(void *ctx, void *data, size_t size)
{
	(void)ctx;
	if (size < sizeof(struct pmtrace_event))
		return 0;
	if (size >= sizeof(struct pmtrace_phase_event)) {
		struct pmtrace_phase_event *more = realloc(snaps, (nsnaps + 1) * sizeof(*snaps));

		if (!more) {
			lost++;
			return 0;
		}
		snaps = more;
		memcpy(&snaps[nsnaps], data, sizeof(*snaps));
		snaps[nsnaps].e.dev = nsnaps;	/* the stamped event finds it by dev */
		data = &snaps[nsnaps++].e;
	}
	if (nevs == cap_evs) {
		size_t cap = cap_evs ? 2 * cap_evs : 65536;
		struct stamped *more = realloc(evs, cap * sizeof(*evs));

		if (!more) {
			lost++;
			return 0;
		}
		evs = more;
		cap_evs = cap;
	}
	memcpy(&evs[nevs].e, data, sizeof(struct pmtrace_event));
	evs[nevs].seq = nevs;
	nevs++;
	return 0;
}

/* One ring buffer per possible CPU in the rings map, all read by @rb. */
static struct ring_buffer *open_rings(struct pmtrace_bpf *skel, int ncpus)
{
	struct ring_buffer *rb = NULL;
	int cpu, fd;

	for (cpu = 0; cpu < ncpus; cpu++) {
		fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, PMTRACE_RING_BYTES, NULL);
		if (fd < 0 || bpf_map_update_elem(bpf_map__fd(skel->maps.rings), &(__u32){ cpu },
						  &fd, BPF_ANY)) {
			fprintf(stderr, "pmtrace: ring buffer for CPU %d: %s\n", cpu, strerror(errno));
			goto fail;
		}
		if (!rb)
			rb = ring_buffer__new(fd, on_sample, NULL, NULL);
		else if (ring_buffer__add(rb, fd, on_sample, NULL))
			goto fail_rb;
		if (!rb)
			goto fail_rb;
		close(fd);	/* the map holds it */
	}
	return rb;
fail_rb:
	fprintf(stderr, "pmtrace: ring buffer for CPU %d: %s\n", cpu, strerror(errno));
fail:
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

	/* the programs account CPUs 0..ncpus-1: the online ones must be those */
	snprintf(want, sizeof(want), c.ncpus > 1 ? "0-%u" : "0", c.ncpus - 1);
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		got[strcspn(got, "\n")] = '\0';
		fclose(f);
	}
	if (strcmp(got, want) || c.ncpus > PMTRACE_MAX_CPUS) {
		fprintf(stderr, "pmtrace: online CPUs '%s': CPU accounting wants CPUs 0..N-1, N <= %d; phase records get no CPU times\n",
			got, PMTRACE_MAX_CPUS);
		c.ncpus = 0;
	}
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.config), &(__u32){ 0 }, &c, BPF_ANY)) {
		fprintf(stderr, "pmtrace: cannot configure the BPF programs: %s\n", strerror(errno));
		return -errno;
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
		fprintf(stderr, "pmtrace: the idle-CPU count lost %llu updates: no CPU times in any phase record\n",
			g.races);
	return g.races;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, NULL, doc, NULL, NULL, NULL };
	struct pmtrace_bpf *skel;
	struct ring_buffer *rb = NULL;
	int ncpus, stats_fd = -1;
	pid_t child = 0;
	int err, status = 0;
	__u64 dropped = 0;

	meta = json_object_new_object();
	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	out = stdout;
	if (out_path && !(out = fopen(out_path, "w"))) {
		fprintf(stderr, "pmtrace: %s: %s\n", out_path, strerror(errno));
		return 1;
	}
	for (int i = 0; i < 64; i++)
		phase_begin_snap[i] = -1;
	if (!hcreate_r(MAX_KEYS, &open_recs)) {
		fprintf(stderr, "pmtrace: out of memory\n");
		return 1;
	}
	/* kernels that still charge BPF memory to RLIMIT_MEMLOCK */
	setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ RLIM_INFINITY, RLIM_INFINITY });
	ncpus = libbpf_num_possible_cpus();
	skel = pmtrace_bpf__open();
	if (!skel || ncpus < 1 || bpf_map__set_max_entries(skel->maps.rings, ncpus) ||
	    pmtrace_bpf__load(skel)) {
		fprintf(stderr, "pmtrace: cannot load the BPF programs (kernel without the pmlab series' events?)\n");
		err = -EINVAL;
		goto out;
	}
	/* the rings exist before any program can run */
	rb = open_rings(skel, ncpus);
	if (!rb) {
		err = -EIO;
		goto out;
	}
	err = set_config(skel);
	if (err)
		goto out;
	if (stats_path) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			fprintf(stderr, "pmtrace: cannot enable BPF run-time statistics: %s\n",
				strerror(errno));
			err = -errno;
			goto out;
		}
	}
	err = pmtrace_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "pmtrace: cannot attach: %s\n", strerror(-err));
		goto out;
	}
	visit_cpus();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	write_begin();
	fflush(out);
	if (command) {
		child = fork();
		if (child == 0) {
			execl("/bin/sh", "sh", "-c", command, (char *)NULL);
			_exit(127);
		}
	}
	while (!stop) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR)
			break;
		if (child && waitpid(child, &status, WNOHANG) == child)
			break;
	}
	ring_buffer__consume(rb);
	err = 0;
	if (allidle_races(skel))
		nsnaps = 0;	/* no snapshot is trusted: phase records without CPU times */
	if (read_names(skel)) {
		fprintf(stderr, "pmtrace: out of memory reading device names\n");
		err = -ENOMEM;
		goto out;
	}
	qsort(evs, nevs, sizeof(*evs), by_time);
	for (size_t i = 0; i < nevs; i++)
		handle(&evs[i].e);
	{
		__u32 zero = 0;

		bpf_map_lookup_elem(bpf_map__fd(skel->maps.dropped), &zero, &dropped);
	}
	dropped += lost;
	if (dropped)
		fprintf(stderr, "pmtrace: %llu events dropped (ring buffer full, or a device's work not found on its thread): records incomplete\n",
			dropped);
	if (accounting_errors)
		fprintf(stderr, "pmtrace: %ld phase records without CPU times (inconsistent reads)\n",
			accounting_errors);
	if (unknown_phases)
		fprintf(stderr, "pmtrace: %ld phase records with CPUs of unknown state (no cpu_idle event yet)\n",
			unknown_phases);
	write_end(dropped);
	fprintf(stderr, "pmtrace: %lld records\n", records);
	if (stats_path && write_stats(skel, stats_path))
		err = -EIO;
out:
	if (stats_fd >= 0)
		close(stats_fd);
	ring_buffer__free(rb);
	free(evs);
	free(snaps);
	free(dev_names);
	pmtrace_bpf__destroy(skel);
	json_object_put(meta);
	if (err && out_path)
		unlink(out_path);	/* nothing recorded: no file that looks like records */
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "pmtrace: %s: %s\n", out_path, strerror(errno));
		return 1;
	}
	if (err)
		return 1;
	if (dropped)
		return 1;
	if (child)
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	return 0;
}
