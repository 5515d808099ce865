// SPDX-License-Identifier: GPL-2.0
/*
 * pmsynth-oracle.c - check, inside every callback, the ordering the PM core
 * promises, and count violations.
 *
 * System sleep.  Each device has a depth: 0 active, 1 prepared, 2 suspended,
 * 3 suspended late, 4 suspended noirq.  A callback that succeeds moves the
 * device to its phase's depth when it returns.  At callback entry:
 *   prepare                    superiors (parent, masters) are prepared (>= 1):
 *                              dpm_prepare() walks dpm_list parents first;
 *   suspend, _late, _noirq     subordinates (children, slaves) already went
 *                              at least as deep as this phase, by their
 *                              callbacks or by the PM core's flags for the
 *                              ones it skipped (smart_suspend), or were left
 *                              runtime-suspended by direct_complete;
 *   resume_noirq, _early, resume  superiors are already at most as deep as
 *                              this phase leaves the device (resumed, or
 *                              never suspended that deep);
 *   complete                   subordinates are complete (0): dpm_complete()
 *                              walks the list children first.
 * And the device's own state: each system callback starts from the depth the
 * one before it in the transition leaves (prepare from 0, suspend from 1,
 * ..., resume_noirq from 4, resume_early from 3, resume from 2, complete
 * from 1), unless the PM core skipped the callbacks in between, as its
 * flags show (smart_suspend, may_skip_resume).  A failed suspend-side callback leaves the depth as it was, and
 * the PM core then skips the resume-side callbacks that would undo it, so
 * a spurious call (a resume without its suspend, a callback twice) shows.
 * Runtime PM.  rt_live: set when runtime_resume starts, cleared when
 * runtime_suspend succeeds; rt_up: set when runtime_resume succeeds,
 * cleared when runtime_suspend starts.  runtime_resume requires every
 * superior rt_up (the parent only if it minds its children and has runtime
 * PM enabled, as rpm_resume() does); runtime_suspend requires every
 * subordinate !rt_live (children only unless the device ignores children).
 *
 * "Superiors" and "subordinates" include oracle-only masters, so a
 * dependency declared to the oracle without a device link (the self-test)
 * shows up as a violation.
 *
 * Locking: depths and flags are written only by the device's own callbacks,
 * which the PM core serializes per device (and by rpm-clear with runtime PM
 * of the device disabled), and read from other devices'
 * callbacks, ordered by the PM core's completions and power.lock; they are
 * accessed with READ_ONCE/WRITE_ONCE.  Counters are atomic; the first
 * violation is recorded under oracle_lock.
 */
#include <linux/atomic.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include "pmsynth.h"

static atomic_t checks = ATOMIC_INIT(0);
static atomic_t sys_violations = ATOMIC_INIT(0);
static atomic_t rt_violations = ATOMIC_INIT(0);
static DEFINE_SPINLOCK(oracle_lock);
static char first[256];

static void violation(struct pmsynth_dev *sd, enum pmsynth_phase ph,
		      const char *relation, struct pmsynth_dev *other,
		      const char *why)
{
	unsigned long flags;
	bool is_first = false;

	/* a test changed the device's topology: its order is not the scenario's */
	if (READ_ONCE(sd->detached) || READ_ONCE(other->detached))
		return;
	if (ph >= PS_NR_SYSTEM)
		atomic_inc(&rt_violations);
	else
		atomic_inc(&sys_violations);
	spin_lock_irqsave(&oracle_lock, flags);
	if (!first[0]) {
		scnprintf(first, sizeof(first), "%s %s: %s %s %s\n",
			  dev_name(&sd->dev), pmsynth_phase_names[ph], relation,
			  dev_name(&other->dev), why);
		is_first = true;
	}
	spin_unlock_irqrestore(&oracle_lock, flags);
	dev_warn(&sd->dev, "oracle: %s: %s %s %s\n", pmsynth_phase_names[ph],
		 relation, dev_name(&other->dev), why);
	/* how the PM core got here, for the first violation */
	if (is_first)
		dump_stack();
}

/* Depth a successful callback of @ph leaves the device at. */
static int depth_after(enum pmsynth_phase ph)
{
	switch (ph) {
	case PS_PREPARE:	return 1;
	case PS_SUSPEND:	return 2;
	case PS_SUSPEND_LATE:	return 3;
	case PS_SUSPEND_NOIRQ:	return 4;
	case PS_RESUME_NOIRQ:	return 3;
	case PS_RESUME_EARLY:	return 2;
	case PS_RESUME:		return 1;
	default:		return 0;
	}
}

/* Depth the device must be at when @ph's callback starts. */
static int depth_before(enum pmsynth_phase ph)
{
	switch (ph) {
	case PS_PREPARE:	return 0;
	case PS_SUSPEND:	return 1;
	case PS_SUSPEND_LATE:	return 2;
	case PS_SUSPEND_NOIRQ:	return 3;
	case PS_RESUME_NOIRQ:	return 4;
	case PS_RESUME_EARLY:	return 3;
	case PS_RESUME:		return 2;
	default:		return 1;	/* complete */
	}
}

