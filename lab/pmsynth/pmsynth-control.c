// SPDX-License-Identifier: GPL-2.0
/*
 * pmsynth-control.c - the debugfs "control" file: commands that change the
 * population or one device's behaviour (README.md).  Each runs under
 * lock_system_sleep() and pmsynth_mutex: no transition runs meanwhile.
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/pm_runtime.h>
#include <linux/pm_wakeup.h>
#include <linux/string.h>
#include <linux/suspend.h>
#include <linux/uaccess.h>
#include "pmsynth.h"

/* "fault DEV PHASE ERRNO once|always|off" */
/*
 * "fault DEV PHASE ERRNO|wakeup once|always|off": DEV's callback for PHASE
 * returns -ERRNO, or (wakeup, system-sleep phases) signals a wakeup event
 * with pm_system_wakeup() and returns 0: the PM core aborts the suspend at
 * the next device that looks (device_suspend(), device_suspend_late()).
 */
static int set_fault_cmd(char *args)
{
	char *dev = strsep(&args, " "), *phase = strsep(&args, " ");
	char *errstr = strsep(&args, " "), *how = strsep(&args, " ");
	struct pmsynth_dev *sd;
	unsigned long flags;
	int ph, err;
	u8 mode;

	if (!dev || !phase || !errstr || !how || args) {
		strscpy(pmsynth_error, "usage: fault DEV PHASE ERRNO|wakeup once|always|off",
			sizeof(pmsynth_error));
		return -EINVAL;
	}
	sd = pmsynth_find(dev);
	ph = pmsynth_phase_lookup(phase);
	if (!strcmp(errstr, "wakeup")) {
		err = PMSYNTH_FAULT_WAKEUP;
		if (ph >= PS_NR_SYSTEM)
			ph = -1;
	} else if (kstrtoint(errstr, 10, &err) || !err || abs(err) >= MAX_ERRNO) {
		ph = -1;
	} else {
		err = -abs(err);
	}
	if (!sd || ph < 0) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "fault: bad device '%s', phase '%s' or errno '%s' (wakeup: system phases only)",
			  dev, phase, errstr);
		return -EINVAL;
	}
	if (!strcmp(how, "once"))
		mode = PM_FAULT_ONCE;
	else if (!strcmp(how, "always"))
		mode = PM_FAULT_ALWAYS;
	else if (!strcmp(how, "off"))
		mode = PM_FAULT_OFF;
	else
		return -EINVAL;
	if (pmsynth_fault_loops(ph, err, mode)) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "fault: %s %s %s always: the PM core retries that forever",
			  dev, phase, errstr);
		return -EINVAL;
	}
	spin_lock_irqsave(&pmsynth_fault_lock, flags);
	sd->fault_err[ph] = mode == PM_FAULT_OFF ? 0 : err;
	sd->fault_mode[ph] = mode;
	spin_unlock_irqrestore(&pmsynth_fault_lock, flags);
	return 0;
}

/*
 * "rpm-clear DEV": clear the runtime PM error a failed callback left on
 * DEV (a runtime_resume error, or a runtime_suspend error but -EAGAIN and
 * -EBUSY), which stops all runtime PM of the device until cleared.  With
 * runtime PM disabled around, the device is set to the status it is in
 * (__pm_runtime_set_status() clears the error): active after a failed
 * suspend, suspended after a failed resume; then it may idle.
 * Caller holds pmsynth_mutex; takes the device's hold_lock.
 */
static int rpm_clear_cmd(const char *name)
{
	struct pmsynth_dev *sd = pmsynth_find(name);
	bool active;
	int ret;

	if (!sd) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm-clear: no device '%s'", name);
		return -EINVAL;
	}
	mutex_lock(&sd->hold_lock);
	pm_runtime_disable(&sd->dev);
	if (!sd->dev.power.runtime_error) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm-clear: %s has no runtime PM error",
			  name);
		ret = -EINVAL;
		goto out;
	}
	active = !pm_runtime_status_suspended(&sd->dev);
	ret = active ? pm_runtime_set_active(&sd->dev) : pm_runtime_set_suspended(&sd->dev);
	if (ret)
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm-clear: %s: cannot set %s (%d)",
			  name, active ? "active" : "suspended", ret);
	else
		pmsynth_oracle_rt_set(sd, active);
out:
	pm_runtime_enable(&sd->dev);
	if (!ret)
		pm_request_idle(&sd->dev);
	mutex_unlock(&sd->hold_lock);
	return ret;
}

/*
 * "oracle-call DEV PHASE": check DEV as if its system-sleep callback for
 * PHASE began now, outside any transition: a spurious call the oracle must
 * report (its self-test).  Only the entry check runs: no latency, no
 * fault, no state change, no call counted.  Caller holds pmsynth_mutex
 * and the system sleep lock.
 */
