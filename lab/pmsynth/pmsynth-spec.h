/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmsynth-spec.h - a scenario as pmsynth-scenario.c parses it: the limits,
 * the callbacks, one device's spec.  Built into the module and, with
 * bench/kcompat.h standing in for the kernel headers, into the host tools'
 * scenario reader (bench/scenario-read.c), so both accept and refuse the
 * same scenarios with the same messages.
 */
#ifndef _PMSYNTH_SPEC_H
#define _PMSYNTH_SPEC_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/types.h>
#endif

#define PMSYNTH_MAX_DEVICES	4096
#define PMSYNTH_NAME_LEN	64
#define PMSYNTH_MAX_LAT_US	1000000		/* 1 s per callback */
#define PMSYNTH_MAX_AUTOSUSPEND_MS 60000
#define PMSYNTH_MAX_TEXT	(8 << 20)	/* scenario text, bytes */

/* Every callback of dev_pm_ops that pmsynth implements. */
enum pmsynth_phase {
	PS_PREPARE,
	PS_SUSPEND,
	PS_SUSPEND_LATE,
	PS_SUSPEND_NOIRQ,
	PS_RESUME_NOIRQ,
	PS_RESUME_EARLY,
	PS_RESUME,
	PS_COMPLETE,
	PS_RUNTIME_SUSPEND,
	PS_RUNTIME_RESUME,
	PS_RUNTIME_IDLE,
	PS_NR_PHASES,
};

#define PS_NR_SYSTEM	(PS_COMPLETE + 1)

enum pmsynth_mode {
	PM_MODE_SLEEP,		/* the callback waits (hardware): usleep_range */
	PM_MODE_SPIN,		/* the callback burns CPU: udelay */
};

enum pmsynth_fault_mode {
	PM_FAULT_OFF,
	PM_FAULT_ONCE,
	PM_FAULT_ALWAYS,
};

/* One device as a scenario describes it (parsed, validated, not created). */
struct pmsynth_spec {
	char name[PMSYNTH_NAME_LEN];
	int line;				/* line in the scenario text */
	int parent;				/* index, -1: none */
	int *masters;				/* indices: real pm_links */
	int nr_masters;
	int *oracle_masters;			/* indices: oracle-only deps */
	int nr_oracle_masters;
	bool async;
	bool deps_unknown;			/* deps=unknown: not all known */
	bool direct_complete;			/* ->prepare() returns 1 */
	bool driver;				/* callbacks from a bound driver */
	u32 driver_flags;			/* DPM_FLAG_* */
	int autosuspend_ms;			/* < 0: no autosuspend */
	u32 lat_us[PS_NR_PHASES];
	u8 mode[PS_NR_PHASES];
	int fault_err[PS_NR_PHASES];		/* negative errno or 0 */
	u8 fault_mode[PS_NR_PHASES];
};

struct pmsynth_scenario {
	struct pmsynth_spec *specs;
	int nr;
	u32 jitter_pct;
	u64 seed;
	int nr_links;
};

extern const char * const pmsynth_phase_names[PS_NR_PHASES];

/* pmsynth-scenario.c */
int pmsynth_parse(char *text, size_t len, struct pmsynth_scenario *sc,
		  char *err, size_t errlen);
void pmsynth_scenario_free(struct pmsynth_scenario *sc);
int pmsynth_phase_lookup(const char *name);

/*
 * Whether a fault would make the PM core retry forever: dpm_prepare()
 * tries a device's ->prepare() again as long as it returns -EAGAIN, so
 * -EAGAIN in prepare, every time, hangs the transition.
 */
static inline bool pmsynth_fault_loops(int ph, int err, u8 mode)
{
	return ph == PS_PREPARE && err == -EAGAIN && mode == PM_FAULT_ALWAYS;
}

#endif /* _PMSYNTH_SPEC_H */
