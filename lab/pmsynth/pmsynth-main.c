// SPDX-License-Identifier: GPL-2.0
/*
 * pmsynth-main.c - synthetic PM-aware devices on a bus of their own.
 *
 * A population of devices is described by a scenario (see README.md):
 * names, parents, pm_links (device links: consumer = slave, supplier =
 * master), per-phase callback latency and mode, async opt-in, runtime
 * autosuspend and fault injection.  Every callback of dev_pm_ops is
 * implemented; each checks the ordering oracle (pmsynth-oracle.c), waits or
 * spins for its latency, and returns the injected error if any.
 *
 * User interface, in debugfs (pmsynth/):
 *   scenario  write: the scenario text (opening for write empties it)
 *   control   write: commands (pmsynth-control.c): "load", "unload",
 *             "oracle-reset", "fault", "rpm-clear", "oracle-call",
 *             "wait-for", "force-runtime", "rpm-cancel", "rpm"
 *   status    read:  devices, links, devices not back to active after a
 *             transition, runtime-active devices, and the last error
 *             ("line N: cause")
 *   oracle    read:  checks, violations and the first violation
 * and per device in sysfs (/sys/bus/pmsynth/devices/NAME/):
 *   hold      write 1: take a runtime usage reference (pm_runtime_get_sync),
 *             write 0: drop one (pm_runtime_put_autosuspend); read: count
 *   calls     read: callback counts per phase
 *   rpm_seen  read: runtime PM usage, status and enabled as each system
 *             callback found them
 *
 * Locking: pmsynth_mutex serializes load, unload and control commands, and
 * is taken inside lock_system_sleep() so no system transition runs while
 * the population changes.  Callbacks never take it.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/pm_wakeup.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "pmsynth.h"

DEFINE_MUTEX(pmsynth_mutex);
DEFINE_SPINLOCK(pmsynth_fault_lock);

static struct device *pmsynth_root;
static struct dentry *pmsynth_debugfs;

/* the live population, under pmsynth_mutex */
static struct pmsynth_dev **devs;
static int nr_devs;
static int nr_links;
static u32 jitter_pct;
static u64 jitter_seed;
/*
 * The jitter's draw: the callback's call count, or the round set by the
 * control command "jitter-round N" (>= 0), so that transitions of different
 * modes given the same round sleep the same.
 */
int pmsynth_jitter_round = -1;

/* scenario text being written, under pmsynth_mutex */
static char *text;
static size_t text_len;
char pmsynth_error[PMSYNTH_ERROR_LEN];

/*
 * A device of a scenario line with driver=1 gets pmsynth_driven_type,
 * without PM callbacks, and pmsynth_driver binds to it with the same
 * callbacks: the PM core then sees driver callbacks, the only ones it skips
 * for DPM_FLAG_SMART_SUSPEND and DPM_FLAG_MAY_SKIP_RESUME (the others are
 * device-type, middle-layer, callbacks).
 */
static const struct device_type pmsynth_driven_type;

static int pmsynth_match(struct device *dev, const struct device_driver *drv)
{
	return dev->type == &pmsynth_driven_type;
}

static const struct bus_type pmsynth_bus = {
	.name = "pmsynth",
	.match = pmsynth_match,
};

/* splitmix64: seeded jitter that is the same for the same call sequence */
static u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u32 latency_us(struct pmsynth_dev *sd, enum pmsynth_phase ph, int call)
{
	u64 lat = sd->spec.lat_us[ph], r, span;

	if (!lat || !jitter_pct)
		return lat;
	span = lat * jitter_pct / 100;		/* +- span */
	r = mix(jitter_seed ^ mix(((u64)sd->index << 32) | (ph << 24) | (u32)call));
	return lat - span + (r % (2 * span + 1));
}

/*
 * Sleep: an hrtimer sleep with 1 us of slack (a driver waiting for its
 * hardware).  Spin: burn the CPU until the time has passed (a driver doing
 * work), measured on the same clock as the trace.
 */
static void wait_or_spin(u32 us, u8 mode)
{
	u64 end;

	if (!us)
		return;
	if (mode == PM_MODE_SLEEP) {
		usleep_range(us, us + 1);
		return;
	}
	end = ktime_get_ns() + (u64)us * NSEC_PER_USEC;
	while (ktime_get_ns() < end)
		cpu_relax();
}

