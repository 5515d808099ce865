# machine CLOCK [REPS [PMTRACE_ARGS]]: "Measure your own machine" on the guest, as a user
# would on theirs (bench/measure-machine.sh): the guest's own devices (no
# pmsynth) imported from sysfs (sysfs-list.sh, sysfs2scen), REPS (default
# 1) sync and async transitions at pm_test=core recorded by pmtrace, on
# whatever kernel the guest booted (a stock kernel: pmtrace says what it
# lacks; PMTRACE_ARGS "--ignore-events dpm,rpm" makes a kernel with the
# series record as one without).  Needs pmtrace, sysfs2scen, sysfs-list.sh and
# measure-machine.sh in /pmlab (EXTRA).  Writes machine/: devices.txt,
# links.txt, machine.txt, sync-N.jsonl, async-N.jsonl (and their .log:
# pmtrace's stderr), run.txt; kernel.txt: uname -r and the BTF's size;
# events.txt: the power and rpm tracepoints the kernel has.  Then each
# bpftrace tool in /pmlab (tracepoints/*.bt, when EXTRA has them) around
# one async transition: bt/NAME.out, .err and .status (its exit status).
#
# summary: the real-machine workflow on the guest's own devices: sysfs import, pmtrace around sync and async transitions
. /pmlab/pmlib.sh
[ $# -ge 1 ] && [ $# -le 3 ] || fail "usage: machine.sh CLOCK [REPS [PMTRACE_ARGS]]"
case $1 in virtual|real) ;; *) fail "CLOCK must be virtual or real, got '$1'";; esac
for f in pmtrace sysfs2scen sysfs-list.sh measure-machine.sh; do
	[ -e "/pmlab/$f" ] || fail "/pmlab/$f missing (EXTRA)"
done
pm_setup
echo "$(uname -r) btf $(wc -c < /sys/kernel/btf/vmlinux 2>/dev/null || echo none)" > kernel.txt
ls /sys/kernel/tracing/events/power /sys/kernel/tracing/events/rpm > events.txt 2>&1
PM_TEST=core CLOCK=$1 REPS=${2:-1} PMTRACE_ARGS=${3:-} sh /pmlab/measure-machine.sh machine ||
	fail "measure-machine.sh failed"
# bpftrace -c splits its command at spaces (no shell): a script
echo 'echo mem > /sys/power/state' > /tmp/suspend.sh
echo 1 > /sys/power/pm_async
for t in /pmlab/*.bt; do
	[ -e "$t" ] || continue
	mkdir -p bt
	n=$(basename "$t" .bt)
	s=0
	timeout 120 bpftrace "$t" -c "sh /tmp/suspend.sh" > "bt/$n.out" 2> "bt/$n.err" || s=$?
	echo "$s" > "bt/$n.status"
done
