// SPDX-License-Identifier: GPL-2.0
/*
 * pmtrace.bpf.c - forward the suspend/resume and runtime PM events to user
 * space through per-CPU ring buffers (libbpf CO-RE; vmlinux.h is generated
 * from the lab kernel's BTF at build time).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "pmtrace.h"

char LICENSE[] SEC("license") = "GPL";

#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define E2BIG 7		/* errno: the map is full */

/*
 * One ring buffer per CPU (created by pmtrace.c, one per possible CPU):
 * no reservation lock shared between CPUs, which cost 12 % of an async
 * transition under TCG, where a vCPU spinning on a lock burns its whole
 * time slice.  (Not perf buffers: their per-CPU events stop for good when
 * suspend takes the CPU offline.)  User space restores the time order.
 */
struct ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PMTRACE_RING_BYTES);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);		/* set to the possible CPUs before load */
	__type(key, __u32);
	__array(values, struct ring);
} rings SEC(".maps");

/*
 * events that did not fit (an array map, not a global: the lab kernel's
 * libbpf probe for global data fails)
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dropped SEC(".maps");

/* what pmtrace.c tells the programs before attaching them */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pmtrace_config);
} config SEC(".maps");

/* each CPU's busy and idle time: written only by that CPU */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PMTRACE_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct pmtrace_cpu_acct);
} cpu_acct SEC(".maps");

/* how many CPUs are idle, and since when all of them were */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pmtrace_allidle);
} allidle SEC(".maps");

static __always_inline void count_drop(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&dropped, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* An event of @kind in this CPU's ring, its common fields filled in. */
static __always_inline struct pmtrace_event *reserve(__u8 kind)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct pmtrace_event *e;
	void *ring;

	ring = bpf_map_lookup_elem(&rings, &cpu);
	e = ring ? bpf_ringbuf_reserve(ring, sizeof(*e), 0) : NULL;
	if (!e) {
		count_drop();
		return NULL;
	}
	e->ts = bpf_ktime_get_ns();
	e->cpu = cpu;
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->kind = kind;
	e->phase = 0;
	e->async = 0;
	e->relation = 0;
	e->event = 0;
	e->value = 0;
	e->nvcsw = 0;
	e->nivcsw = 0;
	e->start = 0;
	e->cb_start = 0;
	e->cb_end = 0;
	e->start_cpu = 0;
	e->dev = 0;
	e->other = 0;
	e->outcome = 0;
	return e;
}

/*
 * Hand @e to user space without waking it up: a wake-up per event is an
 * irq_work self-interrupt per event, and while a transition runs the
 * reader is frozen anyway (pmtrace polls every 100 ms).
 */
static __always_inline void submit(struct pmtrace_event *e)
{
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* device names, each copied once (pmtrace.h) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PMTRACE_MAX_NAMES);
	__type(key, __u64);
	__type(value, struct pmtrace_name);
} names SEC(".maps");

/*
 * Into @buf, the name of the nearest directory above @dev in sysfs that is
 * a device the PM core lists ("" when none is): what sysfs2scen makes its
 * parent.  That is dev->parent, or a bus's root device (the "container"
 * of /sys/devices/system/container/X, which is not dev->parent), past
 * class and glue directories (not devices: every device's kobject has
 * device_ktype, @dev's own) and devices without PM (power.no_pm: no
 * power/ directory, left out of an import).
 */
static __always_inline void note_parent(struct device *dev, char *buf)
{
	const struct kobj_type *device_ktype = BPF_CORE_READ(dev, kobj.ktype);
	struct kobject *k = BPF_CORE_READ(dev, kobj.parent);

	buf[0] = '\0';
	for (int i = 0; i < 16 && k; i++) {
		if (BPF_CORE_READ(k, ktype) == device_ktype) {
			struct device *p = (void *)k - bpf_core_field_offset(struct device, kobj);

			if (!BPF_CORE_READ_BITFIELD_PROBED(p, power.no_pm)) {
				bpf_probe_read_kernel_str(buf, PMTRACE_NAME_LEN,
							  BPF_CORE_READ(k, name));
				return;
			}
		}
		k = BPF_CORE_READ(k, parent);
	}
}

/*
 * @dev's name into the names map, unless it is there: dev_name(), the
 * kobject's name, and its parent's (note_parent()).  A full map counts as
 * a drop (records would lack names).
 */
