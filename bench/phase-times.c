// SPDX-License-Identifier: GPL-2.0
/*
 * phase-times - per-phase suspend/resume times from tracefs text traces.
 *
 * Reads traces of the kernel's own power:suspend_resume and
 * power:device_pm_callback_{start,end} events (as saved from
 * /sys/kernel/tracing/trace) and prints, for each set of traces, the mean
 * duration of every transition phase and the slowest device callbacks of
 * each phase.  Each SET is LABEL=FILE[,FILE...]; the files of one set are
 * repetitions of the same transition and are averaged.
 *
 *   phase-times sync=sync-1.trace,sync-2.trace async=async-1.trace
 *
 * Bad input (unreadable file, no events, a phase that begins and never
 * ends, different phases in the files of one set) is an error naming the
 * file and line; nothing is printed for a set that fails.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SETS	8
#define MAX_PHASES	64
#define MAX_OPEN	4096
#define MAX_DEVS	8192
#define NAME_LEN	96

struct phase {
	char name[NAME_LEN];	/* action[val], e.g. dpm_suspend[2] */
	double begin;		/* open begin timestamp, < 0 when closed */
	double total;		/* summed over files, seconds */
	int count;		/* completed begin/end pairs */
};

struct open_cb {		/* a device callback that started */
	int pid;
	char dev[NAME_LEN];
	double start;
};

struct dev_time {		/* one device's callback time in one phase */
	char dev[NAME_LEN];
	int phase;
	double total;
};

struct set {
	const char *label;
	char *files;
	int nfiles;
	struct phase phases[MAX_PHASES];
	int nphases;
	struct dev_time devs[MAX_DEVS];
	int ndevs;
};

static struct set sets[MAX_SETS];
static int nsets;
static int top = 3;

static const char doc[] =
"Per-phase suspend/resume times from tracefs text traces of power:suspend_resume\n"
"and power:device_pm_callback_*.\vEach SET is LABEL=FILE[,FILE...]; files of a set\n"
"are repetitions and are averaged. Times are in ms of the trace clock.";