static int injected_fault(struct pmsynth_dev *sd, enum pmsynth_phase ph)
{
	unsigned long flags;
	int err;

	spin_lock_irqsave(&pmsynth_fault_lock, flags);
	err = sd->fault_err[ph];
	if (sd->fault_mode[ph] == PM_FAULT_ONCE) {
		sd->fault_err[ph] = 0;
		sd->fault_mode[ph] = PM_FAULT_OFF;
	}
	spin_unlock_irqrestore(&pmsynth_fault_lock, flags);
	return err;
}

static int pmsynth_callback(struct device *dev, enum pmsynth_phase ph)
{
	struct pmsynth_dev *sd = to_pmsynth_dev(dev);
	struct pmsynth_dev *other = READ_ONCE(sd->wait_for);
	int call = atomic_inc_return(&sd->calls[ph]);
	int round = READ_ONCE(pmsynth_jitter_round);
	int err;

	if (ph < PS_NR_SYSTEM)
		WRITE_ONCE(sd->rpm_seen[ph], ((struct pmsynth_rpm_seen) {
			.usage = atomic_read(&dev->power.usage_count),
			.status = dev->power.runtime_status,
			.enabled = !dev->power.disable_depth,
			.valid = true,
		}));
	if (ph == PS_SUSPEND)
		pmsynth_churn_pause(sd);	/* a driver stops its I/O first */
	pmsynth_oracle_enter(sd, ph);
	pmsynth_topology_change(sd, ph);
	if (other && sd->wait_phase == ph)
		device_pm_wait_for_dev(dev, &other->dev);
	wait_or_spin(latency_us(sd, ph, round >= 0 ? round : call), sd->spec.mode[ph]);
	err = injected_fault(sd, ph);
	if (err == PMSYNTH_FAULT_WAKEUP) {
		dev_info(dev, "injected wakeup event in %s\n", pmsynth_phase_names[ph]);
		pm_system_wakeup();
		err = 0;
	} else if (err) {
		dev_info(dev, "injected error %d in %s\n", err,
			 pmsynth_phase_names[ph]);
	}
	if (!err && READ_ONCE(sd->force_runtime)) {
		if (ph == PS_SUSPEND_LATE)
			err = pm_runtime_force_suspend(dev);
		else if (ph == PS_RESUME_EARLY)
			err = pm_runtime_force_resume(dev);
	}
	pmsynth_oracle_leave(sd, ph, err);
	/* the churn thread goes on once the oracle sees the device back */
	if ((ph == PS_SUSPEND && err) || ph == PS_RESUME || ph == PS_COMPLETE)
		pmsynth_churn_go(sd);
	/* nonzero from ->runtime_idle(): the PM core does not suspend it */
	if (ph == PS_RUNTIME_IDLE && !err && READ_ONCE(sd->idle_busy))
		return -EBUSY;
	/* a positive ->prepare(): leave it suspended if runtime-suspended */
	if (ph == PS_PREPARE && !err && sd->spec.direct_complete)
		return 1;
	return err;
}

#define PMSYNTH_CB(fn, ph)					\
static int pmsynth_##fn(struct device *dev)			\
{								\
	return pmsynth_callback(dev, ph);			\
}

PMSYNTH_CB(prepare, PS_PREPARE)
PMSYNTH_CB(suspend, PS_SUSPEND)
PMSYNTH_CB(suspend_late, PS_SUSPEND_LATE)
PMSYNTH_CB(suspend_noirq, PS_SUSPEND_NOIRQ)
PMSYNTH_CB(resume_noirq, PS_RESUME_NOIRQ)
PMSYNTH_CB(resume_early, PS_RESUME_EARLY)
PMSYNTH_CB(resume, PS_RESUME)
PMSYNTH_CB(runtime_suspend, PS_RUNTIME_SUSPEND)
PMSYNTH_CB(runtime_resume, PS_RUNTIME_RESUME)
PMSYNTH_CB(runtime_idle, PS_RUNTIME_IDLE)

static void pmsynth_complete(struct device *dev)
{
	pmsynth_callback(dev, PS_COMPLETE);
}