static __always_inline void note_name(struct device *dev)
{
	__u64 key = (__u64)dev;
	struct pmtrace_name n;

	if (!dev || bpf_map_lookup_elem(&names, &key))
		return;
	bpf_probe_read_kernel_str(n.name, sizeof(n.name), BPF_CORE_READ(dev, kobj.name));
	note_parent(dev, n.parent);
	if (bpf_map_update_elem(&names, &key, &n, BPF_NOEXIST) == -E2BIG)
		count_drop();
}

/*
 * The programs are tp_btf: they get the tracepoint's arguments as they
 * are (TP_PROTO), without the trace record a "tracepoint" program makes
 * the kernel build first (half of the attach cost measured under TCG).
 */
static __always_inline __u32 online_cpus(void)
{
	__u32 zero = 0;
	struct pmtrace_config *c = bpf_map_lookup_elem(&config, &zero);

	return c ? c->ncpus : 0;
}

/* the kernel has the series' dpm_device events (pmtrace.c knows) */
static __always_inline bool have_dpm(void)
{
	__u32 zero = 0;
	struct pmtrace_config *c = bpf_map_lookup_elem(&config, &zero);

	return c && c->have_dpm;
}

/* without dpm_device events: the phase running now (pmtrace.h) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pmtrace_stock_phase);
} stock_phase SEC(".maps");

#define ALLIDLE_COUNT	0x7fULL		/* idle CPUs */
#define ALLIDLE_PENDING	0x80ULL		/* an interval not yet in acc */
#define ALLIDLE_TIME	((1ULL << 56) - 1)	/* ns, modulo 2^56 (2.28 years) */

/*
 * The idle-CPU count of @g goes up (@up) or down by one; when it comes
 * down from all @ncpus, the all-idle interval that ends is added to the
 * total.  The count and the time of its change are one word, changed by
 * compare-and-swap, so no CPU reads the start of an interval another has
 * not written yet.  @now is the time the CPU's own accounting uses, so
 * that an all-idle interval lies within every CPU's idle time; the CPU that ends an
 * interval marks the word pending until the interval is in @acc, and
 * readers (phase snapshots) retry while it is.  A CPU that fails to
 * update the word 16 times counts a race: the figures are then invalid.
 */
static __always_inline void allidle_step(struct pmtrace_allidle *g, __u64 now, bool up,
					 __u32 ncpus)
{
	for (int i = 0; i < 16; i++) {
		__u64 old = READ_ONCE(g->word);
		__u64 n = old & ALLIDLE_COUNT, from = old >> 8, flags = old & ALLIDLE_PENDING;
		bool ending = !up && n == ncpus;
		__u64 new = ((now & ALLIDLE_TIME) << 8) | (ending ? ALLIDLE_PENDING : flags) |
			    ((up ? n + 1 : n - 1) & ALLIDLE_COUNT);

		if (__sync_val_compare_and_swap(&g->word, old, new) != old)
			continue;
		if (ending) {
			/* two CPUs' updates in the other order than their clocks */
			if (((now - from) & ALLIDLE_TIME) < (1ULL << 55))
				__sync_fetch_and_add(&g->acc, (now - from) & ALLIDLE_TIME);
			__sync_fetch_and_and(&g->word, ~ALLIDLE_PENDING);
		}
		return;
	}
	__sync_fetch_and_add(&g->races, 1);
}

/*
 * power:cpu_idle, on the CPU it is about: entering idle (@state a C-state)
 * or leaving it (PWR_EVENT_EXIT).  The CPU's own accounting entry is
 * written under its sequence count (odd while writing), which the phase
 * events read from other CPUs.  Interrupts taken in the idle loop count
 * as idle until the CPU leaves it.
 */
SEC("tp_btf/cpu_idle")
int BPF_PROG(cpu_idle, unsigned int state, unsigned int cpu_id)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0, ncpus = online_cpus();
	__u32 to = state == (unsigned int)-1 ? PMT_CPU_BUSY : PMT_CPU_IDLE, from;
	struct pmtrace_cpu_acct *a = bpf_map_lookup_elem(&cpu_acct, &cpu);
	struct pmtrace_allidle *g = bpf_map_lookup_elem(&allidle, &zero);
	__u64 now = bpf_ktime_get_ns();

	if (!a || !g || a->state == to)
		return 0;
	from = a->state;
	__sync_fetch_and_add(&a->seq, 1);
	if (from == PMT_CPU_BUSY)
		a->busy += now - a->last;
	else if (from == PMT_CPU_IDLE)
		a->idle += now - a->last;
	a->last = now;
	a->prev = from;
	a->state = to;
	__sync_fetch_and_add(&a->seq, 1);
	if (to == PMT_CPU_IDLE)
		allidle_step(g, now, true, ncpus);
	else if (from == PMT_CPU_IDLE)
		allidle_step(g, now, false, ncpus);
	return 0;
}

