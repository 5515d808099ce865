// SPDX-License-Identifier: GPL-2.0
/*
 * run-set.c - the records of one analysis read against their scenario; see
 * run-set.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run-set.h"

/* A records file against the scenario: same file, every device there. */
static int check_run(struct run_set *rs, const struct transition *t)
{
	int p, i;

	if (!t->sha256) {
		fprintf(stderr, "%s: its begin record names no scenario_sha256: cannot tell which "
				"scenario it recorded\n",
			t->path);
		return -1;
	}
	if (strcmp(t->sha256, rs->scen.sha256)) {
		fprintf(stderr, "%s: recorded with scenario '%s' (sha256 %.12s...), not %s (sha256 "
				"%.12s...)\n",
			t->path, t->scenario ? t->scenario : "?", t->sha256, rs->scen.path,
			rs->scen.sha256);
		return -1;
	}
	if (t->devices < 0 || t->links < 0) {
		fprintf(stderr, "%s: its begin record lacks the devices and links the kernel had\n",
			t->path);
		return -1;
	}
	if (t->devices != rs->scen.n || t->links != rs->scen.nlinks) {
		fprintf(stderr, "%s: the kernel had %lld devices and %lld pm_links, %s has %d and "
				"%d\n",
			t->path, t->devices, t->links, rs->scen.path, rs->scen.n, rs->scen.nlinks);
		return -1;
	}
	if (!t->mode || (strcmp(t->mode, "sync") && !t->async)) {
		fprintf(stderr, "%s: mode '%s' in its begin record, want sync, async or legacy\n",
			t->path, t->mode ? t->mode : "(none)");
		return -1;
	}
	for (p = 0; p < DPM_NR_PHASES; p++)
		for (i = 0; i < rs->scen.n; i++) {
			int twin = names_twin(rs->names, rs->scen.nodes[i].name);

			/* without dpm_device events a device without a callback has none */
			if (!transition_rec(t, p, i) && !t->no_dpm) {
				fprintf(stderr, "%s: no %s record of device '%s': an incomplete "
						"transition\n",
					t->path, dpm_phase_names[p], rs->scen.nodes[i].name);
				return -1;
			}
			if (twin >= 0 && transition_rec(t, p, twin)) {
				fprintf(stderr, "%s: two devices named '%s' in %s: the scenario's "
						"names must be unique in the guest\n",
					t->path, rs->scen.nodes[i].name, dpm_phase_names[p]);
				return -1;
			}
		}
	return 0;
}

/* The records' clock, all the same, when --clock did not say. */
static int resolve_clock(struct run_set *rs)
{
	int r;

	for (r = 0; r < rs->nruns; r++) {
		const char *c = rs->runs[r].clock;

		if (!c || (strcmp(c, "virtual") && strcmp(c, "real"))) {
			fprintf(stderr, "%s: clock '%s' in its begin record, want virtual or real: "
					"give --clock\n",
				rs->runs[r].path, c ? c : "(none)");
			return -1;
		}
		if (strcmp(c, rs->runs[0].clock)) {
			fprintf(stderr, "%s: %s ran on the %s clock, %s on the %s clock\n",
				rs->tool, rs->runs[0].path, rs->runs[0].clock, rs->runs[r].path, c);
			return -1;
		}
	}
	rs->real_clock = !strcmp(rs->runs[0].clock, "real");
	return 0;
}

/*
 * @name is a twin's: BASE.K (K a number from 2) of a BASE the scenario
 * also has (sysfs2scen names same-named devices so, in path order).  The
 * node of BASE, or -1.
 */
static int twin_base(const struct scenario *s, const char *name)
{
	const char *dot = strrchr(name, '.');
	char base[256];
	size_t len;

	if (!dot || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1) ||
	    dot[1] == '0' || !strcmp(dot + 1, "1"))
		return -1;
	len = dot - name;
	if (len >= sizeof(base))
		return -1;
	memcpy(base, name, len);
	base[len] = '\0';
	return scenario_find(s, base);
}

/*
 * The scenario node @c's parent has the name a record gives (@parent: the
 * nearest device with PM above it in sysfs, "" when none; bpf/README.md)?
 */
