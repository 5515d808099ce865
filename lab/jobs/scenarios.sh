# scenarios SCENARIO...: every scenario (files passed in EXTRA) on the
# three ways of handling devices: for each, one transition sync
# (pm_async=0), one with Linux 6.12's async scheduling (pm_async=2, the
# series' lab-only switch) and one with the series' (pm_async=1), each
# recorded with bpf/pmtrace (SCENARIO/MODE-1.jsonl, for the host's trace
# ordering check with critpath) and each with 0 pmsynth oracle violations
# and every device back to active.  Same sleeps for the three
# (jitter-round 1).
#
# summary: every given scenario sync and on both async schedulers, pmtrace-recorded, oracle-checked
. /pmlab/pmlib.sh
[ $# -ge 1 ] || fail "usage: scenarios.sh SCENARIO..."
pm_setup
pmsynth_insmod
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
for f in "$@"; do
	name=${f%.txt}
	mkdir -p "$name"
	pmsynth_load "/pmlab/$f" || fail "scenario $f refused"
	pmsynth_ctl jitter-round 1 || fail "pmsynth refused jitter-round"
	devices=$(pmsynth_value status devices)
	links=$(pmsynth_value status links)
	sha=$(sha256sum "/pmlab/$f" | cut -d' ' -f1)
	for mode in sync legacy async; do
		case $mode in sync) a=0;; legacy) a=2;; async) a=1;; esac
		echo "echo $a > /sys/power/pm_async && echo mem > /sys/power/state" > /tmp/cycle.sh
		pmsynth_ctl oracle-reset
		/pmlab/pmtrace -o "$name/$mode-1.jsonl" -m "scenario=$name" -m "scenario_sha256=$sha" \
			-m "devices=$devices" -m "links=$links" -m "mode=$mode" -m "cpus=$(nproc)" \
			-m clock=virtual -m transition=1 -c 'sh /tmp/cycle.sh' 2> "$name/$mode.log"
		teq "$name $mode (pm_async=$a): the transition succeeds" 0 $?
		teq "$name $mode: 0 oracle violations" 0 "$(pmsynth_value oracle violations)"
		teq "$name $mode: every device back to active" 0 "$(pmsynth_value status not_active)"
	done
done