/* a phase event being filled in, per CPU (too big for the BPF stack) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pmtrace_phase_event);
} phase_scratch SEC(".maps");

struct snap_ctx {
	struct pmtrace_phase_event *p;
	__u64 now;
};

/*
 * bpf_loop callback: CPU @cpu's busy and idle ns up to ctx->now, read
 * consistently under its sequence count.  The CPU may have changed state
 * after ctx->now was read and before its entry was (another vCPU ran in
 * between): then the time from ctx->now to its @last went to the state it
 * left, and is taken back out of that state's sum, so busy + idle still
 * ends at ctx->now.
 */
static int snap_cpu(__u32 cpu, struct snap_ctx *ctx)
{
	struct pmtrace_cpu_acct *a = bpf_map_lookup_elem(&cpu_acct, &cpu);
	struct pmtrace_phase_event *p = ctx->p;
	__u64 seq, busy = 0, idle = 0, last = 0, state = 0, prev = 0, now = ctx->now;
	bool read = false;

	if (!a || cpu >= PMTRACE_MAX_CPUS)
		return 1;
	for (int try = 0; try < 8 && !read; try++) {
		seq = READ_ONCE(a->seq);
		busy = READ_ONCE(a->busy);
		idle = READ_ONCE(a->idle);
		last = READ_ONCE(a->last);
		state = READ_ONCE(a->state);
		prev = READ_ONCE(a->prev);
		read = !(seq & 1) && READ_ONCE(a->seq) == seq;
	}
	if (!read) {		/* its writer was stopped halfway: no figures */
		busy = 0;
		idle = 0;
		state = PMT_CPU_UNKNOWN;
	}
	if (state != PMT_CPU_UNKNOWN && last > now) {
		__u64 over = last - now;

		if (prev == PMT_CPU_BUSY)
			busy -= over < busy ? over : busy;
		else if (prev == PMT_CPU_IDLE)
			idle -= over < idle ? over : idle;
		else		/* its first event came after ctx->now */
			p->unknown++;
	} else if (state == PMT_CPU_BUSY && now > last) {
		busy += now - last;
	} else if (state == PMT_CPU_IDLE && now > last) {
		idle += now - last;
	} else if (state == PMT_CPU_UNKNOWN) {
		p->unknown++;
	}
	p->busy[cpu] = busy;
	p->idle[cpu] = idle;
	return 0;
}

/*
 * A step of a transition begins or ends (dpm_suspend, CPU_OFF, ...): the
 * event carries every CPU's accounting at this moment; the step's busy,
 * idle and all-idle times are the differences between its two events.
 */

/* eight characters as a little-endian word */
#define C8(a, b, c, d, e, f, g, h)					\
	((__u64)(a) | (__u64)(b) << 8 | (__u64)(c) << 16 | (__u64)(d) << 24 |	\
	 (__u64)(e) << 32 | (__u64)(f) << 40 | (__u64)(g) << 48 | (__u64)(h) << 56)

/*
 * The dpm phase whose step @name (a copy, PMTRACE_NAME_LEN bytes, zeroed
 * past its NUL) is, or PMT_NO_PHASE: compared as three words (string
 * literals would need a .rodata.str section, which Debian 12's libbpf
 * does not load).
 */
