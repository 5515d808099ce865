// SPDX-License-Identifier: GPL-2.0
/*
 * pmsynth-rpm.c - the control command "rpm DEV OP [ARG]": one runtime PM
 * call on DEV, made as a driver makes it, so that guest tests can drive the
 * runtime PM core's state machine call by call (lab/jobs/rpm-*.sh).
 *
 * What the call returned is kept for "status" (rpm_result): a request the
 * core refuses (-EAGAIN, -EBUSY, -EINPROGRESS) or answers with "already
 * there" (1) is what such a test looks at, so the command itself fails only
 * on bad usage (unknown device or operation, a bad argument, enable without
 * a disable before it).
 */
#include <linux/device.h>
#include <linux/pm_runtime.h>
#include <linux/string.h>
#include "pmsynth.h"

/* the return value of the last "rpm" command's call, under pmsynth_mutex */
int pmsynth_rpm_result;

enum rpm_op {
	OP_IDLE, OP_SUSPEND, OP_AUTOSUSPEND, OP_RESUME,
	OP_REQ_IDLE, OP_REQ_SUSPEND, OP_REQ_AUTOSUSPEND, OP_REQ_RESUME,
	OP_SCHEDULE_SUSPEND, OP_BARRIER, OP_DISABLE, OP_ENABLE,
	OP_SET_ACTIVE, OP_SET_SUSPENDED, OP_IGNORE_CHILDREN, OP_IDLE_BUSY,
	OP_AUTOSUSPEND_DELAY,
};

static const char * const rpm_op_names[] = {
	[OP_IDLE] = "idle",
	[OP_SUSPEND] = "suspend",
	[OP_AUTOSUSPEND] = "autosuspend",
	[OP_RESUME] = "resume",
	[OP_REQ_IDLE] = "request-idle",
	[OP_REQ_SUSPEND] = "request-suspend",
	[OP_REQ_AUTOSUSPEND] = "request-autosuspend",
	[OP_REQ_RESUME] = "request-resume",
	[OP_SCHEDULE_SUSPEND] = "schedule-suspend",
	[OP_BARRIER] = "barrier",
	[OP_DISABLE] = "disable",
	[OP_ENABLE] = "enable",
	[OP_SET_ACTIVE] = "set-active",
	[OP_SET_SUSPENDED] = "set-suspended",
	[OP_IGNORE_CHILDREN] = "ignore-children",
	[OP_IDLE_BUSY] = "idle-busy",
	[OP_AUTOSUSPEND_DELAY] = "autosuspend-delay",
};

/* Ops that take an argument: a number of ms, or on|off. */
static bool op_takes_ms(int op)
{
	return op == OP_SCHEDULE_SUSPEND || op == OP_AUTOSUSPEND_DELAY;
}

static bool op_takes_bool(int op)
{
	return op == OP_IGNORE_CHILDREN || op == OP_IDLE_BUSY;
}

/*
 * Parse ARG for @op into @val: ms (0..PMSYNTH_MAX_AUTOSUSPEND_MS, or -1 for
 * autosuspend-delay: a negative delay forbids runtime suspend) or on|off.
 */
static int parse_arg(int op, const char *arg, int *val)
{
	if (op_takes_ms(op)) {
		if (!arg || kstrtoint(arg, 10, val) || *val > PMSYNTH_MAX_AUTOSUSPEND_MS ||
		    *val < (op == OP_AUTOSUSPEND_DELAY ? -1 : 0))
			return -EINVAL;
		return 0;
	}
	if (op_takes_bool(op)) {
		if (!arg || (strcmp(arg, "on") && strcmp(arg, "off")))
			return -EINVAL;
		*val = !strcmp(arg, "on");
		return 0;
	}
	return arg ? -EINVAL : 0;
}

/*
 * run_op - make the runtime PM call @op (argument @val) on @sd.
 * Caller holds pmsynth_mutex and @sd->hold_lock.  The call's return value
 * goes to pmsynth_rpm_result.  Returns 0, or -EINVAL for an enable without
 * a disable of ours before it, or a second disable.
 */
