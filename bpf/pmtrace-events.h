/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmtrace-events.h - which of pmtrace's tracepoints the running kernel
 * has, from its BTF: the programs of a missing group are not loaded, and
 * the records say what they lack (bpf/README.md, "Stock kernels").
 */
#ifndef PMTRACE_EVENTS_H
#define PMTRACE_EVENTS_H

#include <stdbool.h>

struct bpf_object_skeleton;

/* pmtrace's programs, by the tracepoints they need */
enum pmt_group {
	PMT_GROUP_BASE,		/* power: suspend_resume, device_pm_callback_*, cpu_idle */
	PMT_GROUP_DPM,		/* power:dpm_device_* (the series' patch 0001) */
	PMT_GROUP_RPM,		/* rpm:rpm_callback_*, rpm_request_* (patch 0003) */
	PMT_NR_GROUPS,
};

/* the group names --ignore-events takes */
extern const char * const pmt_group_names[PMT_NR_GROUPS];

struct pmt_events {
	bool have[PMT_NR_GROUPS];	/* every tracepoint there, not ignored */
	bool ignored[PMT_NR_GROUPS];	/* --ignore-events */
	/* the group's tracepoints this kernel lacks, space-separated */
	char missing[PMT_NR_GROUPS][256];
};

/**
 * events_detect() - find @sk's programs' tracepoints in the kernel's BTF
 * @sk: the opened (not loaded) skeleton; its programs are "tp_btf/NAME"
 * @ev: ev->ignored set by the caller; the rest is filled in
 *
 * Looks up "btf_trace_NAME" in /sys/kernel/btf/vmlinux for every program,
 * turns autoload off for the programs of a group that is ignored or lacks
 * any of its tracepoints (a half-present group is no use), and says once
 * on stderr what the records lose.
 *
 * Return: 0; -ENOENT, with the cause on stderr, when the kernel has no BTF
 * or lacks one of the base group's tracepoints.
 */
int events_detect(const struct bpf_object_skeleton *sk, struct pmt_events *ev);

#endif /* PMTRACE_EVENTS_H */
