// SPDX-License-Identifier: GPL-2.0
/*
 * critpath - how close asynchronous suspend/resume came to the best the
 * dependency graph allows, from pmtrace records (bpf/README.md) and the
 * scenario they were recorded with (bench/scenarios/README.md).
 *
 *   critpath [-d DAT] [-s SUMMARY] [--cpus N] [--clock virtual|real] SCENARIO RECORDS...
 *   critpath --check SCENARIO
 *
 * RECORDS are pmtrace files of one transition each; their begin record
 * says sync or async, the clock, and must name SCENARIO's sha256.  Per dpm
 * phase, with means over the transitions of each mode (bench/README.md):
 *
 *   T(sync), T(async)  the phase's duration (power:suspend_resume dpm_*)
 *   graph              the longest chain of dependent callbacks, weighted
 *                      by their sync durations
 *   cpu-floor          the sync runs' CPU work: on the virtual clock the
 *                      time some vCPU was busy (all vCPUs share one
 *                      instruction clock), on the real clock busy time
 *                      summed over the CPUs / CPUs
 *   bound              max(graph, cpu-floor, spin work / CPUs)
 *   speed-up           T(sync) / T(async);  efficiency: bound / T(async)
 *   violations         device callbacks that started before a dependency
 *                      of theirs was done, in any transition (the trace's
 *                      own ordering check, independent of pmsynth's oracle)
 *   CPU work           busy(sync), busy(async) as for cpu-floor, overhead
 *   workers            async threads that ran device work, the most at
 *                      once, their context switches; waits that blocked
 *   critical path      the chain that ended the async phase, walked back
 *                      from its last device through the dependency done
 *                      last before its callback began, split into callback
 *                      time (and what those callbacks took in the sync
 *                      runs), queue delay (queued, no worker yet), wake-up
 *                      (dependency done, dependent not yet running its
 *                      callback, not queued: waking a waiter, or handing
 *                      the dependent out) and other (the PM core's own
 *                      work, the main thread)
 *
 * Dependencies: in suspend, suspend_late, suspend_noirq and complete a
 * device waits for its children and pm_link slaves; in prepare and the
 * resume phases for its parent and masters.  Devices outside the scenario
 * (the guest's own) are chains of their own in the graph bound.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "records.h"
#include "run-set.h"

#define NS_PER_MS 1e6

struct chain {			/* the critical path of one async phase, ns */
	double devs, callback, callback_sync, queue, wakeup, other;
};

struct phase_result {
	double t_sync, t_async, cp, spin_work, floor, bound;
	int have_cpu;			/* every transition has CPU accounting */
	double busy_sync, busy_async;	/* CPU work (transition_work()), ns */
	double workers, max_running;	/* async threads: distinct, at once */
	double switches, blocked;	/* their context switches, blocked waits */
	long violations;
	struct chain chain;
};

static struct run_set rs = { .tool = "critpath", .cpus = -1, .real_clock = -1 };
static int nruns;			/* records files given */
static const char *dat_path, *summary_path, *scen_path;
static const char *run_paths[RUN_SET_MAX];
static int check_only;			/* --check: the scenario alone */
/*
 * The records come from a kernel without dpm_device events (a stock
 * kernel): device work is the callback, no waits, no queueing seen.
 */
static int no_dpm;

static int **deps_down, **deps_up;	/* scenario node -> dependency list, -1 ended */
static double *weight;			/* names id -> mean sync callback ns */
static double *finish;			/* critical-path memo */
static unsigned int *mark, mark_gen;	/* recorded_deps(): node visited */

static const char doc[] =
"Per-phase T(sync), T(async), speed-up, critical-path bound, efficiency, ordering "
"violations and the async critical path, from pmtrace records of SCENARIO.";

