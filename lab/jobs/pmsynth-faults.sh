# pmsynth-faults SCENARIO DEVICE [MODES]: inject -EIO once into DEVICE's callback of
# each system-sleep phase in turn, with pm_async on (async: the series'
# scheduling), on with Linux 6.12's scheduling (legacy: pm_async=2, the
# series' lab-only switch) and off (sync).
# Suspend-side failures (prepare, suspend, suspend_late, suspend_noirq)
# abort the transition; resume-side ones are reported and the system
# resumes.  Either way every device ends active with 0 oracle violations
# (whose own-state check catches a resume without its suspend, or a
# callback twice), every device's runtime PM status, usage count and
# active children are what they were before, and the next transition
# succeeds.
#
# summary: -EIO injected into one device's callback of each phase, on both schedulers and sync
. /pmlab/pmlib.sh
scen=/pmlab/$1 dev=$2 modes=${3:-1 2 0}	# pm_async values to run
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $1 refused"

# runtime_state FILE: "DEVICE STATUS USAGE ACTIVE_KIDS" per pmsynth device
runtime_state() {
	for d in /sys/bus/pmsynth/devices/*; do
		echo "${d##*/} $(cat $d/power/runtime_status) $(cat $d/power/runtime_usage) $(cat $d/power/runtime_active_kids)"
	done > "$1"
}

sleep 1
for async in $modes; do
	case $async in 1) m=async;; 2) m=legacy;; 0) m=sync;; esac
	for ph in prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete; do
		runtime_state "before-$m-$ph.txt"
		pmsynth_ctl fault "$dev" $ph 5 once || fail "cannot set fault"
		dmesg -c > /dev/null
		pm_cycle $async
		rc=$?
		dmesg > "fault-$m-$ph.dmesg"
		case $ph in
		prepare|suspend|suspend_late|suspend_noirq)
			tcheck "$m $ph: injected failure aborts the transition" [ $rc -ne 0 ];;
		*)
			tcheck "$m $ph: a $ph failure does not stop the resume" [ $rc -eq 0 ];;
		esac
		tcheck "$m $ph: the fault fired in $dev" grep -q "$dev: injected error -5 in $ph" "fault-$m-$ph.dmesg"
		teq "$m $ph: every device ends active" 0 "$(pmsynth_value status not_active)"
		teq "$m $ph: 0 oracle violations" 0 "$(pmsynth_value oracle violations)"
		sleep 0.5
		runtime_state "after-$m-$ph.txt"
		tcheck "$m $ph: every device's runtime status, usage and active children as before" \
			cmp -s "before-$m-$ph.txt" "after-$m-$ph.txt"
		pm_cycle $async
		teq "$m $ph: the next transition succeeds" 0 $?
		teq "$m $ph: and leaves every device active" 0 "$(pmsynth_value status not_active)"
	done
done