static int oracle_call_cmd(char *args)
{
	char *name = strsep(&args, " ");
	struct pmsynth_dev *sd = name ? pmsynth_find(name) : NULL;
	int ph = args ? pmsynth_phase_lookup(args) : -1;

	if (!sd || ph < 0 || ph >= PS_NR_SYSTEM) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "oracle-call: want DEV PHASE (a device and a system-sleep phase)");
		return -EINVAL;
	}
	pmsynth_oracle_enter(sd, ph);
	return 0;
}

/*
 * "wait-for DEV OTHER PHASE" (or "wait-for DEV off"): in PHASE, a
 * system-sleep phase, DEV's callback first waits for OTHER to complete the
 * phase with device_pm_wait_for_dev(), as drivers do for a dependency the
 * PM core does not know (USB companion controllers).  Refused for DEV
 * itself; whoever sets it up keeps OTHER from waiting for DEV in turn.
 */
static int wait_for_cmd(char *args)
{
	char *name = strsep(&args, " "), *other = strsep(&args, " ");
	struct pmsynth_dev *sd = name ? pmsynth_find(name) : NULL, *od;
	int ph = -1;

	if (sd && other && !args && !strcmp(other, "off")) {
		WRITE_ONCE(sd->wait_for, NULL);
		return 0;
	}
	od = other ? pmsynth_find(other) : NULL;
	if (args)
		ph = pmsynth_phase_lookup(args);
	if (!sd || !od || od == sd || ph < 0 || ph >= PS_NR_SYSTEM) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "wait-for: want DEV OTHER PHASE (two devices, a system-sleep phase) or DEV off");
		return -EINVAL;
	}
	sd->wait_phase = ph;
	WRITE_ONCE(sd->wait_for, od);
	return 0;
}

/*
 * "unlink-in DEV PHASE|off": DEV's callback of PHASE (a system-sleep phase)
 * deletes DEV's pm_links before its work, once.  "unregister-in DEV PHASE
 * OTHER|off": DEV's callback of PHASE device_del()s OTHER, once; OTHER must
 * not be DEV, its parent, one of its masters or one of its children (those
 * would deadlock or free what DEV's work still uses).
 */
static int unlink_in_cmd(char *args)
{
	char *name = strsep(&args, " ");
	struct pmsynth_dev *sd = name ? pmsynth_find(name) : NULL;
	int ph = args && strcmp(args, "off") ? pmsynth_phase_lookup(args) : -1;

	if (!sd || !args || (strcmp(args, "off") && (ph < 0 || ph >= PS_NR_SYSTEM))) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "unlink-in: want DEV PHASE (a system-sleep phase) or DEV off");
		return -EINVAL;
	}
	sd->unlink_phase = ph;
	return 0;
}

static bool related(struct pmsynth_dev *sd, struct pmsynth_dev *od)
{
	int i;

	if (od == sd || od == sd->parent || od->parent == sd)
		return true;
	for (i = 0; i < sd->nr_masters; i++)
		if (sd->masters[i] == od)
			return true;
	return false;
}

static int unregister_in_cmd(char *args)
{
	char *name = strsep(&args, " "), *phase = strsep(&args, " ");
	struct pmsynth_dev *sd = name ? pmsynth_find(name) : NULL, *od;
	int ph = phase ? pmsynth_phase_lookup(phase) : -1;

	if (sd && phase && !args && !strcmp(phase, "off")) {
		sd->unreg_other = NULL;
		return 0;
	}
	od = args ? pmsynth_find(args) : NULL;
	if (!sd || !od || ph < 0 || ph >= PS_NR_SYSTEM || related(sd, od) ||
	    od->detached) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "unregister-in: want DEV PHASE OTHER (a system-sleep phase, OTHER registered and not DEV, its parent, child or master) or DEV off");
		return -EINVAL;
	}
	sd->unreg_phase = ph;
	sd->unreg_other = od;
	return 0;
}

/*
 * Parse "DEV on|off" of command @cmd: the device in @sd, on or off in @on.
 * Sets pmsynth_error and returns -EINVAL on anything else.
 */
static int dev_on_off(const char *cmd, char *args, struct pmsynth_dev **sd, bool *on)
{
	char *name = strsep(&args, " ");

	*sd = name ? pmsynth_find(name) : NULL;
	if (!*sd || !args || (strcmp(args, "on") && strcmp(args, "off"))) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "%s: want DEV on|off", cmd);
		return -EINVAL;
	}
	*on = !strcmp(args, "on");
	return 0;
}