static int parent_is(const struct scenario *s, int c, const char *parent)
{
	int p = s->nodes[c].parent, b;

	if (p < 0)
		return !*parent;
	if (!strcmp(s->nodes[p].name, parent))
		return 1;
	b = twin_base(s, s->nodes[p].name);	/* the parent a twin itself */
	return b >= 0 && !strcmp(s->nodes[b].name, parent);
}

/* @head's group's node for a device named @name (BASE or BASE#K), or -1 */
static int group_of(const struct run_set *rs, const int *head, const char *name)
{
	char base[256];
	int b;

	snprintf(base, sizeof(base), "%.*s", (int)strcspn(name, "#"), name);
	b = scenario_find(&rs->scen, base);
	return b >= 0 && head[b] == b ? b : -1;
}

/* the twin of group @b whose parent is @parent (the last), and how many are */
static int twin_of(const struct scenario *s, const int *head, int b, const char *parent,
		   int *matches)
{
	int c, found = -1;

	*matches = 0;
	for (c = 0; c < s->n; c++)
		if (head[c] == b && parent_is(s, c, parent)) {
			found = c;
			(*matches)++;
		}
	return found;
}

/*
 * A machine's graph (sysfs2scen) has devices of one name as BASE, BASE.2,
 * ... in path order; records name them as they come in a phase (BASE,
 * BASE#2: records.h), an order that changes from phase to phase.  Their
 * parents tell them apart: each such record goes to the one twin whose
 * parent has the record's parent's name, one record per twin and phase,
 * or the file is refused (a record under a scenario name whose parent
 * matches no twin, or several, stays on its name: pmsynth's devices).
 * A wait on such a device names no parent: it is dropped (the scenario's
 * own dependencies still gate the waiter).
 * @head[i]: the node of BASE for the twins of a group (BASE included),
 * else -1.  0, or -1 after a message.
 */
static int resolve_twins(struct run_set *rs, struct transition *t, const int *head,
			 int *taken)
{
	const struct scenario *s = &rs->scen;
	int p, i, c, k;

	for (p = 0; p < DPM_NR_PHASES; p++) {
		for (c = 0; c < s->n; c++)
			taken[c] = -1;
		for (i = 0; i < t->nrecs[p]; i++) {
			struct dev_record *d = &t->recs[p][i];
			const char *name = names_get(rs->names, d->dev);
			int b = group_of(rs, head, name), found, matches;

			for (k = 0; k < d->nwaits; k++) {
				if (group_of(rs, head, names_get(rs->names, d->waits[k])) < 0)
					continue;
				d->nwaits--;
				d->waits[k] = d->waits[d->nwaits];
				d->wait_ns[k] = d->wait_ns[d->nwaits];
				k--;
			}
			if (b < 0)
				continue;
			found = d->parent ? twin_of(s, head, b, d->parent, &matches) : -1;
			if (!d->parent)
				matches = 0;
			/*
			 * A record under a twin's own name (pmsynth's devices are
			 * named as the scenario says) whose parent tells no better
			 * stays where its name puts it.
			 */
			if (matches != 1 && !strchr(name, '#') && d->dev < s->n) {
				found = d->dev;
			} else if (matches != 1) {
				fprintf(stderr, "%s:%lld: %s record of '%s' (parent '%s'): %d of "
						"%s's devices of that name have that parent: "
						"cannot tell which\n",
					t->path, d->line, dpm_phase_names[p], name,
					d->parent ? d->parent : "none", matches, s->path);
				return -1;
			}
			if (taken[found] >= 0) {
				fprintf(stderr, "%s:%lld: %s record of '%s' (parent '%s'): "
						"%s's '%s' has one already (line %lld)\n",
					t->path, d->line, dpm_phase_names[p], name,
					d->parent ? d->parent : "none", s->path,
					s->nodes[found].name, t->recs[p][taken[found]].line);
				return -1;
			}
			taken[found] = i;
			d->dev = found;
		}
	}
	return 0;
}

