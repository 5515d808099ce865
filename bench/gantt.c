// SPDX-License-Identifier: GPL-2.0
/*
 * gantt - one transition's pmtrace records as the data of a per-device
 * timeline (plots/gantt.gp draws it): a row per device, across every
 * device phase, like sleepgraph's.
 *
 * Writes, to OUT.phases and OUT.bars (gnuplot data, ms from the first
 * phase's start):
 *   OUT.phases  "PHASE START END"                    a shaded band each
 *   OUT.bars    "ROW KIND START END DEVICE PHASE"    a bar per part of a
 *               device record: KIND 0 queued for a worker (queued to
 *               start), 1 blocked or in the PM core before its callback
 *               (start to callback start; start to end when no callback
 *               ran), 2 its callback (callback start to end); a part of no
 *               length is left out.
 * Rows: devices in the order they first started, 0 at the top.  With
 * more devices than --rows N (default 60), the N that spent the most
 * time (start to end, over all phases) are kept, in that same order; the
 * header line of OUT.bars ("# rows K of M devices") says how many.  With
 * --like OTHER.bars, the devices and rows are OTHER's (another mode's
 * timeline of the same scenario): row k is the same device in both
 * panels; a device OTHER does not draw is not drawn.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "records.h"

struct args {
	const char *records, *out, *like;
	long rows;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;
	char *end;

	switch (key) {
	case 'r':
		errno = 0;
		a->rows = strtol(arg, &end, 10);
		if (!*arg || *end || errno || a->rows < 1 || a->rows > 100000)
			argp_error(state, "--rows %s: want 1..100000", arg);
		break;
	case 'l':
		a->like = arg;
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num >= 2)
			argp_error(state, "RECORDS and OUT, got '%s' too", arg);
		if (state->arg_num == 0)
			a->records = arg;
		else
			a->out = arg;
		break;
	case ARGP_KEY_END:
		if (!a->out)
			argp_error(state, "want RECORDS and OUT");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option options[] = {
	{ "rows", 'r', "N", 0, "At most N devices: those that took longest (default 60)", 0 },
	{ "like", 'l', "BARS", 0, "The devices and rows of another timeline's OUT.bars", 0 },
	{ 0 }
};

static const struct argp argp = {
	options, parse_opt, "RECORDS OUT",
	"One transition's pmtrace records as per-device timeline data for plots/gantt.gp "
	"(OUT.phases, OUT.bars).\v"
	"Example:\n  gantt --rows 100 async-1.jsonl async\n"
	"Exit status: 0, or 1 after a message naming the file and the cause.",
	NULL, NULL, NULL
};

struct dev {
	long long first, spent;		/* first start; sum of start..end */
	int row;			/* -1: not drawn */
};

static struct dev *devs;

static int by_first(const void *a, const void *b)
{
	const struct dev *x = &devs[*(const int *)a], *y = &devs[*(const int *)b];

	return x->first < y->first ? -1 : x->first > y->first ? 1 :
	       (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int by_spent(const void *a, const void *b)
{
	const struct dev *x = &devs[*(const int *)a], *y = &devs[*(const int *)b];

	return x->spent > y->spent ? -1 : x->spent < y->spent ? 1 : by_first(a, b);
}

/* rows: the @max devices that spent most, in the order they first started */
static int assign_rows(const struct transition *t, int ndev, long max)
{
	int p, i, n = 0, *order = malloc(sizeof(int) * (ndev ? ndev : 1));

	if (!order)
		return -1;
	for (i = 0; i < ndev; i++) {
		devs[i].first = -1;
		devs[i].row = -1;
	}
	for (p = 0; p < DPM_NR_PHASES; p++)
		for (i = 0; i < t->nrecs[p]; i++) {
			const struct dev_record *r = &t->recs[p][i];
			struct dev *d = &devs[r->dev];

			if (d->first < 0 || r->start < d->first)
				d->first = r->start;
			d->spent += r->end - r->start;
		}
	for (i = 0; i < ndev; i++)
		if (devs[i].first >= 0)
			order[n++] = i;
	if (n > max) {
		qsort(order, n, sizeof(*order), by_spent);
		n = max;
	}
	qsort(order, n, sizeof(*order), by_first);
	for (i = 0; i < n; i++)
		devs[order[i]].row = i;
	free(order);
	return n;
}

/* @dev as the bars' device column writes it: blanks as '_' */
static void column_name(char *to, size_t size, const char *dev)
{
	size_t i;

	for (i = 0; dev[i] && i + 1 < size; i++)
		to[i] = dev[i] == ' ' || dev[i] == '\t' ? '_' : dev[i];
	to[i] = '\0';
}

/*
 * rows from the bars file @path: each device drawn there keeps its row;
 * the number of rows, or -1 (said on stderr)
 */
static int rows_like(struct names *nm, int ndev, const char *path)
{
	char line[1024], dev[512];
	int row, kind, i, n = 0, lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "gantt: --like %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < ndev; i++)
		devs[i].row = -1;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%d %d %*f %*f %511s", &row, &kind, dev) != 3 || row < 0 ||
		    row >= 100000) {
			fprintf(stderr, "gantt: --like %s:%d: not a bars line (\"ROW KIND START "
					"END DEVICE PHASE\")\n", path, lineno);
			fclose(f);
			return -1;
		}
		if (row >= n)
			n = row + 1;
		/* a name with blanks (written with '_') is not found: not drawn */
		i = names_id(nm, dev, 0);
		if (i >= 0 && i < ndev)
			devs[i].row = row;
	}
	fclose(f);
	return n;
}