/*
 * Hibernation's phases share the suspend and resume ones, as
 * SYSTEM_SLEEP_PM_OPS() makes them for most drivers: freeze and poweroff
 * run the suspend-side callbacks (latency, fault, oracle's suspend order),
 * thaw and restore the resume-side ones.  Callback counts add up over both.
 */
static const struct dev_pm_ops pmsynth_pm_ops = {
	.prepare = pmsynth_prepare,
	.complete = pmsynth_complete,
	.suspend = pmsynth_suspend,
	.resume = pmsynth_resume,
	.freeze = pmsynth_suspend,
	.thaw = pmsynth_resume,
	.poweroff = pmsynth_suspend,
	.restore = pmsynth_resume,
	.suspend_late = pmsynth_suspend_late,
	.resume_early = pmsynth_resume_early,
	.freeze_late = pmsynth_suspend_late,
	.thaw_early = pmsynth_resume_early,
	.poweroff_late = pmsynth_suspend_late,
	.restore_early = pmsynth_resume_early,
	.suspend_noirq = pmsynth_suspend_noirq,
	.resume_noirq = pmsynth_resume_noirq,
	.freeze_noirq = pmsynth_suspend_noirq,
	.thaw_noirq = pmsynth_resume_noirq,
	.poweroff_noirq = pmsynth_suspend_noirq,
	.restore_noirq = pmsynth_resume_noirq,
	.runtime_suspend = pmsynth_runtime_suspend,
	.runtime_resume = pmsynth_runtime_resume,
	.runtime_idle = pmsynth_runtime_idle,
};

static ssize_t hold_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(to_pmsynth_dev(dev)->holds));
}

static ssize_t hold_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct pmsynth_dev *sd = to_pmsynth_dev(dev);
	bool take;
	int ret;

	if (kstrtobool(buf, &take))
		return -EINVAL;
	mutex_lock(&sd->hold_lock);
	if (sd->gone) {
		ret = -ENODEV;
	} else if (take) {
		ret = pm_runtime_get_sync(dev);
		if (ret < 0) {
			pm_runtime_put_noidle(dev);
		} else {
			sd->holds++;
			ret = 0;
		}
	} else if (!sd->holds) {
		ret = -EALREADY;
	} else {
		sd->holds--;
		pm_runtime_mark_last_busy(dev);
		/* the reference is dropped whatever the suspend attempt says */
		pm_runtime_put_autosuspend(dev);
		ret = 0;
	}
	mutex_unlock(&sd->hold_lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(hold);

static ssize_t calls_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct pmsynth_dev *sd = to_pmsynth_dev(dev);
	int ph, n = 0;

	for (ph = 0; ph < PS_NR_PHASES; ph++)
		n += sysfs_emit_at(buf, n, "%s %d\n", pmsynth_phase_names[ph],
				   atomic_read(&sd->calls[ph]));
	return n;
}
static DEVICE_ATTR_RO(calls);

static const char * const rpm_status_names[] = {
	[RPM_ACTIVE] = "active",
	[RPM_RESUMING] = "resuming",
	[RPM_SUSPENDED] = "suspended",
	[RPM_SUSPENDING] = "suspending",
};

/*
 * "rpm_seen": the device's runtime PM state as its last call of each
 * system-sleep callback found it, one line per phase that ran:
 * "PHASE usage=N status=S enabled=0|1" (what the PM core does to runtime
 * PM across a system transition).  Written by the callbacks, which the PM
 * core serializes per device; read without a lock.
 */
static ssize_t rpm_seen_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct pmsynth_dev *sd = to_pmsynth_dev(dev);
	int ph, n = 0;

	for (ph = 0; ph < PS_NR_SYSTEM; ph++) {
		struct pmsynth_rpm_seen seen = READ_ONCE(sd->rpm_seen[ph]);

		if (!seen.valid)
			continue;
		n += sysfs_emit_at(buf, n, "%s usage=%d status=%s enabled=%d\n",
				   pmsynth_phase_names[ph], seen.usage,
				   seen.status < ARRAY_SIZE(rpm_status_names) ?
				   rpm_status_names[seen.status] : "?", seen.enabled);
	}
	return n;
}
static DEVICE_ATTR_RO(rpm_seen);

