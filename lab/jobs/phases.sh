# phases [REPS [DEVICES]]: REPS full transitions (mem + pm_test core) with
# pm_async=0, then REPS with pm_async=1, each traced with the kernel's own
# power events.  DEVICES: a pmsynth scenario file passed in EXTRA, loaded
# first (none: only the guest's own devices).
# Writes sync-N.trace and async-N.trace (tracefs text).
#
# summary: REPS transitions sync then async, traced with the kernel's own power events (ftrace text)
. /pmlab/pmlib.sh
reps=${1:-1}
pm_setup
if [ -n "${2:-}" ]; then
	pmsynth_insmod
	pmsynth_load "/pmlab/$2" || fail "device scenario $2 refused"
	echo "$2 $(pmsynth_value status devices) $(pmsynth_value status links)" > devices.txt
fi
trace_setup power:suspend_resume power:device_pm_callback_start \
	power:device_pm_callback_end
# One untraced warm-up transition: first-time work is not what we measure.
pm_cycle 0 || fail "warm-up transition failed"
for mode in sync async; do
	[ $mode = sync ] && async=0 || async=1
	i=1
	while [ $i -le "$reps" ]; do
		trace_on
		pm_cycle $async || fail "$mode transition $i failed"
		trace_off
		trace_save $mode-$i.trace
		i=$((i + 1))
	done
done
echo "$reps" > reps.txt
[ -z "${2:-}" ] || cat $PMSYNTH/oracle > oracle.txt
