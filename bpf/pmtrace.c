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
#include "pmtrace-events.h"
#include "pmtrace-records.h"
#include "pmtrace.skel.h"

/* pmtrace's own version; the records have theirs (PMTRACE_FORMAT) */
#define PMTRACE_VERSION "1.0"

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
	bool ignore[PMT_NR_GROUPS];	/* --ignore-events */
};

/* the last SIGINT or SIGTERM not acted on yet */
static volatile sig_atomic_t got_signal;

/* -v; libbpf's warning that says why a step failed (print_libbpf) */
static bool verbose;
static char libbpf_warning[512];

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

enum { OPT_MAX_PHASE_KEYS = 0x100, OPT_MAX_EVENTS, OPT_IGNORE_EVENTS };

static const struct argp_option options[] = {
	{ "output", 'o', "FILE", 0, "Write records to FILE (default: standard output)", 0 },
	{ "command", 'c', "CMD", 0, "Run CMD with /bin/sh once attached; stop when it exits", 0 },
	{ "meta", 'm', "KEY=VALUE", 0, "Record KEY=VALUE in the begin record (repeatable)", 0 },
	{ "stats", 's', "FILE", 0,
	  "Enable BPF run-time statistics and write each program's runs and ns per run to FILE",
	  0 },
	{ "verbose", 'v', NULL, 0, "Print libbpf's messages (debug level included)", 0 },
	{ "ignore-events", OPT_IGNORE_EVENTS, "GROUP[,GROUP]", 0,
	  "Do not attach the series' dpm (power:dpm_device_*) or rpm (rpm:rpm_callback_*, rpm_request_*) events: record as on a kernel without them",
	  0 },
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

/* --ignore-events: a comma-separated list of dpm and rpm */
static void parse_groups(struct argp_state *state, struct options *o, const char *arg)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		int g;

		for (g = PMT_GROUP_DPM; g < PMT_NR_GROUPS; g++)
			if (len == strlen(pmt_group_names[g]) &&
			    !strncmp(p, pmt_group_names[g], len))
				break;
		if (g == PMT_NR_GROUPS)
			argp_error(state,
				   "--ignore-events takes dpm and rpm, comma-separated, got '%s'",
				   arg);
		o->ignore[g] = true;
		if (!p[len])
			return;
		p += len + 1;
	}
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
	case OPT_IGNORE_EVENTS:
		parse_groups(state, o, arg);
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

/*
 * The programs count every online CPU as one that can be idle, and know
 * whether they get dpm_device events (@have_dpm); no phase runs yet.
 */
static int set_config(struct pmtrace_bpf *skel, bool have_dpm)
{
	struct pmtrace_config c = { .ncpus = sysconf(_SC_NPROCESSORS_ONLN), .have_dpm = have_dpm };
	struct pmtrace_stock_phase none = { .phase = PMT_NO_PHASE };
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
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.config), &(__u32){ 0 }, &c, BPF_ANY) ||
	    bpf_map_update_elem(bpf_map__fd(skel->maps.stock_phase), &(__u32){ 0 }, &none,
				BPF_ANY)) {
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
		struct pmtrace_name v;
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
		if (bpf_map_lookup_elem(fd, &key, &v))
			continue;
		memcpy(n->name, v.name, sizeof(n->name));
		memcpy(n->parent, v.parent, sizeof(n->parent));
		n->name[PMTRACE_NAME_LEN - 1] = '\0';
		n->parent[PMTRACE_NAME_LEN - 1] = '\0';
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
	struct pmt_events ev;		/* the tracepoints attached */
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
		struct bpf_link *link;

		if (!bpf_program__autoload(prog))
			continue;	/* its tracepoint is missing or ignored */
		link = bpf_program__attach(prog);
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
	memcpy(s->ev.ignored, s->opt.ignore, sizeof(s->ev.ignored));
	err = events_detect(s->skel->skeleton, &s->ev);
	if (err)
		return err;
	s->t.no_dpm = !s->ev.have[PMT_GROUP_DPM];
	s->t.no_rpm = !s->ev.have[PMT_GROUP_RPM];
	err = pmtrace_bpf__load(s->skel);
	if (err) {
		libbpf_failed("cannot load the BPF programs", err);
		return err;
	}
	/* the rings exist before any program can run */
	s->rb = open_rings(s->skel, ncpus, &s->t);
	if (!s->rb)
		return -EIO;
	err = set_config(s->skel, s->ev.have[PMT_GROUP_DPM]);
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
