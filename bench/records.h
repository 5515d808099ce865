/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records.h - one transition's pmtrace records (bpf/README.md) read and
 * validated: a begin record with the format and the run's metadata, phase,
 * device and runtime PM records, an end record whose count matches.  Device names
 * become small integers shared by every file of one analysis (struct
 * names), so the scenario's devices can be registered first and keep
 * their node index.
 */
#ifndef RECORDS_H
#define RECORDS_H

#include <stdio.h>
#include "dpm-phase.h"

/*
 * The largest time (ns, 36 years) or count a record may hold: the sum or
 * double of two such values fits in a long long, so the reader's and the
 * analyses' sums of two cannot overflow; longer sums are checked or taken
 * in double.
 */
#define RECORDS_MAX_VALUE	(1LL << 60)
/* distinct device names in one analysis */
#define RECORDS_MAX_NAMES	(1 << 20)

struct dev_record {
	int dev;			/* names_id() of the device */
	int async, tid;
	long long line;			/* in its file, for messages */
	long long queued, start, cb_start, cb_ns, end;
	long long switches;		/* its thread's, start to done */
	int *waits, nwaits;		/* devices it blocked on */
	long long *wait_ns;		/* how long, each */
	char *parent;			/* its parent's name (format 4), or NULL */
};

/* runtime PM records (pmtrace's rpm_callback and rpm_request) */
enum rpm_cb_kind { RPM_CB_IDLE, RPM_CB_SUSPEND, RPM_CB_RESUME };
enum rpm_req_what { RPM_REQ_QUEUED, RPM_REQ_REPLACED, RPM_REQ_RUN, RPM_REQ_CANCELLED };

struct rpm_record {
	int dev;			/* names_id() of the device */
	int is_request;			/* 0: a callback, 1: a request event */
	int kind;			/* callback: enum rpm_cb_kind; request: enum rpm_req_what */
	int request;			/* request: none idle suspend autosuspend resume (0..4) */
	int ret;			/* callback: what it returned */
	long long line;			/* in its file, for messages */
	long long start, end;		/* callback (start 0: not seen); a request: its ts */
};

/* a phase's CPU accounting (pmtrace's phase record), when it has one */
struct cpu_times {
	int ncpus;			/* 0: the record has none */
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
	int nrecs[DPM_NR_PHASES], caprecs[DPM_NR_PHASES];	/* used, allocated */
	int *index[DPM_NR_PHASES];	/* names_id -> recs[] index or -1 */
	long long records;		/* lines between begin and end */
	struct rpm_record *rpm;		/* in file order */
	int nrpm, caprpm;
	int runtime_only;		/* mode "runtime": no system transition */
	/*
	 * The begin record's "absent": the kernel had no dpm_device events
	 * (device records are callbacks: no queued, start, waits, outcome; a
	 * device without a callback has none), no rpm events (no rpm records)
	 */
	int no_dpm, no_rpm;
	int format4;			/* pmtrace-records-4: "absent", "parent" */
	void *meta;			/* the begin record's meta (json-c), or NULL */
};

/* Device names -> ids; one table per analysis, shared by its files. */
struct names;

struct names *names_new(void);
void names_free(struct names *nm);
/* The id of @name; a new one if @create, else -1 when unknown; -1 when full. */
int names_id(struct names *nm, const char *name, int create);
const char *names_get(const struct names *nm, int id);
int names_count(const struct names *nm);
/*
 * dev_name() is unique on a bus, not system-wide: a name's second device
 * in one phase of one file is recorded as "NAME#2", the third "NAME#3"...
 * The id of @name's second device, or -1 when there was none.
 */
int names_twin(struct names *nm, const char *name);

/*
 * Read @path into @t, its names into @nm.  Returns 0, or -1 after printing
 * "PATH[:LINE]: cause" to stderr (not a records file, truncated, events
 * dropped, a record with a missing or out-of-range field - named - or out
 * of order, a duplicated record, a missing phase).
 */
int transition_read(struct names *nm, const char *path, struct transition *t);

/* The same from the open stream @f, named @path in messages. */
int transition_read_stream(struct names *nm, FILE *f, const char *path, struct transition *t);

/*
 * A recording in mode "runtime" (pmtrace -m mode=runtime) is read without
 * a system transition: its rpm records alone.  Value of the begin record's
 * meta @key, or NULL.
 */
const char *transition_meta(const struct transition *t, const char *key);

/*
 * Build @t's index[] once every file is read (names_count() is final).
 * -1 (and a message) when a device has two records in one phase.
 */
int transition_index(const struct names *nm, struct transition *t);

/* @t's record of device @dev in phase @p, or NULL. */
static inline const struct dev_record *transition_rec(const struct transition *t, int p,
						      int dev)
{
	int i = t->index[p][dev];

	return i < 0 ? 0 : &t->recs[p][i];
}

/*
 * The CPU work of phase @p in @t, ns: on the virtual clock (@real_clock
 * 0), the time some vCPU was busy (every vCPU's instructions advance the
 * one clock: that time is the instructions executed); on the real clock,
 * the busy time summed over the CPUs.  Only when t->cpu[p].ncpus > 0.
 */
double transition_work(const struct transition *t, int p, int real_clock);

void transition_free(struct transition *t);

#endif /* RECORDS_H */
