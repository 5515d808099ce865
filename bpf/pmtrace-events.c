// SPDX-License-Identifier: GPL-2.0
/*
 * pmtrace-events.c - which of pmtrace's tracepoints the running kernel
 * has (pmtrace-events.h).  A kernel without the series (a distribution's,
 * a vendor's) has the base group only: pmtrace then records each device's
 * callback as its work in the phase, on the thread that ran it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "pmtrace-events.h"

const char * const pmt_group_names[PMT_NR_GROUPS] = { "base", "dpm", "rpm" };

/* what the records lose without the group, said once */
static const char * const group_loss[PMT_NR_GROUPS] = {
	[PMT_GROUP_DPM] =
	"device records are the callbacks alone: no queued, start, waits or outcome "
	"(no queue/wait split: those fields are null, the begin record lists them as "
	"absent), and a device whose callback did not run has no record",
	[PMT_GROUP_RPM] = "no rpm_callback or rpm_request records",
};

static const char * const group_events[PMT_NR_GROUPS] = {
	[PMT_GROUP_DPM] = "power:dpm_device_* events (the pmlab series' patch 0001)",
	[PMT_GROUP_RPM] = "rpm:rpm_callback_*/rpm_request_* events (the pmlab series' patch 0003)",
};

static enum pmt_group group_of(const char *tp)
{
	if (!strncmp(tp, "dpm_device_", 11))
		return PMT_GROUP_DPM;
	if (!strncmp(tp, "rpm_", 4))
		return PMT_GROUP_RPM;
	return PMT_GROUP_BASE;
}

static void add_missing(struct pmt_events *ev, enum pmt_group g, const char *tp)
{
	char *m = ev->missing[g];
	size_t len = strlen(m);

	snprintf(m + len, sizeof(ev->missing[g]) - len, "%s%s", len ? " " : "", tp);
}

int events_detect(const struct bpf_object_skeleton *sk, struct pmt_events *ev)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	char type[128];
	int i, g;

	if (!vmlinux) {
		fprintf(stderr,
			"pmtrace: cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): error %d (%s); "
			"pmtrace's programs are CO-RE and tp_btf: the kernel needs CONFIG_DEBUG_INFO_BTF=y\n",
			-errno, strerror(errno));
		return -ENOENT;
	}
	for (g = 0; g < PMT_NR_GROUPS; g++) {
		ev->have[g] = !ev->ignored[g];
		ev->missing[g][0] = '\0';
	}
	for (i = 0; i < sk->prog_cnt; i++) {
		const char *sec = bpf_program__section_name(*sk->progs[i].prog);
		const char *tp = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;

		snprintf(type, sizeof(type), "btf_trace_%s", tp);
		if (btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF) < 0) {
			add_missing(ev, group_of(tp), tp);
			ev->have[group_of(tp)] = false;
		}
	}
	btf__free(vmlinux);
	if (ev->missing[PMT_GROUP_BASE][0]) {
		fprintf(stderr,
			"pmtrace: this kernel lacks the tracepoints %s: pmtrace needs power:suspend_resume, "
			"device_pm_callback_start/end and cpu_idle (CONFIG_PM_SLEEP, CONFIG_TRACEPOINTS)\n",
			ev->missing[PMT_GROUP_BASE]);
		return -ENOENT;
	}
	for (i = 0; i < sk->prog_cnt; i++) {
		struct bpf_program *prog = *sk->progs[i].prog;
		const char *sec = bpf_program__section_name(prog);

		if (!ev->have[group_of(strchr(sec, '/') ? strchr(sec, '/') + 1 : sec)])
			bpf_program__set_autoload(prog, false);
	}
	for (g = PMT_GROUP_DPM; g < PMT_NR_GROUPS; g++) {
		if (ev->have[g])
			continue;
		if (ev->ignored[g])
			fprintf(stderr, "pmtrace: ignoring the %s (--ignore-events %s): %s\n",
				group_events[g], pmt_group_names[g], group_loss[g]);
		else
			fprintf(stderr, "pmtrace: this kernel has no %s (missing: %s): %s\n",
				group_events[g], ev->missing[g], group_loss[g]);
	}
	return 0;
}
