/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmtrace-records.h - one recording (struct trace) and what pmtrace.c
 * calls of pmtrace-records.c to fill it with events and write its records.
 */
#ifndef PMTRACE_RECORDS_H
#define PMTRACE_RECORDS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "pmtrace.h"

struct ksyms;

/* a step of a transition, between its begin and its end event */
struct step {
	char name[PMTRACE_NAME_LEN];	/* the key: name and value */
	int val;
	unsigned long long begin;	/* its open begin's time; 0: none */
	size_t snap;			/* that begin's CPU accounting (snaps[]) */
};

/* a device's name, from the names map, sorted by device pointer */
struct dev_name {
	unsigned long long dev;
	char name[PMTRACE_NAME_LEN];
	char parent[PMTRACE_NAME_LEN];	/* "" without one */
};

/*
 * Events as the per-CPU ring buffers deliver them: each CPU's in order,
 * the CPUs' one after the other.  They are kept and sorted by time before
 * any record is made (a device is queued on one CPU and runs on another).
 */
struct stamped {
	struct pmtrace_event e;
	unsigned long long seq;		/* arrival: keeps a CPU's order on ties */
};

/* one recording: the events read, and the records made of them */
struct trace {
	FILE *out;
	long long records;
	struct stamped *evs;
	size_t nevs, cap_evs, max_events;
	bool full;			/* max_events reached */
	/* the phase events' CPU accounting, in arrival order (their e.dev) */
	struct pmtrace_phase_event *snaps;
	size_t nsnaps, cap_snaps;
	bool cpu_times;			/* the snapshots can be trusted */
	unsigned long long lost;	/* events pmtrace could not use */
	struct dev_name *dev_names;
	size_t ndev_names;
	void *open_recs;		/* struct dev_rec, by device and phase */
	struct step *steps;
	size_t nsteps, max_steps;
	void *step_tree;		/* struct step, by name and value */
	unsigned long long steps_dropped;	/* phase events without a step */
	void *cb_threads;		/* struct cb_thread, by tid */
	long accounting_errors;		/* phase records without CPU times */
	long unknown_phases;		/* phase records with CPUs of unknown state */
	struct ksyms *ksyms;		/* read at the first callback */
	/* the kernel lacks (or pmtrace ignores) the dpm_device, rpm events */
	bool no_dpm, no_rpm;
};

/**
 * write_begin() - write the first record ("begin": the format, @meta and
 * the fields the kernel's events cannot fill, "absent")
 * @t: the recording, its output open, no_dpm and no_rpm set
 * @meta: the -m KEY=VALUE pairs, an object; the record takes a reference
 */
void write_begin(struct trace *t, json_object *meta);

/**
 * write_trailer() - write the last record: "end", or "incomplete" with @why
 * @t: the recording, its records all written
 * @dropped: the events dropped, from every cause
 * @why: why the records are incomplete; NULL when they are not
 */
void write_trailer(struct trace *t, unsigned long long dropped, const char *why);

/**
 * on_sample() - keep one ring buffer sample in @ctx (ring_buffer_sample_fn)
 * @ctx: the struct trace the events go to
 * @data: a struct pmtrace_event, a struct pmtrace_phase_event for phase events
 * @size: its size; a short one is counted in t->lost
 *
 * Return: 0, or -ENOMEM or -ENOBUFS (--max-events reached), which end the read.
 */
int on_sample(void *ctx, void *data, size_t size);

/**
 * by_time() - qsort order of struct stamped: by time, then by arrival
 */
int by_time(const void *a, const void *b);

/**
 * handle() - turn one event into records, the events taken in time order
 * @t: the recording, its device names read (t->dev_names)
 * @e: the event; an unknown kind is counted in t->lost
 */
void handle(struct trace *t, const struct pmtrace_event *e);

/**
 * by_dev() - qsort and bsearch order of struct dev_name: by device pointer
 */
int by_dev(const void *a, const void *b);

/**
 * free_rec() - free an open device record (a t->open_recs node, for tdestroy)
 */
void free_rec(void *p);

/**
 * free_cb_thread() - free a thread's open callbacks (a t->cb_threads node, for tdestroy)
 */
void free_cb_thread(void *p);

#endif /* PMTRACE_RECORDS_H */
