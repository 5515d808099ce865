// SPDX-License-Identifier: GPL-2.0
/*
 * pmtune - which devices should suspend and resume asynchronously: from
 * pmtrace records of measured transitions and their scenario, the opt-in
 * flips ranked by the time they are predicted to save.
 *
 *   pmtune [--script FILE] [--set best|smallest] [--summary FILE]
 *          [--threshold MS] [--within PCT] [--unsafe] [--root DIR]
 *          SCENARIO RECORDS...
 *
 * RECORDS: at least one sync transition and one async transition with
 * async devices (any opt-in set: the scenario's own, all async, ...), all
 * of one scheduling (the series' "async" or 6.12's "legacy").  The model
 * (tune-model.h) predicts a phase's time for any opt-in set; the search:
 *
 *   best      greedy (the flip, to async or back to sync, with the largest
 *             predicted gain, until the next gains less than --threshold)
 *             from the as-is set (the scenario's async flags), from all
 *             sync and from every safe device async: the lowest of the
 *             three, its flips listed from its start;
 *   smallest  from all sync, greedy flips to async until the prediction is
 *             within --within % of the best set's.
 *
 * A device with deps=unknown in the scenario (its dependencies not all
 * known to the importer) is never flipped to async unless --unsafe; back
 * to sync always may.  Output: the model's figures, the predicted time of
 * all-sync, as-is, best, smallest and all-async, the records' own
 * transitions predicted against measured, and the flips of the best set
 * (device, gain per phase, cumulative prediction).  --script writes the
 * flips of a set from as-is as a shell script of power/async writes under
 * --root (default /sys/devices/pmsynth: pmsynth's devices, whose
 * directories follow the scenario's parents), each path single-quoted;
 * --script and --summary are written whole or not at all.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run-set.h"
#include "tune-model.h"

#define NS_PER_MS 1e6

struct flip {
	int dev, to_async;
	double gain[DPM_NR_PHASES];	/* ns */
	double total;			/* predicted after it, ns */
};

struct search {
	unsigned char *set;
	struct flip *flips;
	int nflips;
	double total;
};

static struct run_set rs = { .tool = "pmtune", .cpus = -1, .real_clock = -1 };
static struct tune_model model;
static const char *scen_path, *script_path, *summary_path, *calib_set;
static const char *run_paths[RUN_SET_MAX];
static const char *root = "/sys/devices/pmsynth";
static int nruns, unsafe_ok, script_smallest;
static double threshold_ns = 0.05 * NS_PER_MS, within_pct = 5;

static const char doc[] =
"Rank the async opt-in flips of SCENARIO's devices by the predicted gain, from "
"pmtrace records of its sync and async transitions: the best set, the smallest set "
"near all-async, and a power/async script.";

static const struct argp_option options[] = {
	{ "script", 'o', "FILE", 0,
	  "Write the flips of the set (--set) as a power/async script", 0 },
	{ "set", 'S', "best|smallest", 0, "The set --script writes (default best)", 0 },
	{ "summary", 's', "FILE", 0, "Also write FILE: KEY=VALUE lines, a set or a run a line", 0 },
	{ "threshold", 't', "MS", 0, "Stop when the next flip gains less (default 0.05)", 0 },
	{ "within", 'w', "PCT", 0, "The smallest set gets this close to all async (default 5)", 0 },
	{ "unsafe", 'u', NULL, 0, "Also flip devices with deps=unknown to async", 0 },
	{ "calibrate", 'c', "OPT_IN", 0, "Calibrate from the async transitions whose opt_in "
	  "meta is OPT_IN (default: those with the most async devices); the others are "
	  "predicted only", 0 },
	{ "root", 'r', "DIR", 0, "Device directory the script writes under "
	  "(default /sys/devices/pmsynth)", 0 },
	{ 0 },
};

