/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario-model.h - what the scenario writers (scengen, dt2scen,
 * sysfs2scen) share: the @defaults line of the documented latency model
 * and a name-uniquifier.  The format itself is documented in
 * bench/scenarios/README.md and parsed by lab/pmsynth.
 */
#ifndef SCENARIO_MODEL_H
#define SCENARIO_MODEL_H

#include <stdio.h>
#include <string.h>

#define SCEN_NAME_LEN 64

/*
 * The latency model for imported devices (us per callback): the slow,
 * hardware-bound work sits in suspend/resume; late/early and noirq are
 * short register saves; prepare/complete cost nothing; runtime PM pays
 * half of a system transition.  Seeded jitter of +-50%.
 */
#define SCEN_IMPORT_DEFAULTS \
	"lat=prepare:0,suspend:1000,suspend_late:200,suspend_noirq:100," \
	"resume_noirq:100,resume_early:200,resume:1000,complete:0," \
	"runtime_suspend:500,runtime_resume:500,runtime_idle:0 " \
	"mode=all:sleep async=1 jitter=50"

/*
 * Make @name a valid pmsynth device name in place: characters outside
 * printable ASCII and any of "/,=#" become '_', and it is cut to fit.
 */
static inline void scen_sanitize(char *name)
{
	char *p;

	name[SCEN_NAME_LEN - 8] = '\0';	/* room for a ".NNNNN" suffix */
	for (p = name; *p; p++)
		if (*p <= ' ' || *p > '~' || strchr("/,=#", *p))
			*p = '_';
	if (name[0] == '@' || name[0] == '.' || !name[0])
		name[0] = '_';
}

#endif /* SCENARIO_MODEL_H */