static void bar(FILE *f, int row, int kind, long long from, long long to, long long origin,
		const char *dev, const char *phase)
{
	char name[512];

	if (to <= from)
		return;
	fprintf(f, "%d %d %.6f %.6f ", row, kind, (from - origin) / 1e6, (to - origin) / 1e6);
	column_name(name, sizeof(name), dev);	/* one column */
	fputs(name, f);
	fprintf(f, " %s\n", phase);
}

/* the phase bands to @ph, every drawn device's parts to @bars */
static void write_parts(FILE *ph, FILE *bars, const struct transition *t, struct names *nm)
{
	long long o = t->phase_start[0];
	int p, i;

	fprintf(ph, "# phase start_ms end_ms, from the first phase's start\n");
	fprintf(bars, "# row kind start_ms end_ms device phase\n");
	for (p = 0; p < DPM_NR_PHASES; p++) {
		fprintf(ph, "%s %.6f %.6f\n", dpm_phase_names[p], (t->phase_start[p] - o) / 1e6,
			(t->phase_end[p] - o) / 1e6);
		for (i = 0; i < t->nrecs[p]; i++) {
			const struct dev_record *r = &t->recs[p][i];
			const char *dev = names_get(nm, r->dev);
			int row = devs[r->dev].row;

			if (row < 0)
				continue;
			if (r->queued)
				bar(bars, row, 0, r->queued, r->start, o, dev, dpm_phase_names[p]);
			if (r->cb_start < r->start) {	/* 0: no callback ran */
				bar(bars, row, 1, r->start, r->end, o, dev, dpm_phase_names[p]);
				continue;
			}
			bar(bars, row, 1, r->start, r->cb_start, o, dev, dpm_phase_names[p]);
			bar(bars, row, 2, r->cb_start, r->end, o, dev, dpm_phase_names[p]);
		}
	}
}

int main(int argc, char **argv)
{
	struct args a = { .rows = 60 };
	FILE *ph = NULL, *bars = NULL;
	char *phases_path = NULL, *bars_path = NULL;
	int i, n, ndev, total = 0, ret = 1;
	struct transition t;
	struct names *nm;

	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 1;
	nm = names_new();
	memset(&t, 0, sizeof(t));
	if (!nm || asprintf(&phases_path, "%s.phases", a.out) < 0 ||
	    asprintf(&bars_path, "%s.bars", a.out) < 0) {
		fprintf(stderr, "gantt: out of memory\n");
		goto out;
	}
	if (transition_read(nm, a.records, &t))
		goto out;
	if (t.runtime_only) {
		fprintf(stderr, "%s: a runtime PM recording has no device phases\n", a.records);
		goto out;
	}
	ndev = names_count(nm);
	devs = calloc(ndev ? ndev : 1, sizeof(*devs));
	n = devs ? assign_rows(&t, ndev, a.rows) : -1;
	if (n < 0) {
		fprintf(stderr, "gantt: out of memory\n");
		goto out;
	}
	if (a.like) {
		n = rows_like(nm, ndev, a.like);
		if (n < 0)
			goto out;
	}
	for (i = 0; i < ndev; i++)
		total += devs[i].first >= 0;
	ph = fopen(phases_path, "w");
	bars = fopen(bars_path, "w");
	if (!ph || !bars) {
		fprintf(stderr, "gantt: cannot write %s: %s\n", !ph ? phases_path : bars_path,
			strerror(errno));
		goto out;
	}
	fprintf(bars, "# rows %d of %d devices\n", n, total);
	write_parts(ph, bars, &t, nm);
	ret = 0;
out:
	if (ph && fclose(ph))
		ret = 1;
	if (bars && fclose(bars))
		ret = 1;
	if (ret && phases_path) {	/* nothing half-made */
		unlink(phases_path);
		unlink(bars_path);
	}
	free(phases_path);
	free(bars_path);
	free(devs);
	transition_free(&t);
	names_free(nm);
	return ret;
}