static double opt_value(struct argp_state *state, const char *opt, const char *arg, double max)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !*arg || !(v >= 0 && v <= max))
		argp_error(state, "%s wants a number 0..%g, got '%s'", opt, max, arg);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'o':
		script_path = arg;
		break;
	case 'S':
		if (strcmp(arg, "best") && strcmp(arg, "smallest"))
			argp_error(state, "--set wants best or smallest, got '%s'", arg);
		script_smallest = !strcmp(arg, "smallest");
		break;
	case 's':
		summary_path = arg;
		break;
	case 't':
		threshold_ns = opt_value(state, "--threshold", arg, 1e6) * NS_PER_MS;
		break;
	case 'w':
		within_pct = opt_value(state, "--within", arg, 1000);
		break;
	case 'u':
		unsafe_ok = 1;
		break;
	case 'c':
		calib_set = arg;
		break;
	case 'r':
		if (arg[0] != '/')
			argp_error(state, "--root wants an absolute directory, got '%s'", arg);
		root = arg;
		break;
	case ARGP_KEY_ARG:
		if (!scen_path)
			scen_path = arg;
		else if (nruns == RUN_SET_MAX)
			argp_error(state, "more than %d records files", RUN_SET_MAX);
		else
			run_paths[nruns++] = arg;
		break;
	case ARGP_KEY_END:
		if (!nruns)
			argp_error(state, "want a scenario file and records files");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int may_flip(const unsigned char *set, int dev)
{
	return set[dev] || unsafe_ok || !rs.scen.nodes[dev].deps_unknown;
}

/*
 * The candidates of one greedy step: to async, devices on a critical chain
 * of a phase its path bounds; back to sync, async devices on a chain, and
 * every async device when the CPU floor bounds a phase.
 */
static void candidates(unsigned char *set, unsigned char *cand)
{
	int p, i, floor_bound = 0;
	double path, floor;

	memset(cand, 0, model.n);
	for (p = 0; p < DPM_NR_PHASES; p++) {
		if (!tune_async_phase(p))
			continue;
		tune_predict_phase(&model, p, set, &path, &floor);
		if (floor >= path)
			floor_bound = 1;
		else
			tune_mark_chain(&model, p, set, cand);
	}
	for (i = 0; i < rs.scen.n; i++)
		if (floor_bound && set[i])
			cand[i] = 1;
}

/* One greedy step on @s: the best flip, if it gains at least @min; 1 when taken. */
static int step(struct search *s, unsigned char *cand, int to_sync_ok, double min)
{
	double best_gain = min, t, before[DPM_NR_PHASES];
	struct flip *f;
	int i, p, best = -1;

	candidates(s->set, cand);
	for (i = 0; i < rs.scen.n; i++) {
		if (!cand[i] || !may_flip(s->set, i) || (s->set[i] && !to_sync_ok))
			continue;
		s->set[i] ^= 1;
		t = tune_predict(&model, s->set);
		s->set[i] ^= 1;
		if (s->total - t > best_gain) {
			best_gain = s->total - t;
			best = i;
		}
	}
	if (best < 0)
		return 0;
	f = &s->flips[s->nflips++];
	f->dev = best;
	f->to_async = !s->set[best];
	for (p = 0; p < DPM_NR_PHASES; p++)
		before[p] = tune_predict_phase(&model, p, s->set, NULL, NULL);
	s->set[best] ^= 1;
	for (p = 0; p < DPM_NR_PHASES; p++)
		f->gain[p] = before[p] - tune_predict_phase(&model, p, s->set, NULL, NULL);
	f->total = tune_predict(&model, s->set);
	s->total = f->total;
	return 1;
}

/* @s from @start: greedy until no flip gains @min, or the total reaches @goal */
static int run_search(struct search *s, const unsigned char *start, int to_sync_ok, double min,
		      double goal)
{
	unsigned char *cand = malloc(model.n + 1);
	int limit = 2 * rs.scen.n;

	s->set = malloc(model.n + 1);
	s->flips = calloc(limit + 1, sizeof(*s->flips));
	s->nflips = 0;
	if (!cand || !s->set || !s->flips) {
		free(cand);
		fprintf(stderr, "pmtune: out of memory\n");
		return -1;
	}
	memcpy(s->set, start, model.n);
	s->total = tune_predict(&model, s->set);
	while (s->total > goal && s->nflips < limit && step(s, cand, to_sync_ok, min))
		;
	free(cand);
	return 0;
}

