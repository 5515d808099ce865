// SPDX-License-Identifier: GPL-2.0
/*
 * tune-model.c - pmtune's model of a transition under an async opt-in set;
 * see tune-model.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tune-model.h"

static const struct transition *sort_run;
static int sort_phase;

/* walk order: by the time the PM core began the device */
static int by_start(const void *a, const void *b)
{
	const struct dev_record *x = &sort_run->recs[sort_phase][*(const int *)a];
	const struct dev_record *y = &sort_run->recs[sort_phase][*(const int *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* @t's records of phase @p in walk order: indices into t->recs[p] */
static int *walk(const struct transition *t, int p)
{
	int *idx = malloc(sizeof(int) * (t->nrecs[p] + 1)), i;

	if (!idx)
		return NULL;
	for (i = 0; i < t->nrecs[p]; i++)
		idx[i] = i;
	sort_run = t;
	sort_phase = p;
	qsort(idx, t->nrecs[p], sizeof(int), by_start);
	return idx;
}

static int *list_add(int *list, int *n, int v)
{
	int *l = realloc(list, sizeof(int) * (*n + 2));

	if (!l) {
		free(list);
		return NULL;
	}
	l[(*n)++] = v;
	l[*n] = -1;
	return l;
}

/* deps[p][i]: children and slaves, or parent and masters, by phase */
static int build_deps(struct tune_model *m)
{
	const struct scenario *s = m->scen;
	int **up = calloc(s->n + 1, sizeof(int *)), **down = calloc(s->n + 1, sizeof(int *));
	int *nup = calloc(s->n + 1, sizeof(int)), *ndown = calloc(s->n + 1, sizeof(int));
	int i, k, p, err = !up || !down || !nup || !ndown;

	for (i = 0; i < s->n && !err; i++) {
		up[i] = list_add(NULL, &nup[i], -1);
		down[i] = list_add(NULL, &ndown[i], -1);
		err = !up[i] || !down[i];
		nup[i] = 0;
		ndown[i] = 0;
	}
	for (i = 0; i < s->n && !err; i++)
		for (k = -1; k < s->nodes[i].nmasters && !err; k++) {
			int sup = k < 0 ? s->nodes[i].parent : s->nodes[i].masters[k];

			if (sup < 0)
				continue;
			up[i] = list_add(up[i], &nup[i], sup);
			down[sup] = list_add(down[sup], &ndown[sup], i);
			err = !up[i] || !down[sup];
		}
	free(nup);
	free(ndown);
	for (p = 0; p < DPM_NR_PHASES; p++)
		m->deps[p] = dpm_phase_children_first(p) ? down : up;
	if (err)
		fprintf(stderr, "pmtune: out of memory\n");
	return err ? -1 : 0;
}

/* the sync runs: walk order, slots, callbacks, tails, times, CPU work */
static int calibrate_sync(struct tune_model *m, const struct transition *runs, int nruns)
{
	int r, p, i, nsync = 0, first = -1;

	for (r = 0; r < nruns; r++)
		if (!runs[r].async && first < 0)
			first = r;
	for (p = 0; p < DPM_NR_PHASES; p++) {
		m->slot[p] = calloc(m->n + 1, sizeof(double));
		m->cb[p] = calloc(m->n + 1, sizeof(double));
		m->order[p] = walk(&runs[first], p);
		if (!m->slot[p] || !m->cb[p] || !m->order[p])
			goto nomem;
		m->norder[p] = runs[first].nrecs[p];
		for (i = 0; i < m->norder[p]; i++)
			m->order[p][i] = runs[first].recs[p][m->order[p][i]].dev;
	}
	for (r = 0; r < nruns; r++) {
		const struct transition *t = &runs[r];

		if (t->async)
			continue;
		nsync++;
		for (p = 0; p < DPM_NR_PHASES; p++) {
			int *idx = walk(t, p);
			long long prev = t->phase_start[p];

			if (!idx)
				goto nomem;
			for (i = 0; i < t->nrecs[p]; i++) {
				const struct dev_record *d = &t->recs[p][idx[i]];

				m->slot[p][d->dev] += d->end > prev ? d->end - prev : 0;
				m->cb[p][d->dev] += d->cb_ns;
				if (d->end > prev)
					prev = d->end;
			}
			free(idx);
			m->tail[p] += t->phase_end[p] > prev ? t->phase_end[p] - prev : 0;
			m->t_sync[p] += t->phase_end[p] - t->phase_start[p];
			m->have_cpu[p] &= t->cpu[p].ncpus > 0;
			if (t->cpu[p].ncpus > 0)
				m->busy_sync[p] += transition_work(t, p, m->real_clock);
		}
	}
	for (p = 0; p < DPM_NR_PHASES; p++) {
		for (i = 0; i < m->n; i++) {
			m->slot[p][i] /= nsync;
			m->cb[p][i] /= nsync;
		}
		m->tail[p] /= nsync;
		m->t_sync[p] /= nsync;
		m->busy_sync[p] /= nsync;
	}
	return 0;
nomem:
	fprintf(stderr, "pmtune: out of memory\n");
	return -1;
}

static long long cb_begin(const struct dev_record *r)
{
	return r->cb_start ? r->cb_start : r->end;
}

/* @r's time on its worker outside its callback and its waits, ns */
static double own_time(const struct dev_record *r, double *pre)
{
	long long waited = 0, before;
	int k;

	for (k = 0; k < r->nwaits; k++)
		waited += r->wait_ns[k];
	before = cb_begin(r) - r->start - waited;
	*pre = before > 0 ? before : 0;
	before = r->end - r->start - r->cb_ns - waited;
	return before > 0 ? before : 0;
}

static int async_count(const struct transition *t)
{
	int i, n = 0;

	for (i = 0; i < t->nrecs[DPM_SUSPEND]; i++)
		n += t->recs[DPM_SUSPEND][i].async;
	return n;
}

/* c, a, h and h0 of phase @p from the async run @t (@nuse: runs averaged) */
static void calibrate_async(struct tune_model *m, const struct transition *t, int p, int nuse)
{
	double a = 0, h = 0, h0 = 0, pre, gap;
	int i, na = 0, nh = 0, nh0 = 0;
	const int *d;

	for (i = 0; i < t->nrecs[p]; i++) {
		const struct dev_record *r = &t->recs[p][i];
		long long last = 0;

		if (!r->async)
			continue;
		na++;
		a += own_time(r, &pre);
		if (r->dev >= m->scen->n)
			continue;
		for (d = m->deps[p][r->dev]; *d >= 0; d++) {
			const struct dev_record *q = transition_rec(t, p, *d);

			if (q && q->end > last)
				last = q->end;
		}
		/* from when it could go: its dependency done, or its queueing */
		if (last > t->phase_start[p]) {
			gap = cb_begin(r) - (r->queued > last ? r->queued : last) - pre;
			h += gap > 0 ? gap : 0;
			nh++;
		} else {
			last = r->queued > t->phase_start[p] ? r->queued : t->phase_start[p];
			gap = cb_begin(r) - last - pre;
			h0 += gap > 0 ? gap : 0;
			nh0++;
		}
	}
	if (!na)
		return;
	m->a[p] += a / na / nuse;
	m->h[p] += (nh ? h / nh : 0) / nuse;
	m->h0[p] += (nh0 ? h0 / nh0 : 0) / nuse;
	if (m->have_cpu[p] && t->cpu[p].ncpus > 0) {
		double c = (transition_work(t, p, m->real_clock) - m->busy_sync[p]) / na;

		m->c[p] += (c > 0 ? c : 0) / nuse;
	}
}

/* whether async run @t is one to calibrate from */
static int calib_run(const struct transition *t, const char *calib_set, int most)
{
	const char *opt = transition_meta(t, "opt_in");

	if (!t->async)
		return 0;
	if (calib_set)
		return opt && !strcmp(opt, calib_set) && async_count(t) > 0;
	return async_count(t) == most;
}

int tune_model_init(struct tune_model *m, const struct scenario *s, const struct names *nm,
		    const struct transition *runs, int nruns, int real_clock, long cpus,
		    const char *calib_set)
{
	int r, p, best = -1, most = 0, nuse = 0, nsync = 0;

	memset(m, 0, sizeof(*m));
	m->scen = s;
	m->n = names_count(nm);
	m->real_clock = real_clock;
	m->cpus = cpus;
	for (p = 0; p < DPM_NR_PHASES; p++)
		m->have_cpu[p] = 1;
	for (r = 0; r < nruns; r++) {
		nsync += !runs[r].async;
		if (runs[r].async && async_count(&runs[r]) > most) {
			most = async_count(&runs[r]);
			best = r;
		}
	}
	if (calib_set)
		for (best = -1, r = 0; r < nruns && best < 0; r++)
			if (calib_run(&runs[r], calib_set, most))
				best = r;
	if (!nsync || best < 0) {
		if (calib_set && nsync)
			fprintf(stderr, "pmtune: no async transition with async devices has opt_in "
					"'%s' to calibrate from\n", calib_set);
		else
			fprintf(stderr, "pmtune: need a sync transition and an async one with "
					"async devices (got %d sync, and %s): the model is calibrated "
					"from both\n", nsync,
				best < 0 ? "no async device in any async one" : "some async");
		return -1;
	}
	m->legacy = runs[best].mode && !strcmp(runs[best].mode, "legacy");
	m->calib = runs[best].path;
	m->fin = calloc(m->n + 1, sizeof(double));
	m->pred = calloc(m->n + 1, sizeof(int));
	if (!m->fin || !m->pred || build_deps(m) || calibrate_sync(m, runs, nruns))
		return -1;
	for (r = 0; r < nruns; r++)
		nuse += calib_run(&runs[r], calib_set, most);
	for (r = 0; r < nruns; r++)
		if (calib_run(&runs[r], calib_set, most))
			for (p = 0; p < DPM_NR_PHASES; p++)
				if (tune_async_phase(p))
					calibrate_async(m, &runs[r], p, nuse);
	return 0;
}

void tune_model_free(struct tune_model *m)
{
	int p, i;

	for (p = 0; p < DPM_NR_PHASES; p++) {
		free(m->order[p]);
		free(m->slot[p]);
		free(m->cb[p]);
	}
	/* deps[] holds two tables, up and down: free each once */
	for (p = 0; p < DPM_NR_PHASES && m->deps[p]; p++) {
		int dup = 0, q;

		for (q = 0; q < p; q++)
			dup |= m->deps[q] == m->deps[p];
		for (i = 0; !dup && i < m->scen->n; i++)
			free(m->deps[p][i]);
		if (!dup)
			free(m->deps[p]);
	}
	free(m->fin);
	free(m->pred);
}

double tune_predict_phase(struct tune_model *m, int p, const unsigned char *async,
			  double *path, double *floor)
{
	int suspend_side = dpm_phase_children_first(p), k, nasync = 0, prev_sync = -1;
	double main_t = 0, last = 0, fl = 0, pa;
	const int *d;

	m->last[p] = -1;
	if (!tune_async_phase(p)) {
		if (path)
			*path = m->t_sync[p];
		if (floor)
			*floor = 0;
		return m->t_sync[p];
	}
	for (k = 0; k < m->norder[p]; k++)
		m->fin[m->order[p][k]] = 0;
	for (k = 0; k < m->norder[p]; k++) {
		int dev = m->order[p][k], gate = -1;
		double ready = 0, start;

		if (dev < m->scen->n)
			for (d = m->deps[p][dev]; *d >= 0; d++)
				if (m->fin[*d] > ready) {
					ready = m->fin[*d];
					gate = *d;
				}
		if (async[dev]) {
			start = gate < 0 ? m->h0[p] : ready + m->h[p];
			if (m->legacy && suspend_side && main_t + m->h[p] > start) {
				start = main_t + m->h[p];	/* queued when the walk got there */
				gate = prev_sync;
			}
			m->fin[dev] = start + m->cb[p][dev] + m->a[p];
			nasync++;
		} else {
			start = ready + m->h[p];
			if (ready <= main_t) {
				start = main_t;
				gate = prev_sync;
			}
			m->fin[dev] = start + m->slot[p][dev];
			main_t = m->fin[dev];
			prev_sync = dev;
		}
		m->pred[dev] = gate;
		if (m->fin[dev] > last) {
			last = m->fin[dev];
			m->last[p] = dev;
		}
	}
	pa = last + m->tail[p];
	if (m->have_cpu[p])
		fl = (m->busy_sync[p] + nasync * m->c[p]) / (m->real_clock ? m->cpus : 1);
	if (path)
		*path = pa;
	if (floor)
		*floor = fl;
	return pa > fl ? pa : fl;
}

void tune_mark_chain(struct tune_model *m, int p, const unsigned char *async,
		     unsigned char *mark)
{
	int dev, steps = 0;

	tune_predict_phase(m, p, async, NULL, NULL);
	for (dev = m->last[p]; dev >= 0 && steps++ <= m->n; dev = m->pred[dev])
		mark[dev] = 1;
}

double tune_predict(struct tune_model *m, const unsigned char *async)
{
	double t = 0;
	int p;

	for (p = 0; p < DPM_NR_PHASES; p++)
		t += tune_predict_phase(m, p, async, NULL, NULL);
	return t;
}

void tune_async_set(const struct tune_model *m, const struct transition *t,
		    unsigned char *async)
{
	int p, i;

	memset(async, 0, m->n);
	for (p = 0; p < DPM_NR_PHASES; p++)
		for (i = 0; i < t->nrecs[p]; i++)
			if (t->recs[p][i].async)
				async[t->recs[p][i].dev] = 1;
}
