#!/bin/sh
# run-tests: parallel
# DPM_FLAG_SMART_SUSPEND and DPM_FLAG_MAY_SKIP_RESUME on runtime-suspended
# pmsynth devices with driver callbacks (pmsynth's driver bound): the PM
# core skips suspend_late and suspend_noirq of both, resumes the
# smart_suspend one fully and leaves the may_skip_resume one suspended
# (resume_noirq and resume_early skipped, ->resume() run); the trace says
# so (skipped_left_suspended), the ordering oracle follows the core's
# skips and sees no violation.  A device without flags gets every callback.
. "$(dirname "$0")/../lib.sh"
tap_plan 12
w=$BUILD/test-guest/pmsynth-smart-suspend
pmsynth_guest pmsynth-smart-suspend "$w"
ok $GUEST_STATUS "pmsynth-smart-suspend job runs to the end"

calls() { sed -n "s/^$2 //p" "$w/calls-$1.txt"; }
seen() {	# DEV: its calls of the six phases, in order
	for ph in suspend suspend_late suspend_noirq resume_noirq resume_early resume; do
		printf '%s ' "$(calls $1 $ph)"
	done
}
check "the three are bound to pmsynth's driver and runtime-suspended before" \
	sh -c "cat '$w'/driver-*.txt | grep -cx pmsynth | grep -qx 3 && cat '$w'/before-*.txt | grep -cx suspended | grep -qx 3"
check "drv: every callback, in both transitions ($(seen drv))" [ "$(seen drv)" = "2 2 2 2 2 2 " ]
check "ss: suspend_late and suspend_noirq skipped, the rest run ($(seen ss))" [ "$(seen ss)" = "2 0 0 2 2 2 " ]
check "skipper: only suspend and resume run ($(seen skipper))" [ "$(seen skipper)" = "2 0 0 0 0 2 " ]
outcome() { sed -n "s/.* dpm_device_end: $1 phase=$2 \[[a-z]*\] async=[01] \([a-z_]*\) err=0$/\1/p" "$w/flags.trace"; }
check "ss: the trace says suspend_late was skipped to leave it suspended" \
	[ "$(outcome ss suspend_late)" = skipped_left_suspended ]
check "ss: and resume_noirq was called (smart_suspend alone: it must resume)" \
	[ "$(outcome ss resume_noirq)" = called ]
check "skipper: resume_noirq and resume_early skipped_left_suspended" \
	sh -c "[ '$(outcome skipper resume_noirq)' = skipped_left_suspended ] && [ '$(outcome skipper resume_early)' = skipped_left_suspended ]"
check "skipper: its resume callback called" [ "$(outcome skipper resume)" = called ]
check "drv: called in all six phases" [ "$(grep -c 'dpm_device_end: drv phase=[a-z_]* .* called err=0$' "$w/flags.trace")" -eq 6 ]
check "the oracle, following the core's skips, saw no violation" grep -qx 'violations 0' "$w/oracle.txt"
check "every device back to active in the oracle's system-sleep view" grep -qx 'not_active 0' "$w/status.txt"
tap_done