static const char * const depth_names[] = {
	"active", "prepared", "suspended", "suspended late", "suspended noirq",
};

/*
 * How deep the PM core's own flags say it took @sd in this transition.  A
 * driver callback the core skipped (DPM_FLAG_SMART_SUSPEND: suspend_late
 * and suspend_noirq of a runtime-suspended device; DPM_FLAG_MAY_SKIP_RESUME:
 * resume_noirq and resume_early of a device left suspended) moves the
 * flags, not the oracle's depth.  Set before the completions other devices
 * wait for; @sd's own are its own.
 */
static int core_depth(struct pmsynth_dev *sd)
{
	struct dev_pm_info *p = &sd->dev.power;

	if (p->is_noirq_suspended)
		return 4;
	if (p->is_late_suspended)
		return 3;
	return p->is_suspended ? 2 : 0;
}

/* @ph's callback found @sd at depth @l instead of @want: a skip explains it */
static bool skipped_before(struct pmsynth_dev *sd, enum pmsynth_phase ph,
			   int l, int want)
{
	struct dev_pm_info *p = &sd->dev.power;

	/* suspend_late/noirq skipped; the core still counts them done */
	if (l < want && (ph == PS_RESUME_NOIRQ || ph == PS_RESUME_EARLY))
		return core_depth(sd) >= want;
	/* resume_noirq (and resume_early) skipped: the core cleared them */
	if (l > want && ph == PS_RESUME_EARLY)
		return !p->is_noirq_suspended;
	if (l > want && ph == PS_RESUME)
		return !p->is_noirq_suspended && !p->is_late_suspended;
	return false;
}

static void check_self(struct pmsynth_dev *sd, enum pmsynth_phase ph)
{
	int l = READ_ONCE(sd->level), want = depth_before(ph);
	char why[80];

	if (l == want || skipped_before(sd, ph, l, want))
		return;
	scnprintf(why, sizeof(why), "is %s, %s starts from %s",
		  l >= 0 && l <= 4 ? depth_names[l] : "?", pmsynth_phase_names[ph],
		  depth_names[want]);
	violation(sd, ph, "itself", sd, why);
}

static const char *master_relation(struct pmsynth_dev *sd, int i)
{
	return i < sd->spec.nr_masters ? "master" : "oracle-master";
}

static void check_superiors(struct pmsynth_dev *sd, enum pmsynth_phase ph)
{
	int i, d;

	if (ph == PS_PREPARE) {
		if (sd->parent && READ_ONCE(sd->parent->level) < 1)
			violation(sd, ph, "parent", sd->parent, "not prepared yet");
		for (i = 0; i < sd->nr_masters; i++)
			if (READ_ONCE(sd->masters[i]->level) < 1)
				violation(sd, ph, master_relation(sd, i),
					  sd->masters[i], "not prepared yet");
		return;
	}
	d = depth_after(ph);
	if (sd->parent && READ_ONCE(sd->parent->level) > d)
		violation(sd, ph, "parent", sd->parent, "not resumed yet");
	for (i = 0; i < sd->nr_masters; i++)
		if (READ_ONCE(sd->masters[i]->level) > d)
			violation(sd, ph, master_relation(sd, i), sd->masters[i],
				  "not resumed yet");
}

static void check_done(struct pmsynth_dev *sd, enum pmsynth_phase ph,
		       struct pmsynth_dev **devs, int n, const char *relation)
{
	int i, d = depth_after(ph), l;
	bool done;

	for (i = 0; i < n; i++) {
		l = READ_ONCE(devs[i]->level);
		/*
		 * A device the PM core left runtime-suspended (direct_complete)
		 * stays prepared through the suspend-side phases: it counts as
		 * suspended.  The core set the flag before the completion this
		 * device waited for.
		 */
		done = ph == PS_COMPLETE ? l == 0 :
		       l >= d || core_depth(devs[i]) >= d ||
		       (l == 1 && devs[i]->dev.power.direct_complete);
		if (!done)
			violation(sd, ph, relation, devs[i],
				  ph == PS_COMPLETE ? "not complete yet" :
				  "not suspended yet");
	}
}

static void check_subordinates(struct pmsynth_dev *sd, enum pmsynth_phase ph)
{
	check_done(sd, ph, sd->children, sd->nr_children, "child");
	check_done(sd, ph, sd->slaves, sd->nr_slaves, "slave");
}

/**
 * pmsynth_oracle_enter - check the ordering at callback entry
 * @sd: the device whose callback starts
 * @ph: the callback
 *
 * Context: the callback itself (process context, may be the noirq phase).
 */
