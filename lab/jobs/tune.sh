# tune REPS SCENARIO CLOCK [SCRIPT]: make tune's measurement, in one boot.
#
# Loads device scenario SCENARIO (a file in EXTRA, with pmtrace), makes one
# untraced warm-up transition, then records with bpf/pmtrace, the i-th
# transition of every set with pmsynth's jitter-round i (the same sleeps):
#   without SCRIPT: REPS sync transitions (pm_async=0, sync-i.jsonl), REPS
#     with the scenario's own async flags (pm_async=1, asis-i.jsonl), and
#     REPS with every scenario device async (all-async-i.jsonl);
#   with SCRIPT (pmtune --script's power/async writes, a file in EXTRA):
#     runs it, then REPS transitions with that set (tuned-i.jsonl).
# Each begin record carries the scenario's name and sha256, devices,
# pm_links, the mode (sync or async), the CPUs, CLOCK and opt_in (as-is,
# all-async, tuned, or all-sync for the sync ones).
#
# summary: make tune's transitions: sync, as-is and all-async, or a pmtune set, recorded by pmtrace
. /pmlab/pmlib.sh
[ $# -eq 3 ] || [ $# -eq 4 ] || fail "usage: tune.sh REPS SCENARIO CLOCK [SCRIPT]"
reps=$1
scen=/pmlab/$2
name=${2%.txt}
clock=$3
script=${4:+/pmlab/$4}
case $reps in ''|*[!0-9]*|0) fail "REPS must be a positive number, got '$reps'";; esac
case $clock in virtual|real) ;; *) fail "CLOCK must be virtual or real, got '$clock'";; esac
[ -f "$scen" ] || fail "no scenario file $scen"
[ -z "$script" ] || [ -f "$script" ] || fail "no script file $script"
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $2 refused"
devices=$(pmsynth_value status devices)
links=$(pmsynth_value status links)
sha=$(sha256sum "$scen" | cut -d' ' -f1)
cpus=$(nproc)
echo "scenario=$name devices=$devices links=$links cpus=$cpus clock=$clock" > devices.txt

# record FILE ASYNC OPT_IN ROUND: one transition under pmtrace
record() {
	echo "jitter-round $4" > $PMSYNTH/control || fail "pmsynth refused jitter-round $4"
	mode=async
	[ "$2" = 0 ] && mode=sync
	echo "echo $2 > /sys/power/pm_async && echo mem > /sys/power/state" > /tmp/cycle.sh
	/pmlab/pmtrace -o "$1" -m "scenario=$name" -m "scenario_sha256=$sha" \
		-m "devices=$devices" -m "links=$links" -m "mode=$mode" -m "cpus=$cpus" \
		-m "clock=$clock" -m "transition=$4" -m "opt_in=$3" -c 'sh /tmp/cycle.sh' \
		2> "${1%.jsonl}.log" || fail "$1 under pmtrace failed: $(tail -2 "${1%.jsonl}.log")"
}

# record_set SET ASYNC OPT_IN: REPS transitions, SET-i.jsonl
record_set() {
	i=1
	while [ "$i" -le "$reps" ]; do
		log "$1 transition $i/$reps"
		record "$1-$i.jsonl" "$2" "$3" "$i"
		i=$((i + 1))
	done
}

# the scenario devices' power/async, "NAME enabled|disabled" lines
async_flags() {
	find /sys/devices/pmsynth -mindepth 3 -path '*/power/async' | while read -r f; do
		d=${f%/power/async}
		echo "${d##*/} $(cat "$f")"
	done | sort
}

pm_cycle 0 || fail "warm-up transition failed"
if [ -z "$script" ]; then
	async_flags > async-asis.txt
	record_set sync 0 all-sync
	record_set asis 1 as-is
	find /sys/devices/pmsynth -mindepth 3 -path '*/power/async' > /tmp/async.lst
	while read -r f; do
		echo enabled > "$f" || fail "cannot write $f"
	done < /tmp/async.lst
	async_flags > async-all.txt
	[ "$(grep -c ' enabled$' async-all.txt)" = "$devices" ] ||
		fail "all-async: $(grep -c ' enabled$' async-all.txt) of $devices devices enabled (power/async missing? CONFIG_PM_ADVANCED_DEBUG)"
	record_set all-async 1 all-async
else
	sh "$script" > script.log 2>&1 || fail "$4 failed: $(tail -1 script.log)"
	async_flags > async-tuned.txt
	record_set tuned 1 tuned
fi
echo "$reps" > reps.txt
cat $PMSYNTH/oracle > oracle.txt