static __always_inline __u32 phase_of(const char *name)
{
	__u64 w0 = *(const __u64 *)name, w1 = *(const __u64 *)(name + 8);
	__u64 w2 = *(const __u64 *)(name + 16);

	if (w0 == C8('d', 'p', 'm', '_', 'p', 'r', 'e', 'p') &&
	    w1 == C8('a', 'r', 'e', 0, 0, 0, 0, 0))
		return PMT_PREPARE;
	if (w0 == C8('d', 'p', 'm', '_', 'c', 'o', 'm', 'p') &&
	    w1 == C8('l', 'e', 't', 'e', 0, 0, 0, 0))
		return PMT_COMPLETE;
	if (w0 == C8('d', 'p', 'm', '_', 's', 'u', 's', 'p')) {
		if (w1 == C8('e', 'n', 'd', 0, 0, 0, 0, 0))
			return PMT_SUSPEND;
		if (w1 == C8('e', 'n', 'd', '_', 'l', 'a', 't', 'e') && !w2)
			return PMT_SUSPEND_LATE;
		if (w1 == C8('e', 'n', 'd', '_', 'n', 'o', 'i', 'r') &&
		    w2 == C8('q', 0, 0, 0, 0, 0, 0, 0))
			return PMT_SUSPEND_NOIRQ;
	}
	if (w0 == C8('d', 'p', 'm', '_', 'r', 'e', 's', 'u')) {
		if (w1 == C8('m', 'e', 0, 0, 0, 0, 0, 0))
			return PMT_RESUME;
		if (w1 == C8('m', 'e', '_', 'e', 'a', 'r', 'l', 'y') && !w2)
			return PMT_RESUME_EARLY;
		if (w1 == C8('m', 'e', '_', 'n', 'o', 'i', 'r', 'q') && !w2)
			return PMT_RESUME_NOIRQ;
	}
	return PMT_NO_PHASE;
}

static __always_inline void note_phase(__u32 phase, bool start, __u32 tid);

SEC("tp_btf/suspend_resume")
int BPF_PROG(suspend_resume, const char *action, int val, bool start)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0, ncpus = online_cpus();
	struct pmtrace_allidle *g = bpf_map_lookup_elem(&allidle, &zero);
	struct pmtrace_phase_event *p = bpf_map_lookup_elem(&phase_scratch, &zero);
	struct snap_ctx sc;
	__u64 word, acc;
	void *ring;

	ring = bpf_map_lookup_elem(&rings, &cpu);
	if (!p || !g || !ring) {
		count_drop();
		return 0;
	}
	sc.now = bpf_ktime_get_ns();
	sc.p = p;
	/* the whole name zeroed: phase_of() reads past its NUL */
	__builtin_memset(&p->e, 0, sizeof(p->e));
	__builtin_memset(p->name, 0, sizeof(p->name));
	p->e.ts = sc.now;
	p->e.cpu = cpu;
	p->e.tid = (__u32)bpf_get_current_pid_tgid();
	p->e.kind = start ? PMT_PHASE_BEGIN : PMT_PHASE_END;
	p->e.value = val;
	bpf_probe_read_kernel_str(p->name, sizeof(p->name), action);
	note_phase(phase_of(p->name), start, p->e.tid);
	p->ncpus = ncpus < PMTRACE_MAX_CPUS ? ncpus : PMTRACE_MAX_CPUS;
	p->unknown = 0;
	bpf_loop(p->ncpus, snap_cpu, &sc, 0);
	p->all_idle = 0;
	for (int try = 0; try < 8; try++) {
		word = READ_ONCE(g->word);
		acc = READ_ONCE(g->acc);
		if ((word & ALLIDLE_PENDING) || READ_ONCE(g->word) != word)
			continue;
		if ((word & ALLIDLE_COUNT) == ncpus)
			acc += (sc.now - (word >> 8)) & ALLIDLE_TIME;
		p->all_idle = acc;
		p->all_idle_valid = 1;
		break;
	}
	if (bpf_ringbuf_output(ring, p, sizeof(*p), BPF_RB_NO_WAKEUP))
		count_drop();
	return 0;
}

/*
 * The device a thread is working on in the current phase, from
 * dpm_device_start to dpm_device_end (both on that thread): what the
 * events in between add goes here, and user space gets it all in the one
 * done event.  Task storage is a pointer away from the task: cheaper than
 * a ring buffer event per callback start and end.
 */
struct work {
	__u64 dev;			/* 0: none */
	__u64 start, cb_start, cb_end, wait_begin;
	__u32 cpu, nvcsw, nivcsw;
	__u32 phase;			/* the callback is the work: its phase */
	int event;			/* its PM event, then */
	__u32 sync_phase;		/* the thread runs prepare or complete: phase + 1 */
	bool async;			/* no dpm events: not the phase's thread */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct work);
} works SEC(".maps");

