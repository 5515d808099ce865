/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmtrace.h - the events pmtrace.bpf.c sends to pmtrace.c through the
 * ring buffer of the CPU they happened on, in the order the kernel
 * emitted them on that CPU: one per phase step, per device queued, per
 * blocked wait, per device done (which carries what its thread's start
 * and callbacks left in task storage) and per runtime PM event.
 * pmtrace.c reads them and pmtrace-records.c turns them into records
 * (bpf/README.md).
 */
#ifndef PMTRACE_H
#define PMTRACE_H

/*
 * A device's or a step's name and its NUL: names of up to 63 characters
 * (the limit of pmsynth's and the scenarios' device names) are whole.
 */
#define PMTRACE_NAME_LEN 64

/* each CPU's ring: a whole transition on one CPU, reader frozen */
#define PMTRACE_RING_BYTES (16 << 20)

/* the record format's name and version, in every file's begin record */
#define PMTRACE_FORMAT "pmtrace-records-4"

/* CPUs whose busy and idle time pmtrace accounts (cpu_acct map) */
#define PMTRACE_MAX_CPUS 64

/* the phases of device records, in transition order (bench/dpm-phase.h) */
enum pmtrace_phase {
	PMT_PREPARE, PMT_SUSPEND, PMT_SUSPEND_LATE, PMT_SUSPEND_NOIRQ,
	PMT_RESUME_NOIRQ, PMT_RESUME_EARLY, PMT_RESUME, PMT_COMPLETE,
	PMT_NO_PHASE = 255,
};

/* a device record's outcome: the kernel's enum dpm_outcome, or unknown */
#define PMT_OUTCOME_UNKNOWN 255

enum pmtrace_kind {
	PMT_PHASE_BEGIN,	/* power:suspend_resume, start */
	PMT_PHASE_END,		/* power:suspend_resume, end */
	PMT_QUEUED,		/* power:dpm_device_queued */
	PMT_WAIT_END,		/* power:dpm_device_wait_end (begin: start) */
	/*
	 * PMT_DONE: power:dpm_device_end, with what dpm_device_start and
	 * device_pm_callback_start/end left in the thread's task storage;
	 * in prepare and complete, and in every phase on a kernel without
	 * dpm_device events: device_pm_callback_end
	 */
	PMT_DONE,
	PMT_RPM_CB_START,	/* rpm:rpm_callback_start */
	PMT_RPM_CB_END,		/* rpm:rpm_callback_end */
	PMT_RPM_QUEUE,		/* rpm:rpm_request_queue */
	PMT_RPM_CANCEL,		/* rpm:rpm_request_cancel */
	PMT_RPM_RUN,		/* rpm:rpm_request_run */
	PMT_NR_KINDS,
};

/*
 * names map: a device's name and its parent's ("" without one), by its
 * struct device pointer: names are unique on a bus, not in a machine
 * (an ACPI device and the platform device made of it share one); the
 * parent (the nearest device above it in sysfs that has PM: what
 * sysfs2scen makes its parent) tells such twins apart in an imported graph
 */
struct pmtrace_name {
	char name[PMTRACE_NAME_LEN];
	char parent[PMTRACE_NAME_LEN];
};

/* names map entries: devices a trace can name */
#define PMTRACE_MAX_NAMES 65536

/* cpu_acct map: one CPU's time since its first power:cpu_idle event */
struct pmtrace_cpu_acct {
	unsigned long long seq;		/* odd while the CPU updates it */
	unsigned long long last;	/* its last idle entry or exit */
	unsigned long long busy, idle;	/* ns, up to @last */
	unsigned int state;		/* enum pmtrace_cpu_state */
	unsigned int prev;		/* the state @last ended */
	unsigned int pad[6];		/* a cache line per CPU */
};

enum pmtrace_cpu_state {
	PMT_CPU_UNKNOWN,		/* no cpu_idle event seen yet */
	PMT_CPU_BUSY,
	PMT_CPU_IDLE,
};

/*
 * allidle map: idle CPUs counted in the low 7 bits of @word, bit 7 set
 * while an ended interval is being added to @acc, the time of the count's
 * last change (mod 2^56) above them: one compare-and-swap updates all;
 * @acc the ns during which all CPUs were idle, up to that change.
 */
struct pmtrace_allidle {
	unsigned long long word;
	unsigned long long acc;
	unsigned long long races;	/* updates given up on after retries */
};

/* config map: what user space tells the programs before they attach */
struct pmtrace_config {
	unsigned int ncpus;		/* online CPUs: all idle = this many */
	/*
	 * 0: the kernel has no power:dpm_device_* events (a stock kernel, or
	 * --ignore-events dpm): a device's work in a phase is its callback,
	 * seen by device_pm_callback_start/end on whatever thread ran it
	 */
	unsigned int have_dpm;
};

/*
 * stock_phase map, without dpm_device events: the dpm phase running now
 * (PMT_NO_PHASE between phases) and the thread that runs it, from
 * power:suspend_resume; a callback on another thread ran asynchronously.
 */
struct pmtrace_stock_phase {
	unsigned int phase;		/* first: the low half of one 64-bit word */
	unsigned int tid;
};

struct pmtrace_event {
	unsigned long long ts;		/* bpf_ktime_get_ns() */
	unsigned int cpu;
	unsigned int tid;
	unsigned char kind;		/* enum pmtrace_kind */
	unsigned char phase;		/* dpm phase (dpm_device events) */
	unsigned char async;		/* rpm callbacks: forced */
	unsigned char relation;		/* wait events: enum dpm_wait_reason */
	int event;			/* PM event; rpm: request (callback: which) */
	int value;			/* error, ret, val, queued */
	unsigned int nvcsw, nivcsw;	/* done: the thread's switches since start */
	unsigned int start_cpu;		/* done: the CPU at dpm_device_start */
	unsigned int outcome;		/* done: enum dpm_outcome, PMT_OUTCOME_UNKNOWN */
	unsigned long long start;	/* done: dpm_device_start; wait_end: wait_begin */
	unsigned long long cb_start;	/* done: device_pm_callback_start (0: none) */
	unsigned long long cb_end;	/* done: device_pm_callback_end */
	unsigned long long dev;		/* the struct device: the key */
	/* wait_end: the device waited for; rpm callbacks: the function */
	unsigned long long other;
	/*
	 * No name: a device's name costs a string copy, slow next to the
	 * rest of an event; the names map (pmtrace_name by device) gets it
	 * once per device, and user space reads it there.  Only phase events
	 * carry a name (the step's action).
	 */
};

/*
 * Phase begin and end events are this bigger event: the CPU accounting of
 * every CPU at that moment, so that user space can take differences.
 */
struct pmtrace_phase_event {
	struct pmtrace_event e;
	char name[PMTRACE_NAME_LEN];	/* the step: dpm_suspend, CPU_OFF, ... */
	unsigned long long all_idle;	/* ns all CPUs were idle, so far */
	unsigned int ncpus;		/* entries in busy[], idle[] */
	unsigned int unknown;		/* CPUs without a known state (or read) */
	unsigned int all_idle_valid;	/* all_idle read consistently */
	unsigned int pad;
	unsigned long long busy[PMTRACE_MAX_CPUS];
	unsigned long long idle[PMTRACE_MAX_CPUS];
};

#endif /* PMTRACE_H */