/* the scenario's devices async in @set (the guest's own are not counted) */
static int count_async(const unsigned char *set)
{
	int i, n = 0;

	for (i = 0; i < rs.scen.n; i++)
		n += set[i];
	return n;
}

static const char *phase_abbrev[DPM_NR_PHASES] = {
	"prep", "suspend", "s_late", "s_noirq", "r_noirq", "r_early", "resume", "compl",
};

static void print_model(FILE *f, const unsigned char *asis)
{
	double path, floor;
	int p;

	fprintf(f, "# pmtune: scenario %s (%d devices, %d pm_links), %s scheduling, %s clock, "
		"%ld CPUs, %d sync + %d async transitions (calibrated on %s%s%s)\n",
		rs.scen.name, rs.scen.n, rs.scen.nlinks, model.legacy ? "6.12's" : "the series'",
		rs.real_clock ? "real" : "virtual", rs.cpus, rs.nsync, rs.nasync,
		calib_set ? "opt_in " : "", calib_set ? calib_set : "the most async: ",
		model.calib);
	if (!rs.real_clock)
		fprintf(f, "# virtual clock: one instruction clock for all vCPUs (1 GIPS), so CPU "
			"work weighs 10-20x more against device waits than on a laptop\n");
	fprintf(f, "# model, per phase: c = CPU work an async device adds, a = its own time on "
		"a worker, h = hand-off\n# (dependency done -> dependent's callback), h0 = phase "
		"start -> an ungated device's\n# callback; as-is: predicted path and CPU floor, "
		"ms (n/a: no CPU accounting)\n");
	fprintf(f, "%-14s %8s %8s %8s %8s %10s %10s %10s\n", "phase", "c_us", "a_us", "h_us",
		"h0_us", "T(sync)", "path", "floor");
	for (p = 0; p < DPM_NR_PHASES; p++) {
		tune_predict_phase(&model, p, asis, &path, &floor);
		fprintf(f, "%-14s %8.1f %8.1f %8.1f %8.1f %10.3f %10.3f", dpm_phase_names[p],
			model.c[p] / 1e3, model.a[p] / 1e3, model.h[p] / 1e3, model.h0[p] / 1e3,
			model.t_sync[p] / NS_PER_MS, path / NS_PER_MS);
		if (model.have_cpu[p] || !tune_async_phase(p))
			fprintf(f, " %10.3f\n", floor / NS_PER_MS);
		else
			fprintf(f, " %10s\n", "n/a");
	}
}

/* the records' own transitions: predicted against measured */
static void print_runs(FILE *sum)
{
	unsigned char *set = malloc(model.n + 1);
	int r, p;

	printf("\n# the records' transitions: predicted against measured, ms\n");
	printf("%-28s %-10s %6s %10s %10s %7s\n", "records", "opt-in", "async", "measured",
	       "predicted", "error");
	for (r = 0; r < rs.nruns && set; r++) {
		const struct transition *t = &rs.runs[r];
		const char *opt = transition_meta(t, "opt_in");
		double meas = 0, pred;
		const char *base = strrchr(t->path, '/');

		if (t->async)
			tune_async_set(&model, t, set);
		else
			memset(set, 0, model.n);
		for (p = 0; p < DPM_NR_PHASES; p++)
			meas += t->phase_end[p] - t->phase_start[p];
		pred = tune_predict(&model, set);
		if (!opt)
			opt = t->async ? "-" : "all-sync";
		printf("%-28s %-10s %6d %10.3f %10.3f %+6.1f%%\n", base ? base + 1 : t->path, opt,
		       count_async(set), meas / NS_PER_MS, pred / NS_PER_MS,
		       100 * (pred - meas) / meas);
		if (sum)
			fprintf(sum, "run=%s opt_in=%s async=%d measured=%.3f predicted=%.3f "
				     "error=%.1f\n", base ? base + 1 : t->path, opt,
				count_async(set), meas / NS_PER_MS, pred / NS_PER_MS,
				100 * (pred - meas) / meas);
	}
	free(set);
}