static int run_op(struct pmsynth_dev *sd, int op, int val)
{
	struct device *dev = &sd->dev;
	int ret = 0;

	switch (op) {
	case OP_IDLE:
		ret = pm_runtime_idle(dev);
		break;
	case OP_SUSPEND:
		ret = pm_runtime_suspend(dev);
		break;
	case OP_AUTOSUSPEND:
		ret = pm_runtime_autosuspend(dev);
		break;
	case OP_RESUME:
		ret = pm_runtime_resume(dev);
		break;
	case OP_REQ_IDLE:
		ret = pm_request_idle(dev);
		break;
	case OP_REQ_SUSPEND:
		ret = __pm_runtime_suspend(dev, RPM_ASYNC);
		break;
	case OP_REQ_AUTOSUSPEND:
		ret = pm_request_autosuspend(dev);
		break;
	case OP_REQ_RESUME:
		ret = pm_request_resume(dev);
		break;
	case OP_SCHEDULE_SUSPEND:
		ret = pm_schedule_suspend(dev, val);
		break;
	case OP_BARRIER:
		ret = pm_runtime_barrier(dev);
		break;
	case OP_SET_ACTIVE:
	case OP_SET_SUSPENDED:
		ret = op == OP_SET_ACTIVE ? pm_runtime_set_active(dev) :
					    pm_runtime_set_suspended(dev);
		/* no callback ran: tell the oracle the new status */
		if (!ret)
			pmsynth_oracle_rt_set(sd, op == OP_SET_ACTIVE);
		break;
	case OP_DISABLE:
		if (sd->rpm_disabled)
			return -EINVAL;
		pm_runtime_disable(dev);
		sd->rpm_disabled = true;
		break;
	case OP_ENABLE:
		if (!sd->rpm_disabled)
			return -EINVAL;
		pm_runtime_enable(dev);
		sd->rpm_disabled = false;
		break;
	case OP_IGNORE_CHILDREN:
		pm_suspend_ignore_children(dev, val);
		break;
	case OP_IDLE_BUSY:
		WRITE_ONCE(sd->idle_busy, val);
		break;
	case OP_AUTOSUSPEND_DELAY:
		pm_runtime_set_autosuspend_delay(dev, val);
		break;
	}
	pmsynth_rpm_result = ret;
	return 0;
}

/**
 * pmsynth_rpm_cmd - the control command "rpm DEV OP [ARG]"
 * @args: "DEV OP [ARG]"
 *
 * Makes one runtime PM call on DEV (see rpm_op_names and lab/pmsynth/README.md)
 * and keeps its return value in pmsynth_rpm_result.  "disable" and "enable"
 * pair up: pmsynth counts the disables it made, so that unload and a
 * second "enable" cannot unbalance the device's disable depth; a device
 * unloaded while disabled is removed so (removal disables runtime PM
 * anyway).  "idle-busy on" makes DEV's ->runtime_idle() return -EBUSY,
 * which keeps the PM core from suspending it after an idle notification.
 *
 * Caller holds pmsynth_mutex (inside the system sleep lock); takes DEV's
 * hold_lock around the call, so hold writes do not interleave with it.
 * Return: 0, or -EINVAL on bad usage (the cause in pmsynth_error).
 */
int pmsynth_rpm_cmd(char *args)
{
	char *name = strsep(&args, " "), *opname = strsep(&args, " ");
	struct pmsynth_dev *sd = name ? pmsynth_find(name) : NULL;
	int op = opname ? match_string(rpm_op_names, ARRAY_SIZE(rpm_op_names), opname) : -1;
	int val = 0, ret;

	if (!sd) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm: no device '%s'",
			  name ? name : "");
		return -EINVAL;
	}
	if (op < 0) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error),
			  "rpm: unknown operation '%s' (lab/pmsynth/README.md lists them)",
			  opname ? opname : "");
		return -EINVAL;
	}
	if (parse_arg(op, args, &val)) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm: %s wants %s, not '%s'",
			  opname, op_takes_ms(op) ? (op == OP_AUTOSUSPEND_DELAY ?
			  "MS (-1..60000)" : "MS (0..60000)") :
			  op_takes_bool(op) ? "on|off" : "no argument", args ? args : "");
		return -EINVAL;
	}
	mutex_lock(&sd->hold_lock);
	ret = sd->gone ? -ENODEV : run_op(sd, op, val);
	mutex_unlock(&sd->hold_lock);
	if (ret == -EINVAL)
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "rpm: %s: %s",
			  name, sd->rpm_disabled ? "runtime PM already disabled by rpm disable" :
			  "enable without an rpm disable before it");
	return ret;
}
