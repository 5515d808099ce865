#!/bin/sh
# measure-machine.sh - record suspend/resume on the machine this runs on,
# with that machine's own device graph, for critpath and the plots on any
# host (README, "Measure your own machine").  Any kernel: without the
# pmlab series pmtrace records the callbacks alone and says so.
#
# Usage: measure-machine.sh OUTDIR          (as root)
# Needs pmtrace, sysfs2scen and sysfs-list.sh in PATH or next to this
# script; a kernel with CONFIG_PM_SLEEP, CONFIG_BPF_EVENTS and BTF
# (CONFIG_DEBUG_INFO_BTF: /sys/kernel/btf/vmlinux).
# Environment:
#   REPS     transitions per mode (default 1): sync (pm_async 0) first,
#            then async (pm_async 1, the kernel's own scheduling)
#   STATE    the word written to /sys/power/state (default mem)
#   PM_TEST  /sys/power/pm_test during the transitions (default: left as
#            it is; core: every phase, no real sleep; none: real sleep)
#   WAKE     N: arm the RTC (/sys/class/rtc/rtc0/wakealarm) N s ahead of
#            each transition (real sleep needs a wake source)
#   CLOCK    the records' clock (default real; pmlab's guests: virtual)
#   PMTRACE_ARGS  more pmtrace arguments (--ignore-events dpm,rpm: record
#            a kernel with the series as one without)
# Writes OUTDIR/devices.txt, links.txt (sysfs-list.sh), machine.txt (the
# scenario: sysfs2scen), sync-N.jsonl and async-N.jsonl (pmtrace, each
# naming machine.txt's sha256, devices and links), run.txt (what ran);
# pm_async and pm_test are put back.  Then, anywhere:
#   critpath OUTDIR/machine.txt OUTDIR/sync-*.jsonl OUTDIR/async-*.jsonl
#   bench/figures.sh OUTDIR OUTDIR/machine.txt TITLE
# Exit status 0, or 1 after one line naming the cause (a failed
# transition's records are kept, named in the message).
set -eu
die() { echo "measure-machine: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: measure-machine.sh OUTDIR"
out=$1 here=$(cd "$(dirname "$0")" && pwd)
reps=${REPS:-1} state=${STATE:-mem} clock=${CLOCK:-real}
case $reps in ''|*[!0-9]*|0) die "REPS must be a positive number, got '$reps'";; esac
case $clock in real|virtual) ;; *) die "CLOCK must be real or virtual, got '$clock'";; esac
case ${WAKE:-} in ''|*[!0-9]*) [ -z "${WAKE:-}" ] || die "WAKE must be seconds, got '$WAKE'";; esac
tool() {
	if [ -x "$here/$1" ]; then echo "$here/$1"
	elif command -v "$1" >/dev/null 2>&1; then command -v "$1"
	else die "$1 not found (next to this script or in PATH)"
	fi
}
pmtrace=$(tool pmtrace) sysfs2scen=$(tool sysfs2scen) list=$(tool sysfs-list.sh)
[ "$(id -u)" -eq 0 ] || die "run as root (pmtrace loads BPF programs, suspend writes /sys/power/state)"
grep -qw "$state" /sys/power/state 2>/dev/null ||
	die "this kernel cannot '$state' (/sys/power/state: $(cat /sys/power/state 2>/dev/null || echo missing))"
[ -w /sys/power/pm_async ] || die "/sys/power/pm_async missing: CONFIG_PM_SLEEP off?"
[ -z "${PM_TEST:-}" ] || [ -w /sys/power/pm_test ] ||
	die "PM_TEST=$PM_TEST but /sys/power/pm_test is missing (CONFIG_PM_DEBUG)"
if [ -n "${WAKE:-}" ]; then
	[ -w /sys/class/rtc/rtc0/wakealarm ] || die "WAKE=$WAKE but /sys/class/rtc/rtc0/wakealarm is missing"
fi
mkdir -p "$out"

"$list" "$out" > "$out/list.log" || die "sysfs-list.sh failed (see $out/list.log)"
"$sysfs2scen" "$out/devices.txt" "$out/links.txt" > "$out/machine.txt.tmp" 2> "$out/import.log" ||
	die "sysfs2scen failed: $(tail -1 "$out/import.log")"
mv "$out/machine.txt.tmp" "$out/machine.txt"
sha=$(sha256sum "$out/machine.txt" | cut -d' ' -f1)
devs=$(grep -cv '^[[:space:]]*\(#\|@\|$\)' "$out/machine.txt" || true)
links=$(sed -n 's/.* masters=\([^ ]*\).*/\1/p' "$out/machine.txt" | tr ',' '\n' | grep -c . || true)

old_async=$(cat /sys/power/pm_async)
old_test=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/power/pm_test 2>/dev/null || true)
restore() {
	echo "$old_async" > /sys/power/pm_async
	[ -z "${PM_TEST:-}" ] || echo "$old_test" > /sys/power/pm_test
}
trap restore EXIT
[ -z "${PM_TEST:-}" ] || echo "$PM_TEST" > /sys/power/pm_test ||
	die "cannot set pm_test to '$PM_TEST' ($(cat /sys/power/pm_test))"
{
	echo "kernel $(uname -r)"
	echo "scenario machine.txt sha256 $sha devices $devs links $links"
	echo "state $state pm_test ${PM_TEST:-$old_test} reps $reps clock $clock wake ${WAKE:-none} pmtrace ${PMTRACE_ARGS:-}"
} > "$out/run.txt"
cpus=$(grep -c '^processor' /proc/cpuinfo)
for mode in sync async; do
	case $mode in sync) a=0;; *) a=1;; esac
	echo "$a" > /sys/power/pm_async
	i=1
	while [ "$i" -le "$reps" ]; do
		f=$out/$mode-$i.jsonl
		cmd="echo $state > /sys/power/state"
		[ -z "${WAKE:-}" ] ||
			cmd="echo 0 > /sys/class/rtc/rtc0/wakealarm && echo +$WAKE > /sys/class/rtc/rtc0/wakealarm && $cmd"
		"$pmtrace" -o "$f" -m scenario=machine -m "scenario_sha256=$sha" -m "devices=$devs" \
			-m "links=$links" -m "mode=$mode" -m "cpus=$cpus" -m "clock=$clock" \
			-m "transition=$i" ${PMTRACE_ARGS:-} -c "$cmd" 2> "$f.log" ||
			die "$mode transition $i failed: $(grep -v '^pmtrace: [0-9]* records' "$f.log" | tail -1) (records: $f)"
		echo "$mode $i: $(tail -1 "$f.log")" >> "$out/run.txt"
		i=$((i + 1))
	done
done
echo "measure-machine: $devs devices, $links device links, $reps sync + $reps async transitions in $out"