/* the churn thread's cycles and failed runtime resumes (pmsynth-churn.c) */
static ssize_t churn_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct pmsynth_dev *sd = to_pmsynth_dev(dev);

	return sysfs_emit(buf, "running %d\ncycles %d\nin_transition %d\nerrors %d\n",
			  !!READ_ONCE(sd->churn), atomic_read(&sd->churn_cycles),
			  atomic_read(&sd->churn_in_transition),
			  atomic_read(&sd->churn_errors));
}
static DEVICE_ATTR_RO(churn);

static struct attribute *pmsynth_dev_attrs[] = {
	&dev_attr_hold.attr,
	&dev_attr_churn.attr,
	&dev_attr_calls.attr,
	&dev_attr_rpm_seen.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pmsynth_dev);

static void pmsynth_release(struct device *dev)
{
	struct pmsynth_dev *sd = to_pmsynth_dev(dev);

	kfree(sd->spec.masters);
	kfree(sd->spec.oracle_masters);
	kfree(sd->masters);
	kfree(sd->slaves);
	kfree(sd->children);
	kfree(sd->links);
	mutex_destroy(&sd->hold_lock);
	kfree(sd);
}

static const struct device_type pmsynth_type = {
	.name = "pmsynth",
	.pm = &pmsynth_pm_ops,
	.groups = pmsynth_dev_groups,
	.release = pmsynth_release,
};

static const struct device_type pmsynth_driven_type = {
	.name = "pmsynth-driven",
	.groups = pmsynth_dev_groups,
	.release = pmsynth_release,
};

static int pmsynth_probe(struct device *dev)
{
	return 0;
}

static struct device_driver pmsynth_driver = {
	.name = "pmsynth",
	.bus = &pmsynth_bus,
	.probe = pmsynth_probe,
	.pm = &pmsynth_pm_ops,
	.suppress_bind_attrs = true,
};

/*
 * pmsynth_topology_change - the topology change set for @sd's callback of
 * @ph, if any: delete @sd's pm_links (its masters no longer wait for it,
 * nor it for them), or device_del() another device in the middle of the
 * phase.  The link pointers are cleared first so that depopulate does not
 * delete a link device_del() purged; a deleted device is put, not
 * unregistered, by depopulate (it is no longer in sysfs).  Runs in the
 * callback, so no control command or depopulate runs meanwhile.
 */
void pmsynth_topology_change(struct pmsynth_dev *sd, enum pmsynth_phase ph)
{
	struct pmsynth_dev *od = sd->unreg_other;
	int i, j;

	if (sd->unlink_phase == (int)ph) {
		sd->unlink_phase = -1;
		WRITE_ONCE(sd->detached, true);
		for (j = 0; j < sd->nr_links; j++) {
			if (sd->links[j])
				device_link_del(sd->links[j]);
			sd->links[j] = NULL;
		}
		dev_info(&sd->dev, "deleted its pm_links in %s\n", pmsynth_phase_names[ph]);
	}
	if (od && sd->unreg_phase == (int)ph) {
		sd->unreg_other = NULL;
		WRITE_ONCE(od->detached, true);
		for (j = 0; j < od->nr_links; j++)
			od->links[j] = NULL;
		for (i = 0; i < od->nr_slaves; i++)
			for (j = 0; j < od->slaves[i]->nr_links; j++)
				if (od->slaves[i]->links[j] &&
				    od->slaves[i]->links[j]->supplier == &od->dev)
					od->slaves[i]->links[j] = NULL;
		dev_info(&sd->dev, "deleting %s in %s\n", dev_name(&od->dev),
			 pmsynth_phase_names[ph]);
		device_del(&od->dev);
	}
}

/*
 * Remove every device and link, and wait until every device is released.
 * Caller holds pmsynth_mutex.
 */
