# pmsynth-faults SCENARIO DEVICE: inject -EIO once into DEVICE's callback of
# each system-sleep phase in turn.  Suspend-side failures (prepare, suspend,
# suspend_late, suspend_noirq) abort the transition; resume-side ones are
# reported and the system resumes.  Either way every device ends active
# with 0 oracle violations, and the next transition succeeds.
. /pmlab/pmlib.sh
scen=/pmlab/$1 dev=$2
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $1 refused"
for ph in prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete; do
	pmsynth_ctl fault "$dev" $ph 5 once || fail "cannot set fault"
	dmesg -c > /dev/null
	pm_cycle 1
	rc=$?
	dmesg > "fault-$ph.dmesg"
	case $ph in
	prepare|suspend|suspend_late|suspend_noirq)
		tcheck "$ph: injected failure aborts the transition" [ $rc -ne 0 ];;
	*)
		tcheck "$ph: a $ph failure does not stop the resume" [ $rc -eq 0 ];;
	esac
	tcheck "$ph: the fault fired in $dev" grep -q "$dev: injected error -5 in $ph" "fault-$ph.dmesg"
	teq "$ph: every device ends active" 0 "$(pmsynth_value status not_active)"
	teq "$ph: 0 oracle violations" 0 "$(pmsynth_value oracle violations)"
	pm_cycle 1
	teq "$ph: the next transition succeeds" 0 $?
	teq "$ph: and leaves every device active" 0 "$(pmsynth_value status not_active)"
done
