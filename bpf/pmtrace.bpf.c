// SPDX-License-Identifier: GPL-2.0
/*
 * pmtrace.bpf.c - forward the suspend/resume and runtime PM events to user
 * space through a ring buffer (libbpf CO-RE; vmlinux.h is generated from
 * the lab kernel's BTF at build time).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "pmtrace.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} events SEC(".maps");

/* events dropped because the ring buffer was full (an array map, not a
 * global: the lab kernel's libbpf probe for global data fails) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dropped SEC(".maps");

static __always_inline struct pmtrace_event *reserve(__u8 kind)
{
	struct pmtrace_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__u32 zero = 0;
		__u64 *n = bpf_map_lookup_elem(&dropped, &zero);

		if (n)
			__sync_fetch_and_add(n, 1);
		return NULL;
	}
	e->ts = bpf_ktime_get_ns();
	e->cpu = bpf_get_smp_processor_id();
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->kind = kind;
	e->phase = 0;
	e->async = 0;
	e->relation = 0;
	e->event = 0;
	e->value = 0;
	e->name[0] = '\0';
	e->other[0] = '\0';
	return e;
}

/*
 * Hand @e to user space without waking it up: a wake-up per event is an
 * irq_work self-interrupt per event, and while a transition runs the
 * reader is frozen anyway.  pmtrace polls every 100 ms; past half the
 * buffer the reader is woken at once.
 */
static __always_inline void submit(struct pmtrace_event *e)
{
	__u64 flags = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > (8 << 20) ?
		      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;

	bpf_ringbuf_submit(e, flags);
}

/* a __data_loc string of a tracepoint record */
static __always_inline void loc_str(char *dst, void *ctx, __u32 loc)
{
	bpf_probe_read_kernel_str(dst, PMTRACE_NAME_LEN, (char *)ctx + (loc & 0xffff));
}

SEC("tracepoint/power/suspend_resume")
int suspend_resume(struct trace_event_raw_suspend_resume *ctx)
{
	struct pmtrace_event *e = reserve(ctx->start ? PMT_PHASE_BEGIN : PMT_PHASE_END);

	if (!e)
		return 0;
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), ctx->action);
	e->value = ctx->val;
	submit(e);
	return 0;
}

/* an event naming one device (a __data_loc string) with two numbers */
static __always_inline int named(void *ctx, __u32 loc, __u8 kind, int event,
				 int value)
{
	struct pmtrace_event *e = reserve(kind);

	if (!e)
		return 0;
	loc_str(e->name, ctx, loc);
	e->event = event;
	e->value = value;
	submit(e);
	return 0;
}

SEC("tracepoint/power/device_pm_callback_start")
int callback_start(struct trace_event_raw_device_pm_callback_start *ctx)
{
	return named(ctx, ctx->__data_loc_device, PMT_CB_START, ctx->event, 0);
}

SEC("tracepoint/power/device_pm_callback_end")
int callback_end(struct trace_event_raw_device_pm_callback_end *ctx)
{
	return named(ctx, ctx->__data_loc_device, PMT_CB_END, 0, ctx->error);
}

static __always_inline int dpm_device(struct trace_event_raw_dpm_async_device *ctx,
				      __u8 kind)
{
	struct pmtrace_event *e = reserve(kind);

	if (!e)
		return 0;
	loc_str(e->name, ctx, ctx->__data_loc_device);
	e->phase = ctx->phase;
	e->event = ctx->event;
	e->async = ctx->async;
	submit(e);
	return 0;
}

SEC("tracepoint/dpm_async/dpm_async_queued")
int queued(struct trace_event_raw_dpm_async_device *ctx)
{
	return dpm_device(ctx, PMT_QUEUED);
}

SEC("tracepoint/dpm_async/dpm_async_start")
int start(struct trace_event_raw_dpm_async_device *ctx)
{
	return dpm_device(ctx, PMT_START);
}

static __always_inline int dpm_wait(struct trace_event_raw_dpm_async_wait *ctx,
				    __u8 kind)
{
	struct pmtrace_event *e = reserve(kind);

	if (!e)
		return 0;
	loc_str(e->name, ctx, ctx->__data_loc_device);
	loc_str(e->other, ctx, ctx->__data_loc_other);
	e->relation = ctx->relation;
	e->phase = ctx->phase;
	e->event = ctx->event;
	submit(e);
	return 0;
}

SEC("tracepoint/dpm_async/dpm_async_wait_begin")
int wait_begin(struct trace_event_raw_dpm_async_wait *ctx)
{
	return dpm_wait(ctx, PMT_WAIT_BEGIN);
}

SEC("tracepoint/dpm_async/dpm_async_wait_end")
int wait_end(struct trace_event_raw_dpm_async_wait *ctx)
{
	return dpm_wait(ctx, PMT_WAIT_END);
}

SEC("tracepoint/dpm_async/dpm_async_done")
int done(struct trace_event_raw_dpm_async_done *ctx)
{
	struct pmtrace_event *e = reserve(PMT_DONE);

	if (!e)
		return 0;
	loc_str(e->name, ctx, ctx->__data_loc_device);
	e->phase = ctx->phase;
	e->event = ctx->event;
	e->async = ctx->async;
	e->value = ctx->error;
	submit(e);
	return 0;
}

SEC("tracepoint/rpm/rpm_callback_start")
int rpm_cb_start(struct trace_event_raw_rpm_callback_start *ctx)
{
	return named(ctx, ctx->__data_loc_name, PMT_RPM_CB_START, ctx->status, 0);
}

SEC("tracepoint/rpm/rpm_callback_end")
int rpm_cb_end(struct trace_event_raw_rpm_callback_end *ctx)
{
	return named(ctx, ctx->__data_loc_name, PMT_RPM_CB_END, ctx->status, ctx->ret);
}

SEC("tracepoint/rpm/rpm_request_queue")
int rpm_queue(struct trace_event_raw_rpm_request_queue *ctx)
{
	return named(ctx, ctx->__data_loc_name, PMT_RPM_QUEUE, ctx->req, ctx->queued);
}

SEC("tracepoint/rpm/rpm_request_run")
int rpm_run(struct trace_event_raw_rpm_request_run *ctx)
{
	return named(ctx, ctx->__data_loc_name, PMT_RPM_RUN, ctx->req, 0);
}