/*
 * "force-runtime DEV on|off": DEV's suspend_late and resume_early callbacks
 * go through pm_runtime_force_suspend/resume() (which run its runtime
 * callbacks), as drivers using them for system sleep do.
 */
static int force_runtime_cmd(char *args)
{
	struct pmsynth_dev *sd;
	bool on;
	int ret = dev_on_off("force-runtime", args, &sd, &on);

	if (!ret)
		WRITE_ONCE(sd->force_runtime, on);
	return ret;
}

/* "churn DEV on|off": a runtime PM churn thread (pmsynth-churn.c) */
static int churn_cmd(char *args)
{
	struct pmsynth_dev *sd;
	bool on;
	int ret = dev_on_off("churn", args, &sd, &on);

	return ret ? ret : pmsynth_churn_cmd(sd, on);
}

/*
 * "rpm-cancel DEV": make an asynchronous runtime PM request of DEV (resume
 * if it is suspended, else an idle notification), then pm_runtime_barrier()
 * at once, which cancels the request unless pm_wq has started on it
 * already: a cancellation to trace.  Then it may idle again.  Takes the
 * device's hold_lock.
 */
static int rpm_cancel_cmd(const char *name)
{
	struct pmsynth_dev *sd = pmsynth_find(name);
	int ret;

	if (!sd) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm-cancel: no device '%s'", name);
		return -EINVAL;
	}
	mutex_lock(&sd->hold_lock);
	if (pm_runtime_status_suspended(&sd->dev))
		ret = pm_request_resume(&sd->dev);
	else
		ret = pm_request_idle(&sd->dev);
	pm_runtime_barrier(&sd->dev);
	/* the barrier may have resumed it: let it idle again */
	pm_request_idle(&sd->dev);
	mutex_unlock(&sd->hold_lock);
	if (ret < 0) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "rpm-cancel: %s: no request made (%d)", name, ret);
		return ret;
	}
	return 0;
}

/* jitter-round N|off */
static int jitter_round_cmd(const char *arg)
{
	int round;

	if (!strcmp(arg, "off")) {
		WRITE_ONCE(pmsynth_jitter_round, -1);
		return 0;
	}
	if (kstrtoint(arg, 10, &round) || round < 0) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "jitter-round: '%s' is not a round (0 or more) or off", arg);
		return -EINVAL;
	}
	WRITE_ONCE(pmsynth_jitter_round, round);
	return 0;
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[160], *cmd;
	unsigned int sleep_flags;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	cmd = strim(buf);

	sleep_flags = lock_system_sleep();
	mutex_lock(&pmsynth_mutex);
	pmsynth_error[0] = '\0';
	if (!strcmp(cmd, "load")) {
		ret = pmsynth_load();
	} else if (!strcmp(cmd, "unload")) {
		pmsynth_depopulate();
		ret = 0;
	} else if (!strcmp(cmd, "oracle-reset")) {
		pmsynth_oracle_reset();
		ret = 0;
	} else if (!strncmp(cmd, "fault ", 6)) {
		ret = set_fault_cmd(cmd + 6);
	} else if (!strncmp(cmd, "rpm-clear ", 10)) {
		ret = rpm_clear_cmd(cmd + 10);
	} else if (!strncmp(cmd, "oracle-call ", 12)) {
		ret = oracle_call_cmd(cmd + 12);
	} else if (!strncmp(cmd, "wait-for ", 9)) {
		ret = wait_for_cmd(cmd + 9);
	} else if (!strncmp(cmd, "force-runtime ", 14)) {
		ret = force_runtime_cmd(cmd + 14);
	} else if (!strncmp(cmd, "churn ", 6)) {
		ret = churn_cmd(cmd + 6);
	} else if (!strncmp(cmd, "rpm ", 4)) {
		ret = pmsynth_rpm_cmd(cmd + 4);
	} else if (!strncmp(cmd, "rpm-cancel ", 11)) {
		ret = rpm_cancel_cmd(cmd + 11);
	} else if (!strncmp(cmd, "jitter-round ", 13)) {
		ret = jitter_round_cmd(cmd + 13);
	} else if (!strncmp(cmd, "unlink-in ", 10)) {
		ret = unlink_in_cmd(cmd + 10);
	} else if (!strncmp(cmd, "unregister-in ", 14)) {
		ret = unregister_in_cmd(cmd + 14);
	} else {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "unknown command '%s'", cmd);
		ret = -EINVAL;
	}
	mutex_unlock(&pmsynth_mutex);
	unlock_system_sleep(sleep_flags);
	return ret ? ret : count;
}

const struct file_operations pmsynth_control_fops = {
	.owner = THIS_MODULE,
	.write = control_write,
};