/* the records files into rs->runs[]; one async mode among them */
static int read_runs(struct run_set *rs, const char *const *paths)
{
	int r, i, *head, err = 0;

	for (i = 0; i < rs->scen.n; i++)
		if (names_id(rs->names, rs->scen.nodes[i].name, 1) != i) {
			fprintf(stderr, "%s: cannot index the scenario's devices\n", rs->tool);
			return -1;
		}
	for (r = 0; r < rs->nruns; r++) {
		if (transition_read(rs->names, paths[r], &rs->runs[r]))
			return -1;
		if (rs->runs[r].async)
			rs->nasync++;
		else
			rs->nsync++;
		if (rs->runs[r].async && rs->runs[r].mode && rs->async_mode &&
		    strcmp(rs->runs[r].mode, rs->async_mode)) {
			fprintf(stderr, "%s: %s is a '%s' transition, an earlier one '%s': "
					"give one async mode\n",
				rs->tool, rs->runs[r].path, rs->runs[r].mode, rs->async_mode);
			return -1;
		}
		if (rs->runs[r].async && rs->runs[r].mode)
			rs->async_mode = rs->runs[r].mode;
	}
	head = malloc(sizeof(int) * (2 * rs->scen.n + 1));	/* head[], then taken[] */
	if (!head) {
		fprintf(stderr, "%s: out of memory\n", rs->tool);
		return -1;
	}
	for (i = 0; i < rs->scen.n; i++)
		head[i] = -1;
	for (i = 0; i < rs->scen.n; i++) {
		int b = twin_base(&rs->scen, rs->scen.nodes[i].name);

		if (b >= 0) {
			head[i] = b;
			head[b] = b;
		}
	}
	for (r = 0; r < rs->nruns && !err; r++)
		err = resolve_twins(rs, &rs->runs[r], head, head + rs->scen.n);
	free(head);
	if (err)
		return -1;
	for (r = 0; r < rs->nruns; r++)
		if (rs->runs[r].no_dpm != rs->runs[0].no_dpm) {
			fprintf(stderr, "%s: %s was recorded %s dpm_device events, %s %s: analyse "
					"them apart\n",
				rs->tool, rs->runs[r].path, rs->runs[r].no_dpm ? "without" : "with",
				rs->runs[0].path, rs->runs[0].no_dpm ? "without" : "with");
			return -1;
		}
	for (r = 0; r < rs->nruns; r++)
		if (transition_index(rs->names, &rs->runs[r]) || check_run(rs, &rs->runs[r]))
			return -1;
	return 0;
}

/* CPUs and clock from the records unless given; both modes present */
static int resolve_setup(struct run_set *rs)
{
	int r;

	for (r = 0; r < rs->nruns && rs->cpus < 0; r++)
		if (rs->runs[r].cpus != rs->runs[0].cpus) {
			fprintf(stderr, "%s: %s ran on %lld CPUs, %s on %lld: give --cpus\n",
				rs->tool, rs->runs[0].path, rs->runs[0].cpus, rs->runs[r].path,
				rs->runs[r].cpus);
			return -1;
		}
	if (rs->cpus < 0)
		rs->cpus = rs->runs[0].cpus;
	if (rs->real_clock < 0 && resolve_clock(rs))
		return -1;
	if (!rs->nsync || !rs->nasync) {
		fprintf(stderr, "%s: need sync and async transitions, got %d sync and %d "
				"async\n",
			rs->tool, rs->nsync, rs->nasync);
		return -1;
	}
	if (rs->cpus < 1) {
		fprintf(stderr, "%s: the records do not say how many CPUs ran them: use "
				"--cpus\n", rs->tool);
		return -1;
	}
	return 0;
}

int run_set_read(struct run_set *rs, const char *const *paths, int n)
{
	rs->nruns = n;
	rs->names = names_new();
	if (!rs->names) {
		fprintf(stderr, "%s: out of memory\n", rs->tool);
		return -1;
	}
	return read_runs(rs, paths) || resolve_setup(rs) ? -1 : 0;
}

void run_set_free(struct run_set *rs)
{
	int r;

	for (r = 0; r < rs->nruns; r++)
		transition_free(&rs->runs[r]);
	scenario_free(&rs->scen);
	names_free(rs->names);
}