void pmsynth_depopulate(void)
{
	int i, j;

	for (i = 0; i < nr_devs; i++)
		pmsynth_churn_stop(devs[i]);
	for (i = nr_devs - 1; i >= 0; i--)
		for (j = 0; j < devs[i]->nr_links; j++)
			if (devs[i]->links[j])
				device_link_del(devs[i]->links[j]);
	for (i = nr_devs - 1; i >= 0; i--) {
		struct pmsynth_dev *sd = devs[i];

		mutex_lock(&sd->hold_lock);
		sd->gone = true;	/* no hold from now on */
		while (sd->holds) {
			sd->holds--;
			pm_runtime_put_noidle(&sd->dev);
		}
		mutex_unlock(&sd->hold_lock);
		if (sd->dev.kobj.state_in_sysfs)
			device_unregister(&sd->dev);
		else
			put_device(&sd->dev);
	}
	/*
	 * A deleted link drops its references to the two devices from
	 * device_link_wq, later: wait for that, so that every release has
	 * run before the module (and pmsynth_type) may go away.
	 */
	device_link_wait_removal();
	kvfree(devs);
	devs = NULL;
	nr_devs = 0;
	nr_links = 0;
}

/*
 * Fill in the relation arrays of every device (parent, children, masters,
 * slaves) from the specs the devices took over.
 */
static int relate(struct pmsynth_scenario *sc)
{
	int i, j, *nch, *nsl, ret = -ENOMEM;

	nch = kvcalloc(sc->nr, sizeof(int), GFP_KERNEL);
	nsl = kvcalloc(sc->nr, sizeof(int), GFP_KERNEL);
	if (!nch || !nsl)
		goto out;
	for (i = 0; i < sc->nr; i++) {
		struct pmsynth_spec *s = &devs[i]->spec;

		if (s->parent >= 0)
			nch[s->parent]++;
		for (j = 0; j < s->nr_masters; j++)
			nsl[s->masters[j]]++;
		for (j = 0; j < s->nr_oracle_masters; j++)
			nsl[s->oracle_masters[j]]++;
	}
	for (i = 0; i < sc->nr; i++) {
		struct pmsynth_dev *sd = devs[i];
		struct pmsynth_spec *s = &sd->spec;

		sd->children = kcalloc(nch[i] + 1, sizeof(*sd->children), GFP_KERNEL);
		sd->slaves = kcalloc(nsl[i] + 1, sizeof(*sd->slaves), GFP_KERNEL);
		sd->masters = kcalloc(s->nr_masters + s->nr_oracle_masters + 1,
				      sizeof(*sd->masters), GFP_KERNEL);
		sd->links = kcalloc(s->nr_masters + 1, sizeof(*sd->links), GFP_KERNEL);
		if (!sd->children || !sd->slaves || !sd->masters || !sd->links)
			goto out;
	}
	for (i = 0; i < sc->nr; i++) {
		struct pmsynth_dev *sd = devs[i];
		struct pmsynth_spec *s = &sd->spec;

		if (s->parent >= 0) {
			sd->parent = devs[s->parent];
			sd->parent->children[sd->parent->nr_children++] = sd;
		}
		for (j = 0; j < s->nr_masters + s->nr_oracle_masters; j++) {
			int m = j < s->nr_masters ? s->masters[j] :
				s->oracle_masters[j - s->nr_masters];

			sd->masters[sd->nr_masters++] = devs[m];
			devs[m]->slaves[devs[m]->nr_slaves++] = sd;
		}
	}
	ret = 0;
out:
	kvfree(nch);
	kvfree(nsl);
	return ret;
}

/*
 * Create the devices and links of @sc.  On failure everything created is
 * removed again.  Caller holds pmsynth_mutex; the old population is gone.
 */
