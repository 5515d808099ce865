/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpm-phase.h - the eight system-sleep device phases, in transition order,
 * as pmtrace's records name them ("phase" of a device record; the phase
 * record of the whole phase is "dpm_" + name), and which way each orders
 * devices.
 */
#ifndef DPM_PHASE_H
#define DPM_PHASE_H

#include <string.h>

enum dpm_phase {
	DPM_PREPARE, DPM_SUSPEND, DPM_SUSPEND_LATE, DPM_SUSPEND_NOIRQ,
	DPM_RESUME_NOIRQ, DPM_RESUME_EARLY, DPM_RESUME, DPM_COMPLETE,
	DPM_NR_PHASES,
};

static const char * const dpm_phase_names[DPM_NR_PHASES] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

/* The phase called @name, or -1. */
static inline int dpm_phase_of(const char *name)
{
	int p;

	for (p = 0; p < DPM_NR_PHASES; p++)
		if (!strcmp(dpm_phase_names[p], name))
			return p;
	return -1;
}

/*
 * The PM core's order within a phase: in the suspend-side phases and in
 * complete a device goes after its children and consumers (pm_link
 * slaves); in prepare and the resume-side phases after its parent and
 * suppliers (masters).
 */
static inline int dpm_phase_children_first(int p)
{
	return p == DPM_SUSPEND || p == DPM_SUSPEND_LATE ||
	       p == DPM_SUSPEND_NOIRQ || p == DPM_COMPLETE;
}

#endif /* DPM_PHASE_H */
