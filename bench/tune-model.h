/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tune-model.h - pmtune's model of a system-sleep transition under a
 * given async opt-in set: per device phase, the time the PM core would
 * take with some devices async and the rest sync, from what measured
 * transitions of the same scenario showed (bench/README.md, "pmtune").
 *
 * Calibration (tune_model_init()):
 *   sync runs     each device's slot on the phase's thread (its end minus
 *                 the previous device's end: the PM core's work for it
 *                 and its callback), its callback time, the walk order,
 *                 the phase's tail after the last device, its CPU work;
 *   async runs    (those with the most async devices, or those whose
 *                 opt_in meta is @calib_set) per phase: c, the CPU work
 *                 an async device adds (CPU work over the sync runs' /
 *                 async devices), a, an async device's own non-callback
 *                 time on its worker (not counting waits), h, the
 *                 hand-off: from the later of the dependency done last
 *                 and the device's queueing to its callback, less that
 *                 own time, and h0, the same from the phase's start for a
 *                 device no dependency held.
 * Prediction for a set S (tune_predict()), per phase: the sync devices
 * run on the phase's thread in walk order, each after the previous one
 * and after its dependencies (+ h when it had to wait for one); an async
 * device starts h after its last dependency is done, h0 after the phase's
 * start when it has none (with 6.12's scheduling, in the suspend phases,
 * not before the walk reaches it) and takes its callback + a; path = the
 * last end + the tail.  CPU floor = the sync runs' CPU work + c per async
 * device (the virtual clock: one instruction clock for all vCPUs; the
 * real clock: / CPUs).  The phase's predicted time is max(path, floor);
 * prepare and complete keep their sync times (no async handling there).
 */
#ifndef TUNE_MODEL_H
#define TUNE_MODEL_H

#include "records.h"
#include "scenario-read.h"

struct tune_model {
	const struct scenario *scen;
	int n;				/* devices: names_count() */
	int legacy;			/* 6.12's scheduling (pm_async=2 runs) */
	int real_clock;
	long cpus;
	int *order[DPM_NR_PHASES];	/* walk order, device ids */
	int norder[DPM_NR_PHASES];
	double *slot[DPM_NR_PHASES];	/* ns, means over the sync runs */
	double *cb[DPM_NR_PHASES];
	double tail[DPM_NR_PHASES], t_sync[DPM_NR_PHASES], busy_sync[DPM_NR_PHASES];
	double c[DPM_NR_PHASES], a[DPM_NR_PHASES], h[DPM_NR_PHASES];
	double h0[DPM_NR_PHASES];	/* an ungated async device's start, from phase start */
	int have_cpu[DPM_NR_PHASES];	/* every run had CPU accounting there */
	int **deps[DPM_NR_PHASES];	/* scenario devices: deps_of(), -1 ended */
	const char *calib;		/* the async run calibrated from */
	/* prediction scratch; pred[dev]: what let dev start (-1: nothing) */
	double *fin;
	int *pred;
	int last[DPM_NR_PHASES];	/* the device done last, -1: none */
};

/* The phases whose devices may be async (suspend ... resume). */
static inline int tune_async_phase(int p)
{
	return p >= DPM_SUSPEND && p <= DPM_RESUME;
}

/*
 * Calibrate @m from @runs (@nruns, indexed; at least one sync run and one
 * async run with async devices, all of one scheduling) of scenario @s
 * with device names @nm: the async runs whose opt_in meta is @calib_set,
 * or (NULL) those with the most async devices.  0, or -1 with the cause
 * on stderr.
 */
int tune_model_init(struct tune_model *m, const struct scenario *s, const struct names *nm,
		    const struct transition *runs, int nruns, int real_clock, long cpus,
		    const char *calib_set);
void tune_model_free(struct tune_model *m);

/*
 * Predicted ns of phase @p with the devices @async[id] != 0 async; the
 * path and the floor into *@path, *@floor when not NULL.
 */
double tune_predict_phase(struct tune_model *m, int p, const unsigned char *async,
			  double *path, double *floor);

/*
 * Mark in @mark (names ids) the devices on phase @p's critical chain for
 * the set @async: from the device done last back through what let each
 * one start (a dependency, or the sync device before it on the phase's
 * thread).  Only devices on it can shorten the phase's path.
 */
void tune_mark_chain(struct tune_model *m, int p, const unsigned char *async,
		     unsigned char *mark);

/* Predicted ns of the whole transition (the eight phases). */
double tune_predict(struct tune_model *m, const unsigned char *async);

/* @t's devices that an async worker ran, into @async (names ids). */
void tune_async_set(const struct tune_model *m, const struct transition *t,
		    unsigned char *async);

#endif /* TUNE_MODEL_H */