static int populate(struct pmsynth_scenario *sc, char *err, size_t errlen)
{
	int i, j, ph, ret;

	devs = kvcalloc(sc->nr, sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return -ENOMEM;
	for (i = 0; i < sc->nr; i++) {
		struct pmsynth_dev *sd = kzalloc(sizeof(*sd), GFP_KERNEL);

		if (!sd) {
			ret = -ENOMEM;
			goto fail;
		}
		mutex_init(&sd->hold_lock);
		mutex_init(&sd->churn_lock);
		init_waitqueue_head(&sd->churn_wq);
		sd->index = i;
		sd->unlink_phase = -1;
		sd->unreg_phase = -1;
		sd->spec = sc->specs[i];
		/* the device owns its masters arrays from now on */
		sc->specs[i].masters = NULL;
		sc->specs[i].oracle_masters = NULL;
		for (ph = 0; ph < PS_NR_PHASES; ph++) {
			sd->fault_err[ph] = sd->spec.fault_err[ph];
			sd->fault_mode[ph] = sd->spec.fault_mode[ph];
		}
		device_initialize(&sd->dev);
		sd->dev.bus = &pmsynth_bus;
		sd->dev.type = sd->spec.driver ? &pmsynth_driven_type : &pmsynth_type;
		devs[nr_devs++] = sd;
		ret = dev_set_name(&sd->dev, "%s", sd->spec.name);
		if (ret)
			goto fail;
	}
	ret = relate(sc);
	if (ret)
		goto fail;
	for (i = 0; i < nr_devs; i++) {
		struct pmsynth_dev *sd = devs[i];

		sd->dev.parent = sd->parent ? &sd->parent->dev : pmsynth_root;
		ret = device_add(&sd->dev);
		if (ret) {
			scnprintf(err, errlen, "line %d: cannot add device '%s': %d",
				  sd->spec.line, sd->spec.name, ret);
			goto fail;
		}
		if (sd->spec.async)
			device_enable_async_suspend(&sd->dev);
		dev_pm_set_driver_flags(&sd->dev, sd->spec.driver_flags);
		if (sd->spec.autosuspend_ms >= 0) {
			pm_runtime_set_autosuspend_delay(&sd->dev,
							 sd->spec.autosuspend_ms);
			pm_runtime_use_autosuspend(&sd->dev);
		}
	}
	for (i = 0; i < nr_devs; i++) {
		struct pmsynth_dev *sd = devs[i];

		for (j = 0; j < sd->spec.nr_masters; j++) {
			struct pmsynth_dev *m = sd->masters[j];
			struct device_link *l;

			l = device_link_add(&sd->dev, &m->dev,
					    DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME);
			if (!l) {
				scnprintf(err, errlen, "line %d: device_link_add(%s, %s) failed",
					  sd->spec.line, sd->spec.name, m->spec.name);
				ret = -EINVAL;
				goto fail;
			}
			sd->links[sd->nr_links++] = l;
			nr_links++;
		}
	}
	/*
	 * Runtime PM goes live only now that every pm_link exists, parents
	 * first: before, device_add() of a child would runtime-resume its
	 * parent while the parent's masters were not linked yet.
	 */
	for (i = 0; i < nr_devs; i++)
		pm_runtime_enable(&devs[i]->dev);
	return 0;
fail:
	pmsynth_depopulate();
	return ret;
}

/* "load": replace the population with the staged scenario text. */
/* Replace the population with the scenario written.  Under pmsynth_mutex. */
int pmsynth_load(void)
{
	struct pmsynth_scenario sc;
	int ret;

	if (!text_len) {
		strscpy(pmsynth_error, "no scenario written", sizeof(pmsynth_error));
		return -ENODATA;
	}
	ret = pmsynth_parse(text, text_len, &sc, pmsynth_error, sizeof(pmsynth_error));
	/* the text was parsed in place: it cannot be loaded twice */
	vfree(text);
	text = NULL;
	text_len = 0;
	if (ret) {
		pr_err("pmsynth: scenario refused: %s\n", pmsynth_error);
		return ret;
	}
	pmsynth_depopulate();
	pmsynth_oracle_reset();
	jitter_pct = sc.jitter_pct;
	jitter_seed = sc.seed;
	ret = populate(&sc, pmsynth_error, sizeof(pmsynth_error));
	pmsynth_scenario_free(&sc);
	if (ret) {
		if (!pmsynth_error[0])
			scnprintf(pmsynth_error, sizeof(pmsynth_error), "cannot create devices: %d", ret);
		pr_err("pmsynth: %s\n", pmsynth_error);
		return ret;
	}
	pr_info("pmsynth: %d devices, %d pm_links\n", nr_devs, nr_links);
	return 0;
}

/* The device called @name in the live population, or NULL.  Under pmsynth_mutex. */
struct pmsynth_dev *pmsynth_find(const char *name)
{
	int i;

	for (i = 0; i < nr_devs; i++)
		if (!strcmp(devs[i]->spec.name, name))
			return devs[i];
	return NULL;
}

static int scenario_open(struct inode *inode, struct file *file)
{
	mutex_lock(&pmsynth_mutex);
	vfree(text);
	text = NULL;
	text_len = 0;
	mutex_unlock(&pmsynth_mutex);
	return 0;
}

static ssize_t scenario_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char *grown;
	int ret = count;

	mutex_lock(&pmsynth_mutex);
	if (text_len + count > PMSYNTH_MAX_TEXT) {
		scnprintf(pmsynth_error, sizeof(pmsynth_error), "scenario larger than %d bytes",
			  PMSYNTH_MAX_TEXT);
		ret = -EFBIG;
		goto out;
	}
	grown = vmalloc(text_len + count + 1);
	if (!grown) {
		ret = -ENOMEM;
		goto out;
	}
	if (text)
		memcpy(grown, text, text_len);
	if (copy_from_user(grown + text_len, ubuf, count)) {
		vfree(grown);
		ret = -EFAULT;
		goto out;
	}
	vfree(text);
	text = grown;
	text_len += count;
	text[text_len] = '\0';
out:
	mutex_unlock(&pmsynth_mutex);
	return ret;
}

