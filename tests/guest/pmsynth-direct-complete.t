#!/bin/sh
# run-tests: parallel
# direct_complete: a pmsynth device whose ->prepare() returns 1 and that is
# runtime-suspended is left alone by the PM core (only ->prepare() and
# ->complete() run; dpm_device_end says skipped_direct_complete), while a
# runtime-active one and one with DPM_FLAG_NO_DIRECT_COMPLETE are suspended
# as usual, and so is their parent; the ordering oracle counts a device
# left suspended as suspended, and sees no violation.
. "$(dirname "$0")/../lib.sh"
tap_plan 11
w=$BUILD/test-guest/pmsynth-direct-complete
pmsynth_guest pmsynth-direct-complete "$w"
ok $GUEST_STATUS "pmsynth-direct-complete job runs to the end"

calls() { sed -n "s/^$2 //p" "$w/calls-$1.txt"; }
check "dc was runtime-suspended, held active, before the transition" \
	sh -c "[ \"\$(cat '$w/status-dc.txt')\" = suspended ] && [ \"\$(cat '$w/status-held.txt')\" = active ]"
check "dc: prepare and complete ran in both transitions ($(calls dc prepare), $(calls dc complete))" \
	sh -c "[ '$(calls dc prepare)' = 2 ] && [ '$(calls dc complete)' = 2 ]"
n=0
for ph in suspend suspend_late suspend_noirq resume_noirq resume_early resume; do
	n=$((n + $(calls dc $ph)))
done
check "dc: none of its six suspend/resume callbacks ran ($n calls)" [ "$n" -eq 0 ]
for d in ndc held top; do
	check "$d: suspended and resumed as usual (suspend $(calls $d suspend), resume $(calls $d resume))" \
		sh -c "[ '$(calls $d suspend)' = 2 ] && [ '$(calls $d resume)' = 2 ]"
done
c=$(grep -c 'dpm_device_end: dc phase=[a-z_]* .* skipped_direct_complete err=0$' "$w/direct.trace")
check "dc: dpm_device_end says skipped_direct_complete in all six phases ($c)" [ "$c" -eq 6 ]
c=$(grep -cE 'dpm_device_end: (ndc|held|top) phase=[a-z_]* .* called err=0$' "$w/direct.trace")
check "ndc, held, top: called in all six phases ($c of 18)" [ "$c" -eq 18 ]
check "the oracle saw no violation (dc counts as suspended for top)" grep -qx 'violations 0' "$w/oracle.txt"
check "every device active again" grep -qx 'not_active 0' "$w/status.txt"
tap_done