static void print_flips(const struct search *s, const char *from)
{
	int k, p;

	printf("\n# the best set, from %s: %d flips, best first; gain per phase, ms; predicted "
	       "transition after each\n", from, s->nflips);
	printf("%4s %-24s %-6s", "#", "device", "flip");
	for (p = DPM_SUSPEND; p <= DPM_RESUME; p++)
		printf(" %8s", phase_abbrev[p]);
	printf(" %9s %10s\n", "gain", "predicted");
	for (k = 0; k < s->nflips; k++) {
		const struct flip *f = &s->flips[k];
		double g = 0;

		printf("%4d %-24s %-6s", k + 1, rs.scen.nodes[f->dev].name,
		       f->to_async ? "async" : "sync");
		for (p = DPM_SUSPEND; p <= DPM_RESUME; p++) {
			printf(" %8.3f", f->gain[p] / NS_PER_MS);
			g += f->gain[p];
		}
		printf(" %9.3f %10.3f\n", g / NS_PER_MS, f->total / NS_PER_MS);
	}
}

/* @s single-quoted for sh ("'" as '\'') */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* @dev's directory under root: its ancestors' names, then its own */
static void put_path(FILE *f, int dev)
{
	if (dev < 0) {
		put_quoted(f, root);
		return;
	}
	put_path(f, rs.scen.nodes[dev].parent);
	fputc('/', f);
	put_quoted(f, rs.scen.nodes[dev].name);
}

static void write_script(FILE *f, const struct search *s, const unsigned char *asis,
			 const char *name)
{
	int i, n = 0;

	fprintf(f, "#!/bin/sh\n# pmtune's %s set for scenario %s (sha256 %.12s...): the "
		   "power/async writes\n# that turn its as-is opt-ins into that set, for pmsynth's "
		   "devices (their directories\n# follow the scenario's parents; needs "
		   "CONFIG_PM_ADVANCED_DEBUG)\nset -e\n", name, rs.scen.name, rs.scen.sha256);
	for (i = 0; i < rs.scen.n; i++) {
		if (s->set[i] == asis[i])
			continue;
		fprintf(f, "echo %s > ", s->set[i] ? "enabled" : "disabled");
		put_path(f, i);
		fputs("/power/async\n", f);
		n++;
	}
	fprintf(f, "# %d writes\n", n);
}

static void summary_set(FILE *sum, const char *name, const unsigned char *set, double t)
{
	printf("%-10s %6d %10.3f\n", name, count_async(set), t / NS_PER_MS);
	if (sum)
		fprintf(sum, "set=%s async=%d predicted=%.3f\n", name, count_async(set),
			t / NS_PER_MS);
}

/* an output file, written whole or not at all: PATH.tmp renamed at the end */
struct output {
	const char *path;
	char *tmp;
	FILE *f;
};

