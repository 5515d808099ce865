# bench REPS SCENARIO CLOCK [lean]: the measurement of bench/run-bench.sh, in one
# boot.
#
# Loads device scenario SCENARIO (a file passed in EXTRA, with pmtrace),
# makes one untraced warm-up transition, then records with bpf/pmtrace
# REPS sync transitions (pm_async=0), REPS async ones with the series'
# scheduling (pm_async=1) and REPS with Linux 6.12's (pm_async=2, the
# series' lab-only switch), alternating the last two: sync-N.jsonl,
# async-N.jsonl, legacy-N.jsonl.  The N-th transition of every mode gets
# the same callback latencies (pmsynth's jitter-round N), so the modes run
# the same work and the sync runs' bound holds for the async ones.  Each
# begin record carries the scenario's
# name and sha256, the devices and pm_links the module created, the mode,
# the CPU count and CLOCK (virtual or real: how the host runs this guest),
# so the analysis can refuse records of another run.
#
# Instrumentation cost, same boot: each traced async transition is
# followed by one with nothing attached (bare) and one recorded by
# trace-cmd with the events pmtrace uses (tracecmd), so the three
# alternate.  Every transition's device phases are also timed by the
# kernel itself (pm_debug_messages: "... of devices complete after X
# msecs" in dmesg), which needs no tracing at all: kernel-N-MODE.txt,
# MODE one of sync, async (pmtrace attached), bare and tracecmd.  One last
# async transition runs pmtrace with BPF run-time statistics on
# (bpf-stats.txt: runs and ns per program; stats-1.jsonl), apart because
# the statistics cost time themselves.  Then, when /pmlab/kstacks is
# there, one transition per async scheduler under bpf/kstacks (on-CPU
# kernel stacks sampled at 4999 Hz of the guest's clock during the device
# phases): kstacks-async.folded, kstacks-6.12.folded (the kernel-stack
# flame graphs), apart because sampling costs time too.  The secondary
# CPUs' perf events end when pm_test=core takes them offline, so the
# resume-side phases are sampled on CPU 0 only.
#
# summary: make bench's measurement of one scenario: sync, 6.12's and the series' async, recorded by pmtrace (lean: those alone, for make sweep)
. /pmlab/pmlib.sh
# A fourth argument "lean" (make sweep's points) records only the sync,
# 6.12 and series transitions: no bare, trace-cmd, statistics or kstacks
# ones.
[ $# -eq 3 ] || [ $# -eq 4 ] || fail "usage: bench.sh REPS SCENARIO CLOCK [lean]"
lean=
case ${4:-} in lean) lean=1;; '') ;; *) fail "the fourth argument may only be 'lean', got '$4'";; esac
reps=$1
scen=/pmlab/$2
name=${2%.txt}
clock=$3
case $clock in virtual|real) ;; *) fail "CLOCK must be virtual or real, got '$clock'";; esac
[ -f "$scen" ] || fail "no scenario file $scen"
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $2 refused"
devices=$(pmsynth_value status devices)
links=$(pmsynth_value status links)
sha=$(sha256sum "$scen" | cut -d' ' -f1)
cpus=$(nproc)
echo "scenario=$name devices=$devices links=$links cpus=$cpus clock=$clock" > devices.txt
echo 1 > /sys/power/pm_debug_messages || fail "no /sys/power/pm_debug_messages"
ls /sys/bus/*/devices | grep -c . > guest-devices.txt


# the events pmtrace attaches to, for trace-cmd
TRACECMD_EVENTS="-e power:suspend_resume -e power:device_pm_callback_start
	-e power:device_pm_callback_end -e power:cpu_idle -e power:dpm_device_queued
	-e power:dpm_device_start -e power:dpm_device_wait_start -e power:dpm_device_wait_end
	-e power:dpm_device_end -e rpm:rpm_callback_start -e rpm:rpm_callback_end
	-e rpm:rpm_request_queue -e rpm:rpm_request_cancel -e rpm:rpm_request_run"

# cycle MODE N: one transition; MODE sync, async or legacy (pmtrace), bare,
# tracecmd, stats (pmtrace with BPF statistics), kstacks-async or
# kstacks-6.12 (bpf/kstacks).
cycle() {
	case $1 in sync) async=0;; legacy|kstacks-6.12) async=2;; *) async=1;; esac
	# the same sleeps for the N-th transition of every mode
	echo "jitter-round $2" > $PMSYNTH/control || fail "pmsynth refused jitter-round $2"
	dmesg -c > /dev/null
	echo "echo $async > /sys/power/pm_async && echo mem > /sys/power/state" > /tmp/cycle.sh
	case $1 in
	bare)
		pm_cycle $async || fail "bare transition $2 failed";;
	tracecmd)
		# shellcheck disable=SC2086
		trace-cmd record -q -C mono -b 16384 -o /tmp/tc.dat $TRACECMD_EVENTS \
			sh /tmp/cycle.sh > "tracecmd-$2.log" 2>&1 ||
			fail "transition $2 under trace-cmd failed: $(tail -2 "tracecmd-$2.log")"
		rm -f /tmp/tc.dat*;;
	kstacks-*)
		# equal folded lines (addresses in one function) added up
		/pmlab/kstacks -o /tmp/kstacks.folded -c 'sh /tmp/cycle.sh' 2> "$1.log" ||
			fail "transition $2 under kstacks failed: $(tail -2 "$1.log")"
		sort /tmp/kstacks.folded | awk '{ n = $NF; $NF = ""; sub(/ $/, "")
			if ($0 != s && c) { print s, c; c = 0 } s = $0; c += n } END { if (c) print s, c }' \
			> "$1.folded";;
	*)
		stats=
		[ "$1" = stats ] && stats="-s bpf-stats.txt"
		# shellcheck disable=SC2086
		/pmlab/pmtrace -o "$1-$2.jsonl" $stats -m "scenario=$name" -m "scenario_sha256=$sha" \
			-m "devices=$devices" -m "links=$links" -m "mode=$1" -m "cpus=$cpus" \
			-m "clock=$clock" -m "transition=$2" -c 'sh /tmp/cycle.sh' 2> "$1-$2.log" ||
			fail "$1 transition $2 under pmtrace failed: $(tail -2 "$1-$2.log")";;
	esac
	kernel_times "kernel-$2-$1.txt"
}

echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
pm_cycle 0 || fail "warm-up transition failed"
i=1
while [ "$i" -le "$reps" ]; do
	log "sync transition $i/$reps"
	cycle sync $i
	i=$((i + 1))
done
i=1
while [ "$i" -le "$reps" ]; do
	modes="legacy async bare tracecmd"
	[ -z "$lean" ] || modes="legacy async"
	for mode in $modes; do
		log "$mode async transition $i/$reps"
		cycle $mode $i
	done
	i=$((i + 1))
done
if [ -n "$lean" ]; then
	echo "$reps" > reps.txt
	cat $PMSYNTH/oracle > oracle.txt
	exit 0
fi
log "async transition with BPF statistics"
cycle stats 1
if [ -x /pmlab/kstacks ]; then
	for mode in async 6.12; do
		log "async transition ($mode) under kstacks"
		cycle kstacks-$mode 1
	done
fi
echo "$reps" > reps.txt
cat $PMSYNTH/oracle > oracle.txt
