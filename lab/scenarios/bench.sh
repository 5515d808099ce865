# bench REPS SCENARIO: the measurement of bench/run-bench.sh, in one boot.
#
# Loads device scenario SCENARIO (a file passed in EXTRA, with pmtrace),
# makes one untraced warm-up transition, then records with bpf/pmtrace
# REPS sync transitions (pm_async=0) and REPS async ones (pm_async=1):
# sync-N.jsonl, async-N.jsonl.  Each begin record carries the scenario's
# name and sha256, the devices and pm_links the module created, the mode
# and the CPU count, so the analysis can refuse records of another run.
#
# Instrumentation cost, same boot: REPS more async transitions without
# pmtrace after the traced ones.  Every
# transition's device phases are also timed by the kernel itself
# (pm_debug_messages: "... of devices complete after X msecs" in dmesg),
# which needs no tracing at all: kernel-N-MODE.txt, MODE one of sync,
# async (pmtrace attached) and bare (nothing attached).
. /pmlab/pmlib.sh
reps=$1
scen=/pmlab/$2
name=${2%.txt}
[ -f "$scen" ] || fail "no scenario file $scen"
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $2 refused"
devices=$(pmsynth_value status devices)
links=$(pmsynth_value status links)
sha=$(sha256sum "$scen" | cut -d' ' -f1)
cpus=$(nproc)
echo "scenario=$name devices=$devices links=$links cpus=$cpus" > devices.txt
echo 1 > /sys/power/pm_debug_messages || fail "no /sys/power/pm_debug_messages"

# kernel_times FILE: the device-phase times the kernel printed during the
# last transition ("PHASE MSECS" lines), from a cleared ring buffer.
kernel_times() {
	dmesg -c | sed -n 's/.*PM: \(.*\) of devices complete after \([0-9.]*\) msecs.*/\1 \2/p' |
		tr ' ' '_' | sed 's/_\([0-9.]*\)$/ \1/' > "$1"
	[ -s "$1" ] || fail "the kernel printed no device-phase times for $1"
}

# cycle MODE N: one transition, with pmtrace unless MODE is bare.
cycle() {
	[ "$1" = sync ] && async=0 || async=1
	dmesg -c > /dev/null
	if [ "$1" = bare ]; then
		pm_cycle $async || fail "bare transition $2 failed"
	else
		echo "echo $async > /sys/power/pm_async && echo mem > /sys/power/state" > /tmp/cycle.sh
		/pmlab/pmtrace -o "$1-$2.jsonl" -m "scenario=$name" -m "scenario_sha256=$sha" \
			-m "devices=$devices" -m "links=$links" -m "mode=$1" -m "cpus=$cpus" \
			-m "transition=$2" -c 'sh /tmp/cycle.sh' 2> "$1-$2.log" ||
			fail "$1 transition $2 under pmtrace failed: $(tail -2 "$1-$2.log")"
	fi
	kernel_times "kernel-$2-$1.txt"
}

pm_cycle 0 || fail "warm-up transition failed"
for mode in sync async; do
	i=1
	while [ "$i" -le "$reps" ]; do
		log "$mode transition $i/$reps"
		cycle $mode $i
		i=$((i + 1))
	done
done
i=1
while [ "$i" -le "$reps" ]; do
	log "bare async transition $i/$reps"
	cycle bare "$i"
	i=$((i + 1))
done
echo "$reps" > reps.txt
cat $PMSYNTH/oracle > oracle.txt
