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
 * Bad input (unreadable file, no phase, a phase that begins and never ends
 * or ends before it begins, a malformed line, different phases in the
 * files of one set, more than a table holds) is an error naming the file,
 * the line and the cause, and nothing is printed.  The trace is read by
 * phase-parse.c.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase-parse.h"

#define MAX_SETS	8
#define MAX_ROWS	(MAX_SETS * PP_MAX_PHASES)

struct set {
	const char *label;
	char *files;		/* FILE[,FILE...] */
	struct pp_set data;
};

struct opts {
	struct set sets[MAX_SETS];
	int nsets;
	int top;		/* device callbacks shown per phase */
};

static const char doc[] =
"Per-phase suspend/resume times from tracefs text traces of power:suspend_resume\n"
"and power:device_pm_callback_*.\vEach SET is LABEL=FILE[,FILE...]; files of a set\n"
"are repetitions and are averaged. Times are in ms of the trace clock.";

static const struct argp_option options[] = {
	{ "top", 't', "N", 0,
	  "Show the N slowest device callbacks per phase (default 3, 0: none)", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct opts *o = state->input;
	char *eq, *end;
	long v;

	switch (key) {
	case 't':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < 0 || v > 100)
			argp_error(state, "--top: expected 0..100, got '%s'", arg);
		o->top = v;
		break;
	case ARGP_KEY_ARG:
		eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1 + strspn(eq + 1, ",")])
			argp_error(state, "'%s': expected LABEL=FILE[,FILE...]", arg);
		if (o->nsets == MAX_SETS)
			argp_error(state, "more than %d sets (MAX_SETS)", MAX_SETS);
		*eq = '\0';
		o->sets[o->nsets].label = arg;
		o->sets[o->nsets].files = eq + 1;
		o->nsets++;
		break;
	case ARGP_KEY_END:
		if (!o->nsets)
			argp_error(state, "no trace sets given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Read @file into @s: 0, or -1 with @err filled. */
static int read_trace(struct pp_set *s, const char *file, struct pp_err *err)
{
	struct pp_reader r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", file, strerror(errno));
		return -1;
	}
	pp_reader_init(&r, s, file);
	for (;;) {
		errno = 0;
		n = getline(&line, &cap, f);
		if (n < 0)
			break;
		ret = pp_reader_line(&r, line, n, err);
		if (ret)
			break;
	}
	if (!ret && ferror(f)) {
		snprintf(err->msg, sizeof(err->msg), "%s: read error: %s", file, strerror(errno));
		ret = -1;
	}
	if (!ret)
		ret = pp_reader_finish(&r, err);
	pp_reader_free(&r);
	free(line);
	fclose(f);
	return ret;
}

static int load_set(struct set *s)
{
	char *file, *save = NULL;
	struct pp_err err;

	for (file = strtok_r(s->files, ",", &save); file; file = strtok_r(NULL, ",", &save)) {
		if (read_trace(&s->data, file, &err)) {
			fprintf(stderr, "phase-times: %s\n", err.msg);
			return -1;
		}
	}
	return 0;
}

static double phase_ms(const struct set *s, const char *name)
{
	int ph = pp_find_phase(&s->data, name);

	return ph < 0 ? -1 : 1e3 * s->data.phases[ph].total / s->data.nfiles;
}

/* The table's rows: the first set's phases, then those only later sets have. */
static int table_rows(const struct opts *o, const char *rows[MAX_ROWS])
{
	int i, j, k, n = 0;

	for (j = 0; j < o->nsets; j++) {
		for (i = 0; i < o->sets[j].data.nphases; i++) {
			const char *name = o->sets[j].data.phases[i].name;

			for (k = 0; k < n && strcmp(rows[k], name); k++)
				;
			if (k == n)
				rows[n++] = name;
		}
	}
	return n;
}

static void print_phases(const struct opts *o)
{
	const struct set *s0 = &o->sets[0], *sn = &o->sets[o->nsets - 1];
	const char *rows[MAX_ROWS];
	double t0, t, sum[MAX_SETS] = { 0 };
	int i, j, nrows = table_rows(o, rows);

	printf("%-24s", "phase (ms)");
	for (j = 0; j < o->nsets; j++)
		printf(" %12s", o->sets[j].label);
	if (o->nsets > 1)
		printf(" %9s", "speed-up");
	printf("\n");
	for (i = 0; i < nrows; i++) {
		printf("%-24s", rows[i]);
		for (j = 0; j < o->nsets; j++) {
			t = phase_ms(&o->sets[j], rows[i]);
			if (t < 0)
				printf(" %12s", "-");
			else
				printf(" %12.3f", t);
			if (!strncmp(rows[i], "dpm_", 4) && t > 0)
				sum[j] += t;
		}
		t0 = phase_ms(s0, rows[i]);
		t = o->nsets > 1 ? phase_ms(sn, rows[i]) : -1;
		if (t > 0 && t0 >= 0)
			printf(" %8.2fx", t0 / t);
		printf("\n");
	}
	printf("%-24s", "all dpm_* phases");
	for (j = 0; j < o->nsets; j++)
		printf(" %12.3f", sum[j]);
	if (o->nsets > 1 && sum[o->nsets - 1] > 0)
		printf(" %8.2fx", sum[0] / sum[o->nsets - 1]);
	printf("\n");
}

/* Slowest first; ties in order of first appearance (the devs array's). */
static int cmp_dev(const void *a, const void *b)
{
	const struct pp_dev *x = *(const struct pp_dev * const *)a;
	const struct pp_dev *y = *(const struct pp_dev * const *)b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return (x > y) - (x < y);
}

static int print_devices(const struct set *s, int top)
{
	const struct pp_set *d = &s->data;
	const struct pp_dev **order = malloc((d->ndevs + 1) * sizeof(*order));
	int i, k, n;

	if (!order)
		return -1;
	for (k = 0; k < d->ndevs; k++)
		order[k] = &d->devs[k];
	qsort(order, d->ndevs, sizeof(*order), cmp_dev);
	printf("\n%s: slowest device callbacks per phase (ms, mean of %d)\n", s->label, d->nfiles);
	for (i = 0; i < d->nphases; i++) {
		if (strncmp(d->phases[i].name, "dpm_", 4))
			continue;
		for (k = 0, n = 0; k < d->ndevs && n < top; k++) {
			if (order[k]->phase != i)
				continue;
			printf("  %-22s %-30s %10.3f\n", n ? "" : d->phases[i].name,
			       order[k]->name, 1e3 * order[k]->total / d->nfiles);
			n++;
		}
	}
	free(order);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		options, parse_arg, "SET...", doc, NULL, NULL, NULL
	};
	struct opts *o = calloc(1, sizeof(*o));
	int j, ret = 1;

	if (!o) {
		fprintf(stderr, "phase-times: out of memory\n");
		return 1;
	}
	o->top = 3;
	argp_parse(&argp, argc, argv, 0, NULL, o);
	for (j = 0; j < o->nsets; j++)
		pp_set_init(&o->sets[j].data);
	for (j = 0; j < o->nsets; j++)
		if (load_set(&o->sets[j]))
			goto out;
	print_phases(o);
	for (j = 0; o->top && j < o->nsets; j++) {
		if (print_devices(&o->sets[j], o->top)) {
			fprintf(stderr, "phase-times: out of memory\n");
			goto out;
		}
	}
	ret = fflush(stdout) ? 1 : 0;
	if (ret)
		fprintf(stderr, "phase-times: writing the table: %s\n", strerror(errno));
out:
	for (j = 0; j < o->nsets; j++)
		pp_set_free(&o->sets[j].data);
	free(o);
	return ret;
}
