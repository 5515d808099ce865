// SPDX-License-Identifier: GPL-2.0
/*
 * pmsynth-churn.c - runtime PM activity in the middle of system transitions.
 *
 * "churn DEV on" starts a kernel thread for DEV that takes and drops a
 * runtime usage reference over and over, as a driver doing I/O would:
 * pm_runtime_get_sync(), a short busy period, pm_runtime_mark_last_busy(),
 * pm_runtime_put_autosuspend(), then a pause longer than DEV's autosuspend
 * delay (1 ms, set for the thread's time when DEV has none), so that DEV
 * runtime-suspends between cycles while pm_wq runs.  The thread is not
 * freezable: it goes on while the PM core walks the devices' phases.  From
 * DEV's ->prepare() to its ->complete() the PM core holds a usage reference
 * and pm_wq is frozen, so there a cycle does at most one real runtime
 * resume (DEV was runtime-suspended at ->prepare(): it and its parent and
 * suppliers resume in the middle of the phase, the others' callbacks
 * running beside it); the rest take the fast path.  Like a driver stopping
 * its I/O, DEV's own ->suspend() (->freeze(), ->poweroff()) pauses the
 * thread first, after its current cycle, and lets it go on if the callback
 * fails; ->resume() (->thaw(), ->restore()) and ->complete(), after a
 * failed transition, let it go on.  DEV's "churn" file: the cycles, those
 * made inside a transition (DEV prepared, not suspended), and errors: a
 * runtime resume that failed or a cycle while DEV was system-suspended
 * (the pause not holding).  A device that may take the direct_complete
 * path is refused: its runtime PM is off from the phase its ->suspend()
 * would have run in, and nothing pauses the thread.
 *
 * Locking: starting and stopping run under pmsynth_mutex (control
 * commands, unloading).  sd->churn_lock is held by the thread around one
 * cycle and taken by the pausing callback to wait for that cycle to end;
 * the callback never holds it while the thread waits for it to go on.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/pm_runtime.h>
#include "pmsynth.h"

static int churn_thread(void *data)
{
	struct pmsynth_dev *sd = data;

	while (!kthread_should_stop()) {
		int level;

		/* idle: a device removed in the middle of a phase leaves it here */
		wait_event_idle(sd->churn_wq, !READ_ONCE(sd->churn_paused) ||
				kthread_should_stop());
		mutex_lock(&sd->churn_lock);
		if (!READ_ONCE(sd->churn_paused) && !kthread_should_stop()) {
			level = READ_ONCE(sd->level);	/* the oracle's */
			if (level >= 2)
				atomic_inc(&sd->churn_errors);
			else if (level == 1)
				atomic_inc(&sd->churn_in_transition);
			if (pm_runtime_get_sync(&sd->dev) < 0)
				atomic_inc(&sd->churn_errors);
			usleep_range(20, 40);
			pm_runtime_mark_last_busy(&sd->dev);
			pm_runtime_put_autosuspend(&sd->dev);
			atomic_inc(&sd->churn_cycles);
		}
		mutex_unlock(&sd->churn_lock);
		usleep_range(2000, 3000);	/* > the 1 ms delay: DEV may suspend */
	}
	return 0;
}

/**
 * pmsynth_churn_pause - stop @sd's churn thread after its current cycle.
 * @sd: the device, at the start of its system suspend-side callback.
 *
 * Returns once the thread holds no runtime reference of @sd and takes no
 * new one until pmsynth_churn_go().  No-op without a thread.
 */
void pmsynth_churn_pause(struct pmsynth_dev *sd)
{
	if (!READ_ONCE(sd->churn))
		return;
	WRITE_ONCE(sd->churn_paused, true);
	mutex_lock(&sd->churn_lock);	/* the cycle in progress ends */
	mutex_unlock(&sd->churn_lock);
}

/* Let @sd's churn thread go on (resume-side callbacks, ->complete()). */
void pmsynth_churn_go(struct pmsynth_dev *sd)
{
	if (!READ_ONCE(sd->churn) || !READ_ONCE(sd->churn_paused))
		return;
	WRITE_ONCE(sd->churn_paused, false);
	wake_up(&sd->churn_wq);
}

/* Stop @sd's thread, if any.  Under pmsynth_mutex. */
void pmsynth_churn_stop(struct pmsynth_dev *sd)
{
	struct task_struct *t = sd->churn;

	if (!t)
		return;
	kthread_stop(t);	/* wakes it, paused or not */
	put_task_struct(t);
	WRITE_ONCE(sd->churn, NULL);
	sd->churn_paused = false;
	if (sd->churn_own_autosuspend) {	/* as the scenario had it */
		pm_runtime_dont_use_autosuspend(&sd->dev);
		pm_runtime_set_autosuspend_delay(&sd->dev, sd->churn_saved_delay);
		sd->churn_own_autosuspend = false;
	}
}

/* "churn DEV on|off".  Under pmsynth_mutex, with system sleep locked. */
int pmsynth_churn_cmd(struct pmsynth_dev *sd, bool on)
{
	struct task_struct *t;

	if (!on) {
		if (!sd->churn) {
			scnprintf(pmsynth_error, PMSYNTH_ERROR_LEN,
				  "churn %s off: no churn running", dev_name(&sd->dev));
			return -EINVAL;
		}
		pmsynth_churn_stop(sd);
		return 0;
	}
	if (sd->churn || sd->detached || sd->spec.direct_complete) {
		scnprintf(pmsynth_error, PMSYNTH_ERROR_LEN, "churn %s on: %s",
			  dev_name(&sd->dev), sd->churn ? "already running" :
			  sd->spec.direct_complete ? "it may take the direct_complete path" :
			  "detached");
		return -EINVAL;
	}
	spin_lock_irq(&sd->dev.power.lock);
	sd->churn_own_autosuspend = !sd->dev.power.use_autosuspend;
	sd->churn_saved_delay = sd->dev.power.autosuspend_delay;
	spin_unlock_irq(&sd->dev.power.lock);
	if (sd->churn_own_autosuspend) {
		pm_runtime_set_autosuspend_delay(&sd->dev, 1);
		pm_runtime_use_autosuspend(&sd->dev);
	}
	atomic_set(&sd->churn_cycles, 0);
	atomic_set(&sd->churn_in_transition, 0);
	atomic_set(&sd->churn_errors, 0);
	sd->churn_paused = false;
	t = kthread_create(churn_thread, sd, "pmsynth-churn/%s", dev_name(&sd->dev));
	if (IS_ERR(t)) {
		scnprintf(pmsynth_error, PMSYNTH_ERROR_LEN, "churn %s on: cannot start a thread",
			  dev_name(&sd->dev));
		return PTR_ERR(t);
	}
	get_task_struct(t);	/* kthread_stop() after the thread has exited */
	WRITE_ONCE(sd->churn, t);
	wake_up_process(t);
	return 0;
}
