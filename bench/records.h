/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records.h - one transition's pmtrace records (bpf/README.md) read and
 * validated: a begin record with the format and the run's metadata, phase
 * and device records, an end record whose count matches.  Device names
 * become small integers shared by every file read (names_id()), so the
 * scenario's devices can be registered first and keep their node index.
 */
#ifndef RECORDS_H
#define RECORDS_H

#include "dpm-phase.h"

struct dev_record {
	int dev;			/* names_id() of the device */
	int async, error, tid;
	long long queued, start, cb_start, cb_ns, end;
	long long switches;		/* its thread's, start to done */
	int *waits, nwaits;		/* devices it blocked on */
};

/* a phase's CPU accounting (pmtrace's phase record), when it has one */
struct cpu_times {
	int ncpus;			/* 0: the record has none */
	int unknown;			/* CPUs without a known state */
	long long busy_ns;		/* summed over CPUs */
	long long idle_ns;		/* summed over CPUs */
	long long all_idle_ns;		/* every CPU idle at once */
};

struct transition {
	char *path;
	char *scenario, *sha256, *mode;	/* begin record's meta (or NULL) */
	char *clock;			/* "virtual" or "real" (or NULL) */
	long long devices, links, cpus;	/* -1 when absent */
	int async;			/* mode is "async" or "legacy" */
	long long phase_start[DPM_NR_PHASES], phase_end[DPM_NR_PHASES];
	struct cpu_times cpu[DPM_NR_PHASES];
	struct dev_record *recs[DPM_NR_PHASES];
	int nrecs[DPM_NR_PHASES];
	int *index[DPM_NR_PHASES];	/* names_id -> recs[] index or -1 */
	long long records;		/* lines between begin and end */
};

/* The id of @name; a new one if @create, else -1 when unknown. */
int names_id(const char *name, int create);
const char *names_get(int id);
int names_count(void);

/*
 * Read @path into @t.  Returns 0, or -1 after printing "PATH: cause" to
 * stderr (not a records file, truncated, events dropped, a malformed or
 * duplicated record, a missing phase).
 */
int transition_read(const char *path, struct transition *t);

/*
 * Build @t's index[] once every file is read (names_count() is final).
 * -1 (and a message) when a device has two records in one phase.
 */
int transition_index(struct transition *t);

/* @t's record of device @dev in phase @p, or NULL. */
static inline const struct dev_record *transition_rec(const struct transition *t, int p, int dev)
{
	int i = t->index[p][dev];

	return i < 0 ? 0 : &t->recs[p][i];
}

void transition_free(struct transition *t);

#endif /* RECORDS_H */
