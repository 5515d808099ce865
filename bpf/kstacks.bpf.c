// SPDX-License-Identifier: GPL-2.0
/*
 * kstacks.bpf.c - on-CPU kernel stacks sampled during device phases.
 *
 * power:suspend_resume marks the device phases ("dpm_prepare" ...
 * "dpm_complete", begin and end); a perf event per CPU samples at a fixed
 * frequency; a sample taken inside a phase, on a CPU that is not idle,
 * counts its kernel stack under (phase, stack id).  Everything is
 * aggregated here: user space reads the two maps once, at the end.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "kstacks.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KSTACKS_DEPTH * sizeof(__u64));
	__uint(max_entries, KSTACKS_MAX_STACKS);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KSTACKS_MAX_STACKS);
	__type(key, struct kstacks_key);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kstacks_state);
} state SEC(".maps");

/* eight characters as a little-endian word */
#define C8(a, b, c, d, e, f, g, h)					\
	((__u64)(a) | (__u64)(b) << 8 | (__u64)(c) << 16 | (__u64)(d) << 24 |	\
	 (__u64)(e) << 32 | (__u64)(f) << 40 | (__u64)(g) << 48 | (__u64)(h) << 56)

/*
 * The phase (1..KSTACKS_NR_PHASES) named by the zero-padded words @w, or
 * 0; compared as immediates (no .rodata: see struct kstacks_state)
 */
static __always_inline __u32 phase_of(const __u64 *w)
{
	if (w[0] == C8('d', 'p', 'm', '_', 'p', 'r', 'e', 'p'))
		return w[1] == C8('a', 'r', 'e', 0, 0, 0, 0, 0) && !w[2] ? 1 : 0;
	if (w[0] == C8('d', 'p', 'm', '_', 'c', 'o', 'm', 'p'))
		return w[1] == C8('l', 'e', 't', 'e', 0, 0, 0, 0) && !w[2] ? 8 : 0;
	if (w[0] == C8('d', 'p', 'm', '_', 's', 'u', 's', 'p')) {
		if (w[1] == C8('e', 'n', 'd', 0, 0, 0, 0, 0) && !w[2])
			return 2;
		if (w[1] == C8('e', 'n', 'd', '_', 'l', 'a', 't', 'e') && !w[2])
			return 3;
		if (w[1] == C8('e', 'n', 'd', '_', 'n', 'o', 'i', 'r') &&
		    w[2] == C8('q', 0, 0, 0, 0, 0, 0, 0))
			return 4;
		return 0;
	}
	if (w[0] == C8('d', 'p', 'm', '_', 'r', 'e', 's', 'u') && !w[2]) {
		if (w[1] == C8('m', 'e', '_', 'n', 'o', 'i', 'r', 'q'))
			return 5;
		if (w[1] == C8('m', 'e', '_', 'e', 'a', 'r', 'l', 'y'))
			return 6;
		if (w[1] == C8('m', 'e', 0, 0, 0, 0, 0, 0))
			return 7;
	}
	return 0;
}

SEC("tp_btf/suspend_resume")
int BPF_PROG(suspend_resume, const char *action, int val, bool start)
{
	struct kstacks_state *st;
	__u64 w[4] = { 0 };
	__u32 zero = 0, p;

	bpf_probe_read_kernel_str(w, sizeof(w), action);
	p = w[3] ? 0 : phase_of(w);	/* w[3]: longer than any phase's name */
	st = bpf_map_lookup_elem(&state, &zero);
	if (p && st)
		st->phase = start ? p : 0;
	return 0;
}

SEC("perf_event")
int sample(struct bpf_perf_event_data *ctx)
{
	struct kstacks_key key = { 0 };
	struct kstacks_state *st;
	__u32 zero = 0;
	__u64 one = 1, *n;

	st = bpf_map_lookup_elem(&state, &zero);
	if (!st)
		return 0;
	__sync_fetch_and_add(&st->samples, 1);
	key.phase = st->phase;
	if (!key.phase) {
		__sync_fetch_and_add(&st->outside, 1);
		return 0;
	}
	if (!(bpf_get_current_pid_tgid() >> 32)) {	/* the idle task */
		__sync_fetch_and_add(&st->idle, 1);
		return 0;
	}
	key.stack_id = bpf_get_stackid(ctx, &stacks, 0);
	if (key.stack_id < 0) {
		__sync_fetch_and_add(&st->lost, 1);
		return 0;
	}
	n = bpf_map_lookup_elem(&counts, &key);
	if (!n && !bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST))
		return 0;
	if (!n)		/* another CPU added the key meanwhile, or the map is full */
		n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		__sync_fetch_and_add(&st->lost, 1);
	return 0;
}
