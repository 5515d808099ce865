# cpu-accounting SCENARIO: one sync transition of a device scenario (a
# file passed in EXTRA), one async with Linux 6.12's scheduling (pm_async=2)
# and one with the series' (pm_async=1), each recorded by pmtrace
# (sync.jsonl, legacy.jsonl, async.jsonl), for
# tests/guest/cpu-accounting.t: the CPU accounting of
# the phase records and the workers and blocked waits of the device
# records, against what the scenario's shape says they must be.
#
# summary: one transition per mode recorded by pmtrace, for the CPU and worker accounting test
. /pmlab/pmlib.sh
[ $# -eq 1 ] || fail "usage: cpu-accounting.sh SCENARIO"
scen=/pmlab/$1
[ -f "$scen" ] || fail "no scenario file $scen"
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $1 refused"
sha=$(sha256sum "$scen" | cut -d' ' -f1)
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
pm_cycle 0 || fail "warm-up transition failed"
for mode in sync legacy async; do
	case $mode in sync) async=0;; legacy) async=2;; async) async=1;; esac
	echo "echo $async > /sys/power/pm_async && echo mem > /sys/power/state" > /tmp/cycle.sh
	/pmlab/pmtrace -o $mode.jsonl -m "scenario=${1%.txt}" -m "scenario_sha256=$sha" \
		-m "devices=$(pmsynth_value status devices)" -m "links=$(pmsynth_value status links)" \
		-m mode=$mode -m "cpus=$(nproc)" -m clock=virtual -c 'sh /tmp/cycle.sh' 2> $mode.log ||
		fail "$mode transition under pmtrace failed: $(tail -2 $mode.log)"
done
nproc > cpus.txt
