// SPDX-License-Identifier: GPL-2.0
/*
 * rpm-callbacks - how long each device's runtime PM callbacks took, from
 * pmtrace's runtime PM records (mode runtime).
 *
 * Reads every FILE (pmtrace -m mode=runtime recordings) and prints one row
 * per device and callback kind (runtime_suspend, runtime_resume,
 * runtime_idle) in the order first seen: how many ran, how many returned
 * an error, and the p50 and max of their own time (start to end, us;
 * nearest-rank).  For a PCI device the suspend callback is the move to
 * D3hot and the resume the move back to D0, each with the PCI core's
 * delays.  --device NAME (repeatable) keeps those devices only; a named
 * device without a callback in any file is an error.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "percentile.h"
#include "records.h"

#define MAX_DEVICES	64		/* --device options */

static const char * const cb_names[] = {
	[RPM_CB_IDLE] = "runtime_idle",
	[RPM_CB_SUSPEND] = "runtime_suspend",
	[RPM_CB_RESUME] = "runtime_resume",
};

struct args {
	char **files;
	int nfiles;
	const char *devices[MAX_DEVICES];
	int ndevices;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case 'd':
		if (!*arg)
			argp_error(state, "--device: an empty name");
		if (a->ndevices == MAX_DEVICES)
			argp_error(state, "--device: at most %d", MAX_DEVICES);
		a->devices[a->ndevices++] = arg;
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

static const struct argp_option options[] = {
	{ "device", 'd', "NAME", 0, "Only this device (repeatable)", 0 },
	{ 0 }
};

static const struct argp argp = {
	options, parse_opt, "FILE...",
	"Each device's runtime PM callbacks: count, errors, p50 and max of their own "
	"time, from pmtrace records of mode runtime.\v"
	"Example:\n  rpm-callbacks --device 0000:00:01.0 pci-rpm.jsonl\n"
	"Exit status: 0, or 1 after a message naming the file and the cause.",
	NULL, NULL, NULL
};

/* one row: a device's callbacks of one kind */
struct row {
	int dev, kind, errors, n, cap;
	long long *ns;
};

struct table {
	struct row *rows;
	int n, cap;
};

static struct row *row_of(struct table *tb, int dev, int kind)
{
	struct row *r;
	int i;

	for (i = 0; i < tb->n; i++)
		if (tb->rows[i].dev == dev && tb->rows[i].kind == kind)
			return &tb->rows[i];
	if (tb->n == tb->cap) {
		r = reallocarray(tb->rows, tb->cap ? 2 * tb->cap : 8, sizeof(*r));
		if (!r)
			return NULL;
		tb->rows = r;
		tb->cap = tb->cap ? 2 * tb->cap : 8;
	}
	r = &tb->rows[tb->n++];
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->kind = kind;
	return r;
}

static int row_add(struct row *r, long long ns, int ret)
{
	if (r->n == r->cap) {
		long long *more = reallocarray(r->ns, r->cap ? 2 * r->cap : 8, sizeof(*more));

		if (!more)
			return -1;
		r->ns = more;
		r->cap = r->cap ? 2 * r->cap : 8;
	}
	r->ns[r->n++] = ns;
	r->errors += ret != 0;
	return 0;
}

static int wanted(const struct args *a, const char *name)
{
	int i;

	for (i = 0; i < a->ndevices; i++)
		if (!strcmp(a->devices[i], name))
			return 1;
	return !a->ndevices;
}

/* @path's callbacks into @tb; -1 after a message */
static int read_file(struct names *nm, const struct args *a, const char *path, struct table *tb)
{
	struct transition t;
	int i, ret = -1;

	if (transition_read(nm, path, &t))
		goto out;
	if (!t.runtime_only) {
		fprintf(stderr, "%s: mode '%s': not a runtime recording (mode=runtime)\n", path,
			t.mode ? t.mode : "(none)");
		goto out;
	}
	for (i = 0; i < t.nrpm; i++) {
		const struct rpm_record *x = &t.rpm[i];
		struct row *r;

		if (x->is_request || !wanted(a, names_get(nm, x->dev)))
			continue;
		if (!x->start) {
			fprintf(stderr,
				"%s:%lld: a %s callback of %s whose start was not recorded\n",
				path, x->line, cb_names[x->kind], names_get(nm, x->dev));
			goto out;
		}
		r = row_of(tb, x->dev, x->kind);
		if (!r || row_add(r, x->end - x->start, x->ret)) {
			fprintf(stderr, "rpm-callbacks: out of memory\n");
			goto out;
		}
	}
	ret = 0;
out:
	transition_free(&t);
	return ret;
}

int main(int argc, char **argv)
{
	struct table tb = { 0 };
	struct args a = { 0 };
	struct names *nm;
	int i, ret = 1;

	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 1;
	nm = names_new();
	if (!nm) {
		fprintf(stderr, "rpm-callbacks: out of memory\n");
		return 1;
	}
	for (i = 0; i < a.nfiles; i++)
		if (read_file(nm, &a, a.files[i], &tb))
			goto out;
	for (i = 0; i < a.ndevices; i++) {
		int id = names_id(nm, a.devices[i], 0), k, found = 0;

		for (k = 0; id >= 0 && k < tb.n; k++)
			found |= tb.rows[k].dev == id;
		if (!found) {
			fprintf(stderr,
				"rpm-callbacks: no runtime PM callback of '%s' in the records\n",
				a.devices[i]);
			goto out;
		}
	}
	if (!tb.n) {
		fprintf(stderr, "rpm-callbacks: no runtime PM callback in the records\n");
		goto out;
	}
	/* everything read and checked before anything is printed */
	printf("# runtime PM callbacks' own time (start to end), us; nearest-rank p50\n");
	printf("%-24s %-16s %6s %6s %10s %10s\n", "device", "callback", "count", "errors", "p50",
	       "max");
	for (i = 0; i < tb.n; i++) {
		struct row *r = &tb.rows[i];

		ll_sort(r->ns, r->n);
		printf("%-24s %-16s %6d %6d %10.1f %10.1f\n", names_get(nm, r->dev),
		       cb_names[r->kind], r->n, r->errors, percentile(r->ns, r->n, 0.5) / 1e3,
		       r->ns[r->n - 1] / 1e3);
	}
	ret = 0;
out:
	for (i = 0; i < tb.n; i++)
		free(tb.rows[i].ns);
	free(tb.rows);
	names_free(nm);
	return ret;
}