static const struct argp_option options[] = {
	{ "dat", 'd', "FILE", 0,
	  "Also write FILE: \"PHASE SYNC_MS ASYNC_MS BOUND_MS\" per phase", 0 },
	{ "summary", 's', "FILE", 0, "Also write FILE: one line, the whole transition", 0 },
	{ "cpus", 'c', "N", 0,
	  "CPUs for the spin-work bound and the real clock's CPU floor "
	  "(default: the records' cpus)", 0 },
	{ "check", 'C', NULL, 0,
	  "Only read SCENARIO and say whether pmsynth would load it (no RECORDS)", 0 },
	{ "clock", 'k', "virtual|real", 0,
	  "The guest's clock (default: the records' clock): what CPU work costs", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'd':
		dat_path = arg;
		break;
	case 's':
		summary_path = arg;
		break;
	case 'c':
		rs.cpus = strtol(arg, &end, 10);
		if (*end || rs.cpus < 1 || rs.cpus > 4096)
			argp_error(state, "--cpus wants a number 1..4096, got '%s'", arg);
		break;
	case 'k':
		if (strcmp(arg, "virtual") && strcmp(arg, "real"))
			argp_error(state, "--clock wants virtual or real, got '%s'", arg);
		rs.real_clock = !strcmp(arg, "real");
		break;
	case ARGP_KEY_ARG:
		if (!scen_path)
			scen_path = arg;
		else if (nruns == RUN_SET_MAX)
			argp_error(state, "more than %d records files", RUN_SET_MAX);
		else
			run_paths[nruns++] = arg;
		break;
	case 'C':
		check_only = 1;
		break;
	case ARGP_KEY_END:
		if (check_only && !scen_path)
			argp_error(state, "--check wants a scenario file");
		if (check_only && nruns)
			argp_error(state, "--check reads a scenario only, got records files too");
		if (!check_only && !nruns)
			argp_error(state, "want a scenario file and records files");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int *list_add(int *list, int *n, int v)
{
	list = realloc(list, sizeof(int) * (*n + 2));
	list[(*n)++] = v;
	list[*n] = -1;
	return list;
}

/* deps_up[i]: parent + masters; deps_down[i]: children + slaves. */
static void build_deps(void)
{
	int *nup = calloc(rs.scen.n, sizeof(int)), *ndown = calloc(rs.scen.n, sizeof(int));
	int i, k;

	deps_up = calloc(rs.scen.n, sizeof(int *));
	deps_down = calloc(rs.scen.n, sizeof(int *));
	for (i = 0; i < rs.scen.n; i++) {
		deps_up[i] = list_add(NULL, &nup[i], -1);
		nup[i] = 0;
		deps_down[i] = list_add(NULL, &ndown[i], -1);
		ndown[i] = 0;
	}
	for (i = 0; i < rs.scen.n; i++)
		for (k = -1; k < rs.scen.nodes[i].nmasters; k++) {
			int s = k < 0 ? rs.scen.nodes[i].parent : rs.scen.nodes[i].masters[k];

			if (s < 0)
				continue;
			deps_up[i] = list_add(deps_up[i], &nup[i], s);
			deps_down[s] = list_add(deps_down[s], &ndown[s], i);
		}
	free(nup);
	free(ndown);
}

static const int *deps_of(int p, int node)
{
	return dpm_phase_children_first(p) ? deps_down[node] : deps_up[node];
}

static double longest(int p, int node)
{
	const int *d;
	double best = 0;

	if (finish[node] >= 0)
		return finish[node];
	for (d = deps_of(p, node); *d >= 0; d++) {
		double f = longest(p, *d);

		if (f > best)
			best = f;
	}
	return finish[node] = best + weight[node];
}

/* bound: weights are the mean sync callback times of this phase. */
static void bound_phase(int p, struct phase_result *res)
{
	int n = names_count(rs.names), i, r;
	double cp = 0, work = 0;

	for (i = 0; i < n; i++) {
		int seen = 0;

		weight[i] = 0;
		for (r = 0; r < nruns; r++) {
			const struct dev_record *rec = rs.runs[r].async ? NULL :
						       transition_rec(&rs.runs[r], p, i);

			if (rec) {
				weight[i] += rec->cb_ns;
				seen++;
			}
		}
		if (seen)
			weight[i] /= seen;
		finish[i] = -1;
	}
	for (i = 0; i < n; i++) {
		double f = i < rs.scen.n ? longest(p, i) : weight[i];

		if (f > cp)
			cp = f;
		if (i < rs.scen.n && (rs.scen.nodes[i].spin & (1u << p)))
			work += weight[i];
	}
	res->cp = cp;
	res->spin_work = work;
}

static int by_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * @t's async workers in phase @p: distinct threads that ran async device
 * work, the most with device work in progress (start to done) at once,
 * their context switches during it; and the waits that blocked (any
 * thread: dpm_device_wait_start fires only for those).
 */
static void workers_of(const struct transition *t, int p, struct phase_result *res, double scale)
{
	int n = t->nrecs[p], i, k = 0, distinct = 0, now = 0, most = 0;
	long long *tids = malloc(sizeof(long long) * (n + 1));
	long long *edges = malloc(sizeof(long long) * (2 * n + 1));

	for (i = 0; i < n; i++) {
		const struct dev_record *r = &t->recs[p][i];

		res->blocked += r->nwaits * scale;
		if (!r->async)
			continue;
		res->switches += r->switches * scale;
		tids[k] = r->tid;
		/* an end sorts before a start at the same ns: 2x, 2x + 1 */
		edges[2 * k] = 2 * r->start + 1;
		edges[2 * k + 1] = 2 * r->end;
		k++;
	}
	qsort(tids, k, sizeof(*tids), by_ll);
	for (i = 0; i < k; i++)
		distinct += !i || tids[i] != tids[i - 1];
	qsort(edges, 2 * k, sizeof(*edges), by_ll);
	for (i = 0; i < 2 * k; i++) {
		now += edges[i] & 1 ? 1 : -1;
		if (now > most)
			most = now;
	}
	res->workers += distinct * scale;
	res->max_running += most * scale;
	free(tids);
	free(edges);
}

/*
 * Call @fn(@t's record of it, @arg) for each dependency of scenario node
 * @node in phase @p that has a record.  Without dpm_device events a device
 * without a callback has none: its own dependencies stand in for it,
 * transitively (each node once).
 */
static void recorded_deps(const struct transition *t, int p, int node,
			  void (*fn)(const struct dev_record *q, void *arg), void *arg)
{
	const int *d;

	for (d = deps_of(p, node); *d >= 0; d++) {
		const struct dev_record *q = transition_rec(t, p, *d);

		if (mark[*d] == mark_gen)
			continue;
		mark[*d] = mark_gen;
		if (q)
			fn(q, arg);
		else
			recorded_deps(t, p, *d, fn, arg);
	}
}

/* When @r's callback began; a device without one: when it was done. */
static long long cb_begin(const struct dev_record *r)
{
	return r->cb_start ? r->cb_start : r->end;
}

struct order_check {
	const struct transition *t;
	int p;
	const struct dev_record *r;
	long v;
};

/* one dependency @q of c->r: done before c->r's callback began? */
static void check_order(const struct dev_record *q, void *arg)
{
	struct order_check *c = arg;

	if (q->end <= cb_begin(c->r))
		return;
	if (!c->v)
		fprintf(stderr, "critpath: %s: %s: '%s' began its callback %.3f ms before '%s' "
				"was done\n",
			c->t->path, dpm_phase_names[c->p], names_get(rs.names, c->r->dev),
			(q->end - cb_begin(c->r)) / NS_PER_MS, names_get(rs.names, q->dev));
	c->v++;
}

/* Ordering: no scenario device's callback before a dependency is done. */
static long violations(const struct transition *t, int p)
{
	struct order_check c = { .t = t, .p = p };
	int i;

	for (i = 0; i < rs.scen.n; i++) {
		c.r = transition_rec(t, p, i);
		if (!c.r)	/* no dpm_device events: no callback, no record */
			continue;
		mark_gen++;
		recorded_deps(t, p, i, check_order, &c);
	}
	return c.v;
}

struct gate_find {
	const struct dev_record *r, *best;
};

/* a dependency @q of g->r, done before g->r's callback: the latest so far? */
static void gate_consider(const struct dev_record *q, void *arg)
{
	struct gate_find *g = arg;

	if (q->end <= cb_begin(g->r) && (!g->best || q->end > g->best->end))
		g->best = q;
}

/*
 * The dependency that held @r last: of those it waited for and its
 * scenario dependencies, the one done latest before @r's callback began.
 * With 6.12's scheduling that is the one its worker waited for; with the
 * series', the one whose end handed @r out.
 */
static const struct dev_record *gate(const struct transition *t, int p, const struct dev_record *r)
{
	const struct dev_record *best = NULL, *q;
	int k;

	for (k = 0; k < r->nwaits; k++) {
		q = transition_rec(t, p, r->waits[k]);
		if (q && q->end > r->start && q->end <= cb_begin(r) &&
		    (!best || q->end > best->end))
			best = q;
	}
	if (r->dev < rs.scen.n) {
		struct gate_find g = { .r = r, .best = best };

		mark_gen++;
		recorded_deps(t, p, r->dev, gate_consider, &g);
		best = g.best;
	} else if (!best && r->queued) {
		/*
		 * A device outside the scenario (its dependencies unknown)
		 * handed out during the phase: by the device whose end came
		 * last before, the one that made it ready.
		 */
		for (k = 0; k < t->nrecs[p]; k++) {
			q = &t->recs[p][k];
			if (q != r && q->end <= r->queued && (!best || q->end > best->end))
				best = q;
		}
	}
	return best;
}

/* Of [from, to], the part @r spent queued (handed out, no worker yet). */
static long long queued_within(const struct dev_record *r, long long from, long long to)
{
	long long a = r->queued > from ? r->queued : from;
	long long b = r->start < to ? r->start : to;

	return r->queued && b > a ? b - a : 0;
}

/* Walk the chain that ended phase @p of @t back to its start. */
static void chain_phase(const struct transition *t, int p, struct chain *c)
{
	const struct dev_record *r = NULL, *g;
	long long pend = t->phase_end[p], head;
	int i, steps = 0;

	for (i = 0; i < t->nrecs[p]; i++)
		if (!r || t->recs[p][i].end > r->end)
			r = &t->recs[p][i];
	if (!r) {
		c->other += pend - t->phase_start[p];
		return;
	}
	c->other += pend > r->end ? pend - r->end : 0;
	for (; r; r = g) {
		c->devs++;
		c->callback += r->cb_ns;
		c->callback_sync += weight[r->dev];
		c->other += r->end - (cb_begin(r) + r->cb_ns);
		g = ++steps <= names_count(rs.names) ? gate(t, p, r) : NULL;
		if (g) {
			long long q = queued_within(r, g->end, cb_begin(r));

			c->queue += q;
			c->wakeup += cb_begin(r) - g->end - q;
			continue;
		}
		c->other += cb_begin(r) - r->start;
		head = r->start;
		if (r->queued && r->queued <= r->start) {
			c->queue += r->start - r->queued;
			head = r->queued;
		}
		c->other += head > t->phase_start[p] ? head - t->phase_start[p] : 0;
	}
}

/* @to += @c * @scale, field by field */
static void chain_add(struct chain *to, const struct chain *c, double scale)
{
	to->devs += c->devs * scale;
	to->callback += c->callback * scale;
	to->callback_sync += c->callback_sync * scale;
	to->queue += c->queue * scale;
	to->wakeup += c->wakeup * scale;
	to->other += c->other * scale;
}

static void analyse_phase(int p, struct phase_result *res)
{
	struct chain c;
	int r;

	memset(res, 0, sizeof(*res));
	bound_phase(p, res);
	res->have_cpu = 1;
	for (r = 0; r < nruns; r++)
		res->have_cpu &= rs.runs[r].cpu[p].ncpus > 0;
	for (r = 0; r < nruns; r++) {
		double t = rs.runs[r].phase_end[p] - rs.runs[r].phase_start[p];

		res->violations += violations(&rs.runs[r], p);
		if (!rs.runs[r].async) {
			res->t_sync += t / rs.nsync;
			if (res->have_cpu)
				res->busy_sync += transition_work(&rs.runs[r], p, rs.real_clock) /
						  rs.nsync;
			continue;
		}
		res->t_async += t / rs.nasync;
		if (res->have_cpu)
			res->busy_async += transition_work(&rs.runs[r], p, rs.real_clock) /
					   rs.nasync;
		workers_of(&rs.runs[r], p, res, 1.0 / rs.nasync);
		memset(&c, 0, sizeof(c));
		chain_phase(&rs.runs[r], p, &c);
		chain_add(&res->chain, &c, 1.0 / rs.nasync);
	}
	/* the least CPU work the phase needs here: what the sync runs did */
	res->floor = res->have_cpu ? res->busy_sync / (rs.real_clock ? rs.cpus : 1) : 0;
	res->bound = res->cp;
	if (res->floor > res->bound)
		res->bound = res->floor;
	if (res->spin_work / rs.cpus > res->bound)
		res->bound = res->spin_work / rs.cpus;
}

/* @v ns as ms in a column of @width, or "n/a" when @have is false */
static void ms_col(int width, int have, double v)
{
	if (have)
		printf(" %*.3f", width, v / NS_PER_MS);
	else
		printf(" %*s", width, "n/a");
}

static void print_times(const char *name, const struct phase_result *r)
{
	printf("%-16s %10.3f %10.3f %8.2fx %10.3f", name, r->t_sync / NS_PER_MS,
	       r->t_async / NS_PER_MS, r->t_async > 0 ? r->t_sync / r->t_async : 0,
	       r->cp / NS_PER_MS);
	ms_col(10, r->have_cpu, r->floor);
	printf(" %10.3f %6.1f%% %6ld\n", r->bound / NS_PER_MS,
	       r->t_async > 0 ? 100 * r->bound / r->t_async : 0, r->violations);
}

static void print_work(const char *name, const struct phase_result *r)
{
	printf("%-16s", name);
	ms_col(10, r->have_cpu, r->busy_sync);
	ms_col(10, r->have_cpu, r->busy_async);
	ms_col(10, r->have_cpu, r->busy_async - r->busy_sync);
	printf(" %7.1f %7.1f %8.0f", r->workers, r->max_running, r->switches);
	if (no_dpm)		/* the waits that blocked are dpm_device events */
		printf(" %7s", "n/a");
	else
		printf(" %7.0f", r->blocked);
	printf(" | %5.0f %9.3f %9.3f", r->chain.devs, r->chain.callback / NS_PER_MS,
	       r->chain.callback_sync / NS_PER_MS);
	ms_col(8, !no_dpm, r->chain.queue);
	printf(" %8.3f %8.3f\n", r->chain.wakeup / NS_PER_MS, r->chain.other / NS_PER_MS);
}

static int write_dat(const struct phase_result *res)
{
	FILE *f = fopen(dat_path, "w");
	int p;

	if (!f) {
		perror(dat_path);
		return -1;
	}
	fprintf(f, "# phase sync_ms async_ms bound_ms graph_ms cpu_floor_ms (critpath, %s; NaN: no "
		   "CPU accounting)\n",
		rs.scen.name);
	for (p = 0; p < DPM_NR_PHASES; p++) {
		fprintf(f, "%s %.3f %.3f %.3f %.3f", dpm_phase_names[p],
			res[p].t_sync / NS_PER_MS, res[p].t_async / NS_PER_MS,
			res[p].bound / NS_PER_MS, res[p].cp / NS_PER_MS);
		if (res[p].have_cpu)
			fprintf(f, " %.3f\n", res[p].floor / NS_PER_MS);
		else
			fprintf(f, " NaN\n");
	}
	if (fclose(f)) {
		perror(dat_path);
		return -1;
	}
	return 0;
}

/* one line of KEY=VALUE: the whole transition, for the bench table */
static int write_summary(const struct phase_result *all)
{
	FILE *f = fopen(summary_path, "w");

	if (!f) {
		perror(summary_path);
		return -1;
	}
	fprintf(f, "scenario=%s devices=%d links=%d phases=%d clock=%s cpus=%ld", rs.scen.name,
		rs.scen.n,
		rs.scen.nlinks, DPM_NR_PHASES, rs.real_clock ? "real" : "virtual", rs.cpus);
	fprintf(f, " t_sync=%.3f t_async=%.3f speedup=%.2f graph=%.3f", all->t_sync / NS_PER_MS,
		all->t_async / NS_PER_MS, all->t_async > 0 ? all->t_sync / all->t_async : 0,
		all->cp / NS_PER_MS);
	if (all->have_cpu)
		fprintf(f, " floor=%.3f busy_sync=%.3f busy_async=%.3f overhead=%.3f",
			all->floor / NS_PER_MS, all->busy_sync / NS_PER_MS,
			all->busy_async / NS_PER_MS,
			(all->busy_async - all->busy_sync) / NS_PER_MS);
	else
		fprintf(f, " floor=n/a busy_sync=n/a busy_async=n/a overhead=n/a");
	fprintf(f, " bound=%.3f efficiency=%.1f workers=%.1f max_running=%.1f switches=%.0f",
		all->bound / NS_PER_MS, all->t_async > 0 ? 100 * all->bound / all->t_async : 0,
		all->workers, all->max_running, all->switches);
	if (no_dpm)
		fprintf(f, " blocked=n/a");
	else
		fprintf(f, " blocked=%.0f", all->blocked);
	fprintf(f, " violations=%ld events=%s\n", all->violations, no_dpm ? "stock" : "series");
	if (fclose(f)) {
		perror(summary_path);
		return -1;
	}
	return 0;
}

static int write_outputs(const struct phase_result *res, const struct phase_result *all)
{
	int p;

	printf("# critpath: scenario %s (%d devices, %d pm_links, sha256 %.12s...), %ld CPUs, %s "
	       "clock, %d sync + %d async transitions (%s)\n",
	       rs.scen.name, rs.scen.n, rs.scen.nlinks, rs.scen.sha256, rs.cpus,
	       rs.real_clock ? "real" : "virtual",
	       rs.nsync, rs.nasync, rs.async_mode && !strcmp(rs.async_mode, "legacy") ?
	       "the 6.12 scheduling, pm_async=2" :
	       no_dpm ? "pm_async=1, the kernel's scheduling" : "the series' scheduling");
	if (no_dpm)
		printf("# no dpm_device events (a kernel without the series): a device's work is "
		       "its callback, a device\n# without one has no record; blocked waits and "
		       "queue delay n/a, wake-up includes queueing\n");
	printf("# ms, means over transitions; graph: critical path of sync callback times; "
	       "cpu-floor: the sync runs' CPU work%s;\n",
	       rs.real_clock ? " / CPUs" : "");
	printf("# bound = max(graph, cpu-floor, spin work / CPUs); effic. = bound / T(async)\n");
	printf("%-16s %10s %10s %9s %10s %10s %10s %7s %6s\n", "phase", "T(sync)", "T(async)",
	       "speed-up", "graph", "cpu-floor", "bound", "effic.", "viol.");
	for (p = 0; p < DPM_NR_PHASES; p++)
		print_times(dpm_phase_names[p], &res[p]);
	print_times("all", all);
	printf("\n# CPU work, ms: %s;\n",
	       rs.real_clock ? "busy time summed over the CPUs" :
	       "the time some vCPU was busy (one instruction clock for all vCPUs)");
	printf("# async workers per async transition: distinct threads, most with device work at "
	       "once, their\n");
	printf("# context switches, waits that blocked; right of '|': the async critical path: "
	       "devices on it,\n");
	printf("# callback time (the same callbacks in sync runs), queue, wake-up, other\n");
	printf("%-16s %10s %10s %10s %7s %7s %8s %7s | %5s %9s %9s %8s %8s %8s\n", "work",
	       "busy(sync)", "busy(async)", "overhead", "workers", "at-once", "switches", "blocked",
	       "devs", "callback", "(sync)", "queue", "wake-up", "other");
	for (p = 0; p < DPM_NR_PHASES; p++)
		print_work(dpm_phase_names[p], &res[p]);
	print_work("all", all);
	if (dat_path && write_dat(res))
		return -1;
	if (summary_path && write_summary(all))
		return -1;
	return 0;
}

/* every phase into @res, the whole transition into @all */
static void analyse(struct phase_result *res, struct phase_result *all)
{
	int p;

	memset(all, 0, sizeof(*all));
	all->have_cpu = 1;
	for (p = 0; p < DPM_NR_PHASES; p++) {
		analyse_phase(p, &res[p]);
		all->t_sync += res[p].t_sync;
		all->t_async += res[p].t_async;
		all->cp += res[p].cp;
		all->floor += res[p].floor;
		all->bound += res[p].bound;
		all->have_cpu &= res[p].have_cpu;
		all->busy_sync += res[p].busy_sync;
		all->busy_async += res[p].busy_async;
		if (res[p].workers > all->workers)
			all->workers = res[p].workers;
		if (res[p].max_running > all->max_running)
			all->max_running = res[p].max_running;
		all->switches += res[p].switches;
		all->blocked += res[p].blocked;
		all->violations += res[p].violations;
		chain_add(&all->chain, &res[p].chain, 1.0);
	}
}

static void free_all(void)
{
	int i;

	for (i = 0; deps_up && i < rs.scen.n; i++) {
		free(deps_up[i]);
		free(deps_down[i]);
	}
	free(deps_up);
	free(deps_down);
	free(weight);
	free(finish);
	free(mark);
	run_set_free(&rs);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, "SCENARIO RECORDS...", doc,
					  NULL, NULL, NULL };
	struct phase_result res[DPM_NR_PHASES], all;
	int ret = 1;

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (scenario_read(scen_path, &rs.scen))
		return 1;
	if (check_only) {
		printf("%s: %d devices, %d pm_links, sha256 %s\n", rs.scen.path, rs.scen.n,
		       rs.scen.nlinks, rs.scen.sha256);
		scenario_free(&rs.scen);
		return 0;
	}
	if (run_set_read(&rs, run_paths, nruns))
		goto out;
	no_dpm = rs.runs[0].no_dpm;
	build_deps();
	weight = calloc(names_count(rs.names), sizeof(double));
	finish = calloc(names_count(rs.names), sizeof(double));
	mark = calloc(rs.scen.n + 1, sizeof(*mark));
	analyse(res, &all);
	if (!write_outputs(res, &all))
		ret = 0;
out:
	free_all();
	return ret;
}