static const struct argp_option options[] = {
	{ "top", 't', "N", 0, "Show the N slowest device callbacks per phase (default 3, 0: none)", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *eq, *end;

	switch (key) {
	case 't':
		errno = 0;
		top = strtol(arg, &end, 10);
		if (errno || *end || top < 0 || top > 100)
			argp_error(state, "--top: expected 0..100, got '%s'", arg);
		break;
	case ARGP_KEY_ARG:
		eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1])
			argp_error(state, "'%s': expected LABEL=FILE[,FILE...]", arg);
		if (nsets == MAX_SETS)
			argp_error(state, "at most %d sets", MAX_SETS);
		*eq = '\0';
		sets[nsets].label = arg;
		sets[nsets].files = eq + 1;
		nsets++;
		break;
	case ARGP_KEY_END:
		if (!nsets)
			argp_error(state, "no trace sets given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int find_phase(struct set *s, const char *name, int create)
{
	int i;

	for (i = 0; i < s->nphases; i++)
		if (!strcmp(s->phases[i].name, name))
			return i;
	if (!create || s->nphases == MAX_PHASES)
		return -1;
	snprintf(s->phases[i].name, NAME_LEN, "%s", name);
	s->phases[i].begin = -1;
	return s->nphases++;
}

static void add_dev_time(struct set *s, const char *dev, int phase, double t)
{
	int i;

	for (i = 0; i < s->ndevs; i++)
		if (s->devs[i].phase == phase && !strcmp(s->devs[i].dev, dev))
			break;
	if (i == s->ndevs) {
		if (s->ndevs == MAX_DEVS)
			return;
		snprintf(s->devs[i].dev, NAME_LEN, "%s", dev);
		s->devs[i].phase = phase;
		s->devs[i].total = 0;
		s->ndevs++;
	}
	s->devs[i].total += t;
}

/*
 * The device of a device_pm_callback_start/end payload, "DRIVER DEVICE,
 * ...": the last word before the first comma (DRIVER may be empty).
 */
static int callback_device(const char *payload, char *dev)
{
	const char *comma = strchr(payload, ','), *p;

	if (!comma)
		return -1;
	for (p = comma; p > payload && p[-1] != ' '; p--)
		;
	if (p == comma || comma - p >= NAME_LEN)
		return -1;
	memcpy(dev, p, comma - p);
	dev[comma - p] = '\0';
	return 0;
}

/* The dpm_* phase open at this moment, or -1. */
static int open_dpm_phase(struct set *s)
{
	int i;

	for (i = 0; i < s->nphases; i++)
		if (s->phases[i].begin >= 0 && !strncmp(s->phases[i].name, "dpm_", 4))
			return i;
	return -1;
}

/*
 * Parse one line: "  task-PID  [CPU] flags  TS: event: payload".
 * Returns 0 for a line that is not an event we use, 2 for a suspend_resume
 * event, 1 for a device callback event, -1 on error.
 */
static int parse_line(struct set *s, char *line, struct open_cb *cbs, int *ncbs,
		      const char *file, int lineno)
{
	char *p, *ev, *payload, *colon;
	char action[64], what[16], dev[NAME_LEN];
	unsigned int val;
	double ts;
	int pid, i, ph;

	if (line[0] == '#')
		return 0;
	p = strstr(line, "] ");
	if (!p)
		return 0;
	/* the pid ends the "task-PID" word before " [CPU]" */
	colon = p;
	while (colon > line && *colon != '[')
		colon--;
	while (colon > line && colon[-1] == ' ')
		colon--;
	{
		char *d = colon;

		while (d > line && d[-1] != '-')
			d--;
		pid = atoi(d);
	}
	/* timestamp: the "NNN.NNNNNN:" word after the flags */
	ev = strstr(p, ": ");
	if (!ev)
		return 0;
	{
		char *t = ev;

		while (t > p && t[-1] != ' ')
			t--;
		ts = strtod(t, NULL);
	}
	ev += 2;
	payload = strstr(ev, ": ");
	if (!payload)
		return 0;
	*payload = '\0';
	payload += 2;

	if (!strcmp(ev, "suspend_resume")) {
		char name[NAME_LEN];

		if (sscanf(payload, "%63[^[][%u] %15s", action, &val, what) != 3) {
			fprintf(stderr, "phase-times: %s:%d: malformed suspend_resume event\n",
				file, lineno);
			return -1;
		}
		snprintf(name, sizeof(name), "%s[%u]", action, val);
		/* CPU_OFF/CPU_ON carry the CPU number: one row for all CPUs */
		if (!strncmp(action, "CPU_", 4))
			snprintf(name, sizeof(name), "%s", action);
		ph = find_phase(s, name, 1);
		if (ph < 0) {
			fprintf(stderr, "phase-times: %s:%d: too many phases\n", file, lineno);
			return -1;
		}
		if (!strcmp(what, "begin")) {
			s->phases[ph].begin = ts;
		} else if (!strcmp(what, "end")) {
			if (s->phases[ph].begin < 0) {
				fprintf(stderr, "phase-times: %s:%d: %s ends without a begin\n",
					file, lineno, name);
				return -1;
			}
			s->phases[ph].total += ts - s->phases[ph].begin;
			s->phases[ph].count++;
			s->phases[ph].begin = -1;
		}
		return 2;
	}
	if (!strcmp(ev, "device_pm_callback_start")) {
		if (callback_device(payload, dev) || *ncbs == MAX_OPEN)
			return 0;
		cbs[*ncbs].pid = pid;
		snprintf(cbs[*ncbs].dev, NAME_LEN, "%s", dev);
		cbs[*ncbs].start = ts;
		(*ncbs)++;
		return 1;
	}
	if (!strcmp(ev, "device_pm_callback_end")) {
		if (callback_device(payload, dev))
			return 0;
		for (i = *ncbs - 1; i >= 0; i--)
			if (cbs[i].pid == pid && !strcmp(cbs[i].dev, dev))
				break;
		if (i < 0)
			return 0;	/* started before tracing was on */
		ph = open_dpm_phase(s);
		if (ph >= 0)
			add_dev_time(s, dev, ph, ts - cbs[i].start);
		cbs[i] = cbs[--(*ncbs)];
		return 1;
	}
	return 0;
}

static int read_file(struct set *s, const char *file)
{
	static struct open_cb cbs[MAX_OPEN];
	char *line = NULL;
	size_t cap = 0;
	int ncbs = 0, lineno = 0, used = 0, r, i;
	FILE *f = fopen(file, "r");

	if (!f) {
		fprintf(stderr, "phase-times: %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		r = parse_line(s, line, cbs, &ncbs, file, lineno);
		if (r < 0)
			goto fail;
		used += r == 2;
	}
	for (i = 0; i < s->nphases; i++) {
		if (s->phases[i].begin >= 0) {
			fprintf(stderr, "phase-times: %s: %s begins and never ends (truncated trace?)\n",
				file, s->phases[i].name);
			goto fail;
		}
	}
	if (!used) {
		fprintf(stderr, "phase-times: %s: no power:suspend_resume events\n", file);
		goto fail;
	}
	free(line);
	fclose(f);
	return 0;
fail:
	free(line);
	fclose(f);
	return -1;
}

static int load_set(struct set *s)
{
	char *file, *save = NULL;
	int i;

	for (file = strtok_r(s->files, ",", &save); file; file = strtok_r(NULL, ",", &save)) {
		if (read_file(s, file))
			return -1;
		s->nfiles++;
	}
	for (i = 0; i < s->nphases; i++) {
		if (s->phases[i].count % s->nfiles) {
			fprintf(stderr, "phase-times: set %s: phase %s seen %d times in %d files; the files are not repetitions of one transition\n",
				s->label, s->phases[i].name, s->phases[i].count, s->nfiles);
			return -1;
		}
	}
	return 0;
}

static double phase_ms(struct set *s, const char *name)
{
	int ph = find_phase(s, name, 0);

	return ph < 0 ? -1 : 1e3 * s->phases[ph].total / s->nfiles;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct dev_time *x = a, *y = b;

	return (x->total < y->total) - (x->total > y->total);
}

static void print_tables(void)
{
	struct set *s0 = &sets[0];
	double t0, t, sum[MAX_SETS] = { 0 };
	int i, j, k, n;

	printf("%-24s", "phase (ms)");
	for (j = 0; j < nsets; j++)
		printf(" %12s", sets[j].label);
	if (nsets > 1)
		printf(" %9s", "speed-up");
	printf("\n");
	for (i = 0; i < s0->nphases; i++) {
		const char *name = s0->phases[i].name;

		printf("%-24s", name);
		for (j = 0; j < nsets; j++) {
			t = phase_ms(&sets[j], name);
			if (t < 0)
				printf(" %12s", "-");
			else
				printf(" %12.3f", t);
			if (!strncmp(name, "dpm_", 4) && t > 0)
				sum[j] += t;
		}
		t0 = phase_ms(s0, name);
		t = nsets > 1 ? phase_ms(&sets[nsets - 1], name) : -1;
		if (t > 0 && t0 >= 0)
			printf(" %8.2fx", t0 / t);
		printf("\n");
	}
	printf("%-24s", "all dpm_* phases");
	for (j = 0; j < nsets; j++)
		printf(" %12.3f", sum[j]);
	if (nsets > 1 && sum[nsets - 1] > 0)
		printf(" %8.2fx", sum[0] / sum[nsets - 1]);
	printf("\n");

	if (!top)
		return;
	for (j = 0; j < nsets; j++) {
		struct set *s = &sets[j];

		qsort(s->devs, s->ndevs, sizeof(s->devs[0]), cmp_dev);
		printf("\n%s: slowest device callbacks per phase (ms, mean of %d)\n",
		       s->label, s->nfiles);
		for (i = 0; i < s->nphases; i++) {
			if (strncmp(s->phases[i].name, "dpm_", 4))
				continue;
			for (k = 0, n = 0; k < s->ndevs && n < top; k++) {
				if (s->devs[k].phase != i)
					continue;
				printf("  %-22s %-30s %10.3f\n", n ? "" : s->phases[i].name,
				       s->devs[k].dev, 1e3 * s->devs[k].total / s->nfiles);
				n++;
			}
		}
	}
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		options, parse_arg, "SET...", doc, NULL, NULL, NULL
	};
	int j;

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	for (j = 0; j < nsets; j++)
		if (load_set(&sets[j]))
			return 1;
	print_tables();
	return 0;
}