static const struct file_operations scenario_fops = {
	.owner = THIS_MODULE,
	.open = scenario_open,
	.write = scenario_write,
};

/*
 * "status": the population, how many devices the oracle sees away from
 * the active state (system-sleep depth > 0, or runtime resumed), and the
 * last error.
 */
static int status_show(struct seq_file *m, void *unused)
{
	int i, not_active = 0, rt_active = 0, detached = 0;

	mutex_lock(&pmsynth_mutex);
	for (i = 0; i < nr_devs; i++) {
		if (READ_ONCE(devs[i]->detached)) {
			detached++;
			continue;
		}
		not_active += READ_ONCE(devs[i]->level) != 0;
		rt_active += READ_ONCE(devs[i]->rt_live);
	}
	seq_printf(m, "devices %d\nlinks %d\nnot_active %d\nruntime_active %d\ndetached %d\nerror %s\n",
		   nr_devs, nr_links, not_active, rt_active, detached,
		   pmsynth_error[0] ? pmsynth_error : "none");
	seq_printf(m, "rpm_result %d\n", pmsynth_rpm_result);
	mutex_unlock(&pmsynth_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

static int oracle_open(struct inode *inode, struct file *file)
{
	return single_open(file, pmsynth_oracle_show, NULL);
}

static const struct file_operations oracle_fops = {
	.owner = THIS_MODULE,
	.open = oracle_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init pmsynth_init(void)
{
	int ret;

	ret = bus_register(&pmsynth_bus);
	if (ret)
		return ret;
	ret = driver_register(&pmsynth_driver);
	if (ret) {
		bus_unregister(&pmsynth_bus);
		return ret;
	}
	pmsynth_root = root_device_register("pmsynth");
	if (IS_ERR(pmsynth_root)) {
		driver_unregister(&pmsynth_driver);
		bus_unregister(&pmsynth_bus);
		return PTR_ERR(pmsynth_root);
	}
	device_enable_async_suspend(pmsynth_root);
	pmsynth_debugfs = debugfs_create_dir("pmsynth", NULL);
	debugfs_create_file("scenario", 0200, pmsynth_debugfs, NULL, &scenario_fops);
	debugfs_create_file("control", 0200, pmsynth_debugfs, NULL, &pmsynth_control_fops);
	debugfs_create_file("status", 0444, pmsynth_debugfs, NULL, &status_fops);
	debugfs_create_file("oracle", 0444, pmsynth_debugfs, NULL, &oracle_fops);
	return 0;
}

static void __exit pmsynth_exit(void)
{
	unsigned int sleep_flags;

	debugfs_remove_recursive(pmsynth_debugfs);
	sleep_flags = lock_system_sleep();
	mutex_lock(&pmsynth_mutex);
	pmsynth_depopulate();
	vfree(text);
	mutex_unlock(&pmsynth_mutex);
	unlock_system_sleep(sleep_flags);
	root_device_unregister(pmsynth_root);
	driver_unregister(&pmsynth_driver);
	bus_unregister(&pmsynth_bus);
}

module_init(pmsynth_init);
module_exit(pmsynth_exit);
MODULE_DESCRIPTION("Synthetic PM devices with pm_link dependencies and an ordering oracle");
MODULE_LICENSE("GPL");
