#!/bin/sh
# run-tests: parallel
# The series' system-sleep device events off the common path: a callback
# waiting with device_pm_wait_for_dev() shows as a "callback" wait; a
# wakeup event during suspend shows where the transition was aborted and
# why (dpm_device_end "skipped_wakeup"), which devices were skipped for it
# and which were never suspended; the PM core's own skips (direct_complete)
# are told apart from callbacks.  6.12 has none of this.
. "$(dirname "$0")/../lib.sh"
tap_plan 13
w=$BUILD/test-guest/sleep-events
pmsynth_guest sleep-events "$w"
ok $GUEST_STATUS "sleep-events job runs to the end"

# 1. "a waits for callback b phase=suspend": a's callback blocked on b
check "a's callback wait for b is traced as a callback wait in suspend" \
	grep -q 'dpm_device_wait_start: a waits for callback b phase=suspend ' "$w/callback-wait.trace"
check "and ends" grep -q 'dpm_device_wait_end: a waits for callback b phase=suspend ' "$w/callback-wait.trace"
# it lasts most of b's 20 ms: a is done after b
awk '/ dpm_device_end: b phase=suspend / { b = $4 + 0 } / dpm_device_end: a phase=suspend / { a = $4 + 0 }
	END { exit !(a > 0 && b > 0 && a >= b) }' "$w/callback-wait.trace"
ok $? "a completes suspend after b, the device its callback waited for"

# 2. the abort: "DEV phase=suspend [suspend] async=N OUTCOME err=E"
outcomes() { # PHASE: "DEVICE OUTCOME ERR" of pmsynth devices
	sed -n "s/.* dpm_device_end: \([a-z]*\) phase=$1 \[[a-z]*\] async=[01] \([a-z_]*\) err=\(-*[0-9]*\)$/\1 \2 \3/p" \
		"$w/abort.trace" | grep -E '^(top|a|b|c) '
}
outcomes suspend > "$w/abort-suspend.txt"
outcomes resume > "$w/abort-resume.txt"
check "the wakeup aborted the suspend: some device was skipped for it, err=0 (the cause is the outcome)" \
	grep -qE 'dpm_device_end: .* phase=suspend .* skipped_wakeup err=0$' "$w/abort.trace"
first=$(grep -m1 'phase=suspend .* skipped_wakeup err=' "$w/abort.trace" | awk '{ print $4 + 0 }')
cdone=$(grep -m1 'dpm_device_end: c phase=suspend ' "$w/abort.trace" | awk '{ print $4 + 0 }')
awk -v f="${first:-0}" -v c="${cdone:-0}" 'BEGIN { exit !(f > 0 && c > 0 && f >= c) }'
ok $? "the first skipped_wakeup comes after c's callback signalled the event ($first >= $cdone)"
check "c's own callback ran and returned 0" grep -qx 'c called 0' "$w/abort-suspend.txt"
check "top, waiting for its children, was skipped (wakeup or abort), not called" \
	grep -qE '^top skipped_(wakeup|aborted) 0$' "$w/abort-suspend.txt"
# devices that began suspend after the first skip were all skipped
late=$(awk -v f="${first:-0}" '/ dpm_device_start: .* phase=suspend / && $4 + 0 > f { sub(/.*dpm_device_start: /, ""); print $1 }' "$w/abort.trace" |
	while read -r d; do grep -m1 "dpm_device_end: $d phase=suspend " "$w/abort.trace"; done | grep -c ' called err=')
check "no device begun after the abort had its suspend callback called ($late)" [ "$late" -eq 0 ]
check "resume: top, never suspended, is skipped as not suspended" grep -qx 'top skipped_not_suspended 0' "$w/abort-resume.txt"
check "resume: c, suspended, is resumed (called)" grep -qx 'c called 0' "$w/abort-resume.txt"
check "the transition after the abort went through, every pmsynth device called" \
	sh -c "[ \$(grep -cE 'dpm_device_end: (top|a|b|c) phase=[a-z_]+ .* called err=0$' '$w/after.trace') -eq 24 ]"
check "the oracle saw no violation in all three" grep -qx 'violations 0' "$w/oracle.txt"
tap_done