void pmsynth_oracle_enter(struct pmsynth_dev *sd, enum pmsynth_phase ph)
{
	int i;

	atomic_inc(&checks);
	if (ph < PS_NR_SYSTEM)
		check_self(sd, ph);
	switch (ph) {
	case PS_PREPARE:
	case PS_RESUME_NOIRQ:
	case PS_RESUME_EARLY:
	case PS_RESUME:
		check_superiors(sd, ph);
		break;
	case PS_SUSPEND:
	case PS_SUSPEND_LATE:
	case PS_SUSPEND_NOIRQ:
	case PS_COMPLETE:
		check_subordinates(sd, ph);
		break;
	case PS_RUNTIME_RESUME:
		WRITE_ONCE(sd->rt_live, true);
		/*
		 * rpm_resume() resumes the parent first unless the parent
		 * ignores its children or has runtime PM disabled: then an
		 * active child under a suspended parent is allowed.
		 */
		if (sd->parent && !READ_ONCE(sd->parent->rt_up) &&
		    !sd->parent->dev.power.ignore_children &&
		    pm_runtime_enabled(&sd->parent->dev))
			violation(sd, ph, "parent", sd->parent, "is runtime-suspended");
		for (i = 0; i < sd->nr_masters; i++)
			if (!READ_ONCE(sd->masters[i]->rt_up))
				violation(sd, ph, master_relation(sd, i),
					  sd->masters[i], "is runtime-suspended");
		break;
	case PS_RUNTIME_SUSPEND:
		WRITE_ONCE(sd->rt_up, false);
		if (!sd->dev.power.ignore_children)
			for (i = 0; i < sd->nr_children; i++)
				if (READ_ONCE(sd->children[i]->rt_live))
					violation(sd, ph, "child", sd->children[i],
						  "is runtime-active");
		for (i = 0; i < sd->nr_slaves; i++)
			if (READ_ONCE(sd->slaves[i]->rt_live))
				violation(sd, ph, "slave", sd->slaves[i],
					  "is runtime-active");
		break;
	default:
		break;
	}
}

/**
 * pmsynth_oracle_leave - record the state a callback leaves the device in
 * @sd: the device whose callback returns
 * @ph: the callback
 * @error: what it returns
 */
void pmsynth_oracle_leave(struct pmsynth_dev *sd, enum pmsynth_phase ph,
			  int error)
{
	if (ph < PS_NR_SYSTEM) {
		/*
		 * A failed suspend-side callback leaves the device where it
		 * was (the transition aborts).  Resume-side callbacks and
		 * ->complete() cannot hold a device back: the PM core reports
		 * the error and signals completion anyway, so the device's
		 * dependents go on as if it had resumed.
		 */
		if (!error || ph >= PS_RESUME_NOIRQ)
			WRITE_ONCE(sd->level, depth_after(ph));
		/*
		 * With DPM_FLAG_SMART_SUSPEND the core may set the runtime
		 * status itself during resume, without a runtime callback:
		 * take it as it is when the transition ends.
		 */
		if (ph == PS_COMPLETE &&
		    dev_pm_test_driver_flags(&sd->dev, DPM_FLAG_SMART_SUSPEND))
			pmsynth_oracle_rt_set(sd, !pm_runtime_status_suspended(&sd->dev));
		return;
	}
	if (ph == PS_RUNTIME_RESUME) {
		if (error)	/* the PM core leaves it suspended */
			WRITE_ONCE(sd->rt_live, false);
		else
			WRITE_ONCE(sd->rt_up, true);
	}
	if (ph == PS_RUNTIME_SUSPEND) {
		if (error)
			WRITE_ONCE(sd->rt_up, true);
		else
			WRITE_ONCE(sd->rt_live, false);
	}
}

/**
 * pmsynth_oracle_rt_set - runtime state set without a callback
 * @sd: the device
 * @active: set active (true) or suspended
 *
 * For pm_runtime_set_active()/pm_runtime_set_suspended() done by pmsynth
 * itself (rpm-clear), with runtime PM of @sd disabled.
 */
void pmsynth_oracle_rt_set(struct pmsynth_dev *sd, bool active)
{
	WRITE_ONCE(sd->rt_up, active);
	WRITE_ONCE(sd->rt_live, active);
}

/**
 * pmsynth_oracle_reset - forget counts and the first violation
 */
void pmsynth_oracle_reset(void)
{
	unsigned long flags;

	atomic_set(&checks, 0);
	atomic_set(&sys_violations, 0);
	atomic_set(&rt_violations, 0);
	spin_lock_irqsave(&oracle_lock, flags);
	first[0] = '\0';
	spin_unlock_irqrestore(&oracle_lock, flags);
}

/**
 * pmsynth_oracle_show - the debugfs "oracle" file
 * @m: output
 * @unused: unused
 *
 * Return: 0.
 */
int pmsynth_oracle_show(struct seq_file *m, void *unused)
{
	unsigned long flags;

	seq_printf(m, "checks %d\n", atomic_read(&checks));
	seq_printf(m, "violations %d\n",
		   atomic_read(&sys_violations) + atomic_read(&rt_violations));
	seq_printf(m, "system_violations %d\n", atomic_read(&sys_violations));
	seq_printf(m, "runtime_violations %d\n", atomic_read(&rt_violations));
	spin_lock_irqsave(&oracle_lock, flags);
	seq_printf(m, "first %s", first[0] ? first : "none\n");
	spin_unlock_irqrestore(&oracle_lock, flags);
	return 0;
}