/*
 * Prepare and complete: their devices get no dpm_device events; the thread
 * running the phase brackets each one's callback with
 * device_pm_callback_start/end.  That thread's task storage says it is in
 * one of them (not a global: Debian 12's libbpf would need a .data map).
 * Without dpm_device events (a stock kernel) the other phases are known
 * the same way, from their steps, in the stock_phase map: their callbacks
 * run on the phase's thread (sync) or on async workers.
 */
static __always_inline void note_phase(__u32 phase, bool start, __u32 tid)
{
	struct pmtrace_stock_phase *sp;
	struct work *w;
	__u32 zero = 0;

	if (phase == PMT_NO_PHASE)
		return;
	if (phase == PMT_PREPARE || phase == PMT_COMPLETE) {
		w = bpf_task_storage_get(&works, bpf_get_current_task_btf(), 0,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (w)
			w->sync_phase = start ? phase + 1 : 0;
		return;
	}
	sp = bpf_map_lookup_elem(&stock_phase, &zero);
	if (!sp || have_dpm())
		return;
	/* phase and tid in one store: x86-64 is little-endian, phase first */
	WRITE_ONCE(*(__u64 *)sp, (__u64)tid << 32 | (start ? phase : PMT_NO_PHASE));
}

/* this thread's work on @dev, or NULL */
static __always_inline struct work *work_on(struct device *dev)
{
	struct work *w = bpf_task_storage_get(&works, bpf_get_current_task_btf(), 0, 0);

	return w && w->dev == (__u64)dev ? w : NULL;
}

static __always_inline struct work *work_begin(struct device *dev, __u32 phase)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct work *w = bpf_task_storage_get(&works, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (!w) {
		count_drop();
		return NULL;
	}
	w->dev = (__u64)dev;
	w->start = bpf_ktime_get_ns();
	w->cb_start = 0;
	w->cb_end = 0;
	w->wait_begin = 0;
	w->cpu = bpf_get_smp_processor_id();
	w->nvcsw = t->nvcsw;
	w->nivcsw = t->nivcsw;
	w->phase = phase;
	w->async = false;
	return w;
}

/* done: the device's whole work in the phase, in one event */
static __always_inline void work_done(struct device *dev, struct work *w, __u32 phase,
				      int event, bool async, int error, int outcome)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct pmtrace_event *e = reserve(PMT_DONE);

	if (!e)
		return;
	e->dev = (__u64)dev;
	note_name(dev);
	e->phase = phase;
	e->event = event;
	e->async = async;
	e->value = error;
	e->outcome = outcome;
	if (!w)
		count_drop();	/* no start seen on this thread */
	if (w) {
		e->start = w->start;
		e->cb_start = w->cb_start;
		e->cb_end = w->cb_end;
		e->start_cpu = w->cpu;
		e->nvcsw = t->nvcsw - w->nvcsw;
		e->nivcsw = t->nivcsw - w->nivcsw;
		w->dev = 0;
	}
	submit(e);
}

/*
 * In prepare and complete a device's callback is its whole work; on a
 * kernel without dpm_device events, in every phase (all that is seen).
 */
