/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phase-parse.h - tracefs text traces of power:suspend_resume and
 * power:device_pm_callback_{start,end} read into per-set phase and device
 * callback times (phase-times).
 *
 * A set gathers the files that repeat one transition: each file is read
 * line by line by a reader (pp_reader_*), or whole from a buffer
 * (pp_read_buffer).  Every problem is returned as an error naming the
 * file, the line when there is one, and the cause; nothing exits and
 * nothing is kept in global state.  Each table has a fixed limit; input
 * beyond it is an error naming the limit.
 */
#ifndef PHASE_PARSE_H
#define PHASE_PARSE_H

#include <stddef.h>

#define PP_MAX_PHASES	64	/* distinct phases of one set */
#define PP_MAX_OPEN	4096	/* device callbacks open at once in one file */
#define PP_MAX_DEVS	8192	/* (device, phase) pairs of one set */
#define PP_NAME_LEN	96	/* phase and device names, with the NUL */
#define PP_ERR_LEN	512

struct pp_err {
	char msg[PP_ERR_LEN];	/* "FILE:LINE: cause" or "FILE: cause" */
};

struct pp_phase {
	char name[PP_NAME_LEN];	/* action[val], e.g. dpm_suspend[2] */
	int open;		/* begun and not ended in the current file */
	double begin;		/* when open: its begin timestamp, seconds */
	long begin_line;	/* when open: the line of its begin */
	double total;		/* summed over the set's files, seconds */
	long count;		/* completed begin/end pairs in the current file */
	long first_count;	/* the same in the set's first file */
};

struct pp_dev {			/* one device's callback time in one phase */
	char name[PP_NAME_LEN];
	int phase;		/* index in pp_set.phases */
	double total;		/* summed over the set's files, seconds */
	int next;		/* hash chain */
};

struct pp_set {
	struct pp_phase phases[PP_MAX_PHASES];
	int nphases;
	struct pp_dev *devs;	/* in order of first appearance */
	int ndevs, devs_cap;
	int *dev_hash;		/* chain heads, -1: empty */
	int nfiles;		/* files read without error */
};

struct pp_cb {			/* a device callback that started */
	char dev[PP_NAME_LEN];
	int pid;
	double start;
	int next;		/* hash chain, or free list */
};

struct pp_reader {		/* one file being read into a set */
	struct pp_set *set;
	const char *file;
	long lineno;
	char *line;		/* the current line, NUL-terminated */
	size_t line_cap;
	struct pp_cb *cbs;
	int ncbs;		/* callbacks open */
	int cbs_used, cbs_cap;	/* slots handed out, allocated */
	int cb_free;		/* free slot list, -1: none */
	int *cb_hash;		/* chain heads, -1: empty */
};

void pp_set_init(struct pp_set *s);
void pp_set_free(struct pp_set *s);

/* The index of phase @name in @s, or -1. */
int pp_find_phase(const struct pp_set *s, const char *name);

/*
 * Read @file into @s: pp_reader_init(), then pp_reader_line() for each of
 * its lines (@len bytes, with or without the newline), then
 * pp_reader_finish() (phases left open, no phase at all, or not the same
 * phases as the set's first file), then pp_reader_free() in any case.
 * Each returns 0, or -1 with @err filled.  After an error @s is only fit
 * for pp_set_free().
 */
void pp_reader_init(struct pp_reader *r, struct pp_set *s, const char *file);
int pp_reader_line(struct pp_reader *r, const char *line, size_t len, struct pp_err *err);
int pp_reader_finish(struct pp_reader *r, struct pp_err *err);
void pp_reader_free(struct pp_reader *r);

/* The whole of @file from @buf (@len bytes) into @s: 0, or -1 with @err. */
int pp_read_buffer(struct pp_set *s, const char *file, const char *buf, size_t len,
		   struct pp_err *err);

#endif
