/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmsynth - synthetic PM-aware devices whose dependencies come from pm_links
 * (device links), with an ordering oracle.  See README.md.
 */
#ifndef _PMSYNTH_H
#define _PMSYNTH_H

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "pmsynth-spec.h"

struct pmsynth_dev;
struct task_struct;

/* Runtime PM as a system-sleep callback found it (the "rpm_seen" file). */
struct pmsynth_rpm_seen {
	int usage;
	u8 status;				/* enum rpm_status */
	bool enabled;
	bool valid;				/* the callback ran */
};

/* A device of the live population. */
struct pmsynth_dev {
	struct device dev;
	int index;
	struct pmsynth_spec spec;		/* owns masters arrays */
	struct pmsynth_dev *parent;
	struct pmsynth_dev **masters;		/* real and oracle-only */
	int nr_masters;				/* all of them */
	struct pmsynth_dev **slaves;		/* reverse of masters */
	int nr_slaves;
	struct pmsynth_dev **children;
	int nr_children;
	struct device_link **links;
	int nr_links;

	/*
	 * Fault injection, updated under pmsynth_fault_lock: a negative
	 * errno, or PMSYNTH_FAULT_WAKEUP (the callback signals a wakeup event).
	 */
	int fault_err[PS_NR_PHASES];
	u8 fault_mode[PS_NR_PHASES];

	/*
	 * Set by control commands while no transition runs: in @wait_phase
	 * the callback waits for @wait_for with device_pm_wait_for_dev();
	 * with @force_runtime, suspend_late and resume_early go through
	 * pm_runtime_force_suspend/resume().
	 */
	struct pmsynth_dev *wait_for;
	int wait_phase;
	bool force_runtime;

	/*
	 * Set by "rpm" control commands (pmsynth-rpm.c): @idle_busy makes
	 * ->runtime_idle() return -EBUSY; @rpm_disabled, under hold_lock,
	 * says the device's runtime PM is disabled by "rpm DEV disable".
	 */
	bool idle_busy;
	bool rpm_disabled;

	/*
	 * Topology changes in the middle of a phase, set by control commands
	 * while no transition runs and taken (once) by the callback of
	 * @unlink_phase (delete this device's pm_links) or @unreg_phase
	 * (device_del() @unreg_other).  A device whose links or registration
	 * went away is @detached: the oracle no longer judges it or its
	 * relations, status does not count it.
	 */
	int unlink_phase;
	int unreg_phase;
	struct pmsynth_dev *unreg_other;
	bool detached;

	/* oracle state, see pmsynth-oracle.c */
	int level;				/* system sleep depth, 0..4 */
	bool rt_up;				/* runtime: fully resumed */
	bool rt_live;				/* runtime: not fully suspended */

	atomic_t calls[PS_NR_PHASES];
	struct pmsynth_rpm_seen rpm_seen[PS_NR_SYSTEM];

	/*
	 * User-space usage references ("hold"), and whether the device is
	 * being removed: under hold_lock, not pmsynth_mutex, which unload
	 * holds across device_unregister(), itself waiting for attribute
	 * writes in flight.
	 */
	struct mutex hold_lock;
	int holds;
	bool gone;

	/*
	 * The churn thread (pmsynth-churn.c): @churn set and cleared under
	 * pmsynth_mutex; @churn_paused by DEV's own callbacks; @churn_lock
	 * held by the thread around one get/put cycle.
	 */
	struct task_struct *churn;
	struct mutex churn_lock;		/* the thread, around one cycle */
	wait_queue_head_t churn_wq;
	bool churn_paused;
	bool churn_own_autosuspend;		/* the thread set it up */
	int churn_saved_delay;
	atomic_t churn_cycles, churn_in_transition, churn_errors;
};

static inline struct pmsynth_dev *to_pmsynth_dev(struct device *dev)
{
	return container_of(dev, struct pmsynth_dev, dev);
}

/* a fault_err value: the callback signals a wakeup event, returns 0 */
#define PMSYNTH_FAULT_WAKEUP	1

extern spinlock_t pmsynth_fault_lock;
extern int pmsynth_jitter_round;	/* -1: the call count draws the jitter */

/* pmsynth-main.c: the population, under pmsynth_mutex */
#define PMSYNTH_ERROR_LEN	256
extern struct mutex pmsynth_mutex;
extern char pmsynth_error[PMSYNTH_ERROR_LEN];	/* the last error, "" if none */
struct pmsynth_dev *pmsynth_find(const char *name);
int pmsynth_load(void);
void pmsynth_depopulate(void);
void pmsynth_topology_change(struct pmsynth_dev *sd, enum pmsynth_phase ph);

/* pmsynth-control.c */
extern const struct file_operations pmsynth_control_fops;

/* pmsynth-rpm.c, under pmsynth_mutex */
extern int pmsynth_rpm_result;
int pmsynth_rpm_cmd(char *args);

/* pmsynth-churn.c */
int pmsynth_churn_cmd(struct pmsynth_dev *sd, bool on);
void pmsynth_churn_stop(struct pmsynth_dev *sd);
void pmsynth_churn_pause(struct pmsynth_dev *sd);
void pmsynth_churn_go(struct pmsynth_dev *sd);

/* pmsynth-oracle.c */
void pmsynth_oracle_rt_set(struct pmsynth_dev *sd, bool active);
void pmsynth_oracle_enter(struct pmsynth_dev *sd, enum pmsynth_phase ph);
void pmsynth_oracle_leave(struct pmsynth_dev *sd, enum pmsynth_phase ph,
			  int error);
void pmsynth_oracle_reset(void);
int pmsynth_oracle_show(struct seq_file *m, void *unused);

#endif /* _PMSYNTH_H */
