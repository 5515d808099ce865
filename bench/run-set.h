/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-set.h - the records files of one analysis (critpath, pmtune) read
 * against the scenario they were recorded with: each must name the
 * scenario's sha256, hold the devices and pm_links it has and a record of
 * every scenario device in every phase; one async mode among them (the
 * series' "async" or 6.12's "legacy"); CPUs and clock from the records
 * unless given; sync and async transitions both present.
 */
#ifndef RUN_SET_H
#define RUN_SET_H

#include "records.h"
#include "scenario-read.h"

#define RUN_SET_MAX 256

struct run_set {
	const char *tool;		/* names the tool in messages */
	struct scenario scen;		/* read by the caller first */
	struct names *names;
	struct transition runs[RUN_SET_MAX];
	int nruns, nsync, nasync;
	const char *async_mode;		/* "async" or "legacy" */
	long cpus;			/* -1: from the records */
	int real_clock;			/* 1 real, 0 virtual, -1: from the records */
};

/*
 * Read the @n (<= RUN_SET_MAX) records files @paths into @rs, whose tool,
 * scen, cpus and real_clock are set.  0, or -1 with the cause on stderr.
 */
int run_set_read(struct run_set *rs, const char *const *paths, int n);

/* Free the runs, the names and the scenario. */
void run_set_free(struct run_set *rs);

#endif /* RUN_SET_H */