SEC("tp_btf/device_pm_callback_start")
int BPF_PROG(callback_start, struct device *dev, const char *pm_ops, int event)
{
	struct work *w = bpf_task_storage_get(&works, bpf_get_current_task_btf(), 0, 0);

	if (w && w->sync_phase) {
		w = work_begin(dev, w->sync_phase - 1);
		if (w) {
			w->cb_start = w->start;
			w->event = event;
		}
		return 0;
	}
	if (!have_dpm()) {
		__u32 zero = 0, tid = (__u32)bpf_get_current_pid_tgid();
		struct pmtrace_stock_phase *sp = bpf_map_lookup_elem(&stock_phase, &zero);
		__u64 now = sp ? READ_ONCE(*(__u64 *)sp) : PMT_NO_PHASE;

		if ((__u32)now == PMT_NO_PHASE)
			return 0;
		w = work_begin(dev, (__u32)now);
		if (w) {
			w->cb_start = w->start;
			w->event = event;
			w->async = tid != now >> 32;
		}
		return 0;
	}
	w = work_on(dev);
	if (w)
		w->cb_start = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/device_pm_callback_end")
int BPF_PROG(callback_end, struct device *dev, int error)
{
	struct work *w = work_on(dev);

	if (!w)
		return 0;
	w->cb_end = bpf_ktime_get_ns();
	if (w->phase != PMT_NO_PHASE)
		work_done(dev, w, w->phase, w->event, w->async, error, PMT_OUTCOME_UNKNOWN);
	return 0;
}

/*
 * The kernel's phase (enum suspend_stat_step) as pmtrace numbers it: the
 * same order, from prepare on.
 */
static __always_inline __u32 pmt_phase(int phase)
{
	return phase - bpf_core_enum_value(enum suspend_stat_step, SUSPEND_PREPARE);
}

/* queued: on the thread that walks the list; the name comes with done */
SEC("tp_btf/dpm_device_queued")
int BPF_PROG(queued, struct device *dev, int phase, int event)
{
	struct pmtrace_event *e = reserve(PMT_QUEUED);

	if (!e)
		return 0;
	e->dev = (__u64)dev;
	e->phase = pmt_phase(phase);
	e->event = event;
	e->async = 1;
	submit(e);
	return 0;
}

SEC("tp_btf/dpm_device_start")
int BPF_PROG(start, struct device *dev, int phase, int event, bool async)
{
	work_begin(dev, PMT_NO_PHASE);
	return 0;
}

SEC("tp_btf/dpm_device_end")
int BPF_PROG(done, struct device *dev, int phase, int event, bool async, int error, int outcome)
{
	work_done(dev, work_on(dev), pmt_phase(phase), event, async, error, outcome);
	return 0;
}

SEC("tp_btf/dpm_device_wait_start")
int BPF_PROG(wait_begin, struct device *dev, struct device *other, int reason, int phase, int event)
{
	struct work *w = work_on(dev);

	if (w)
		w->wait_begin = bpf_ktime_get_ns();
	return 0;
}

/* a wait that blocked: one event, with the device waited for */
SEC("tp_btf/dpm_device_wait_end")
int BPF_PROG(wait_end, struct device *dev, struct device *other, int reason, int phase, int event)
{
	struct work *w = work_on(dev);
	struct pmtrace_event *e = reserve(PMT_WAIT_END);

	if (!e)
		return 0;
	e->dev = (__u64)dev;
	e->other = (__u64)other;
	note_name(other);
	e->relation = reason;
	e->phase = pmt_phase(phase);
	e->event = event;
	e->start = w ? w->wait_begin : 0;
	if (w)
		w->wait_begin = 0;
	else
		count_drop();
	submit(e);
	return 0;
}

/* an event of one device, with two numbers and its name */
static __always_inline int named(struct device *dev, __u8 kind, int event, int value)
{
	struct pmtrace_event *e = reserve(kind);

	if (!e)
		return 0;
	e->dev = (__u64)dev;
	note_name(dev);
	e->event = event;
	e->value = value;
	submit(e);
	return 0;
}

/* a runtime callback: which one, the function, whether forced, its value */
static __always_inline int rpm_callback(struct device *dev, __u8 kind, int req, void *cb,
					bool forced, int ret)
{
	struct pmtrace_event *e = reserve(kind);

	if (!e)
		return 0;
	e->dev = (__u64)dev;
	note_name(dev);
	e->event = req;
	e->other = (__u64)cb;
	e->async = forced;
	e->value = ret;
	submit(e);
	return 0;
}

SEC("tp_btf/rpm_callback_start")
int BPF_PROG(rpm_cb_start, struct device *dev, int req, void *cb, bool forced)
{
	return rpm_callback(dev, PMT_RPM_CB_START, req, cb, forced, 0);
}

SEC("tp_btf/rpm_callback_end")
int BPF_PROG(rpm_cb_end, struct device *dev, int req, void *cb, bool forced, int ret)
{
	return rpm_callback(dev, PMT_RPM_CB_END, req, cb, forced, ret);
}

SEC("tp_btf/rpm_request_queue")
int BPF_PROG(rpm_queue, struct device *dev, int req, bool queued)
{
	return named(dev, PMT_RPM_QUEUE, req, queued);
}

SEC("tp_btf/rpm_request_cancel")
int BPF_PROG(rpm_cancel, struct device *dev, int req)
{
	return named(dev, PMT_RPM_CANCEL, req, 0);
}

SEC("tp_btf/rpm_request_run")
int BPF_PROG(rpm_run, struct device *dev, int req)
{
	return named(dev, PMT_RPM_RUN, req, 0);
}