static int output_open(struct output *o, const char *path)
{
	o->path = path;
	o->f = NULL;
	if (!path)
		return 0;
	if (asprintf(&o->tmp, "%s.tmp", path) < 0) {
		o->tmp = NULL;
		fprintf(stderr, "pmtune: out of memory\n");
		return -1;
	}
	o->f = fopen(o->tmp, "w");
	if (!o->f) {
		fprintf(stderr, "pmtune: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* close @o; with @ok, keep it (renamed into place), else remove it; 0 or -1 */
static int output_close(struct output *o, int ok)
{
	int err = 0;

	if (o->f) {
		err = ferror(o->f) | fclose(o->f);
		if (err && ok)
			fprintf(stderr, "pmtune: writing %s failed\n", o->path);
		if (ok && !err && rename(o->tmp, o->path)) {
			fprintf(stderr, "pmtune: %s: %s\n", o->path, strerror(errno));
			err = 1;
		}
		if (!ok || err)
			unlink(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	o->f = NULL;
	return err ? -1 : 0;
}

struct sets {
	unsigned char *asis, *none, *all, *guest, *safe;
};

/*
 * The best set: the lowest of the greedy searches from as-is, from all
 * sync and from every safe device async (both directions each); its
 * flips are from its own start.  0 or -1 (out of memory).
 */
static int find_best(const struct sets *st, struct search *best, const char **from)
{
	const unsigned char *starts[] = { st->asis, st->guest, st->safe };
	static const char *const names[] = { "as-is", "all sync", "every safe device async" };
	struct search s;
	int k;

	for (k = 0; k < 3; k++) {
		memset(&s, 0, sizeof(s));
		if (run_search(&s, starts[k], 1, threshold_ns, 0))
			return -1;
		/* another start wins only by the threshold: fewer changes otherwise */
		if (!best->set || s.total < best->total - threshold_ns) {
			free(best->set);
			free(best->flips);
			*best = s;
			*from = names[k];
		} else {
			free(s.set);
			free(s.flips);
		}
	}
	return 0;
}

static int tune(void)
{
	struct sets st;
	struct search best = { 0 }, small = { 0 };
	struct output sum = { 0 }, script = { 0 };
	const char *from = "as-is";
	double t_all;
	int i, ret = -1;

	st.asis = calloc(model.n + 1, 1);
	st.none = calloc(model.n + 1, 1);
	st.all = calloc(model.n + 1, 1);
	st.guest = calloc(model.n + 1, 1);
	st.safe = calloc(model.n + 1, 1);
	if (!st.asis || !st.none || !st.all || !st.guest || !st.safe) {
		fprintf(stderr, "pmtune: out of memory\n");
		goto out;
	}
	/* the guest's own devices keep the mode they had in the calibration run */
	for (i = 0; i < rs.nruns; i++)
		if (!strcmp(rs.runs[i].path, model.calib))
			tune_async_set(&model, &rs.runs[i], st.guest);
	for (i = 0; i < model.n; i++) {
		int scen = i < rs.scen.n;

		st.asis[i] = scen ? rs.scen.nodes[i].async : st.guest[i];
		st.all[i] = scen ? 1 : st.guest[i];
		st.safe[i] = scen ? st.asis[i] || !rs.scen.nodes[i].deps_unknown : st.guest[i];
		st.guest[i] = scen ? 0 : st.guest[i];
	}
	t_all = tune_predict(&model, st.all);
	if (find_best(&st, &best, &from))
		goto out;
	/* the fewest flips to async from all sync that get within X % of the best */
	if (run_search(&small, st.guest, 0, 0, best.total * (1 + within_pct / 100)))
		goto out;
	if (output_open(&sum, summary_path) || output_open(&script, script_path))
		goto out;
	print_model(stdout, st.asis);
	printf("\n# predicted transition, ms; async: the scenario's devices (smallest: the fewest "
	       "flips to async from\n# all sync within %.0f %% of the best set)\n%-10s %6s %10s\n",
	       within_pct, "set", "async", "predicted");
	summary_set(sum.f, "all-sync", st.none, tune_predict(&model, st.none));
	summary_set(sum.f, "as-is", st.asis, tune_predict(&model, st.asis));
	summary_set(sum.f, "best", best.set, best.total);
	summary_set(sum.f, "smallest", small.set, small.total);
	summary_set(sum.f, "all-async", st.all, t_all);
	print_runs(sum.f);
	print_flips(&best, from);
	if (script.f)
		write_script(script.f, script_smallest ? &small : &best, st.asis,
			     script_smallest ? "smallest" : "best");
	ret = 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pmtune: writing the output failed\n");
		ret = -1;
	}
out:
	if (output_close(&sum, !ret))
		ret = -1;
	if (output_close(&script, !ret))
		ret = -1;
	free(best.set);
	free(best.flips);
	free(small.set);
	free(small.flips);
	free(st.asis);
	free(st.none);
	free(st.all);
	free(st.guest);
	free(st.safe);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_arg, "SCENARIO RECORDS...", doc,
					  NULL, NULL, NULL };
	int ret = 1;

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (scenario_read(scen_path, &rs.scen))
		return 1;
	if (run_set_read(&rs, run_paths, nruns))
		goto out;
	if (rs.runs[0].no_dpm) {
		fprintf(stderr, "pmtune: %s: recorded without the series' dpm_device events (a "
				"stock kernel): the model needs their queueing and waits; record "
				"on a kernel with the series\n",
			rs.runs[0].path);
		goto out;
	}
	if (tune_model_init(&model, &rs.scen, rs.names, rs.runs, rs.nruns, rs.real_clock,
			    rs.cpus, calib_set))
		goto free_model;
	if (!tune())
		ret = 0;
free_model:
	tune_model_free(&model);
out:
	run_set_free(&rs);
	return ret;
}
