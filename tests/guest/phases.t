#!/bin/sh
# The default bench scenario: sync and async transitions traced with every
# system-sleep phase, analysed by phase-times.
. "$(dirname "$0")/../lib.sh"
tap_plan 7
w=$BUILD/test-guest/phases
mkdir -p "$(dirname "$w")"
guest phases "$w" 1
ok $GUEST_STATUS "phases job exits 0"
for ph in dpm_prepare dpm_suspend dpm_suspend_late dpm_suspend_noirq \
	dpm_resume_noirq dpm_resume_early dpm_resume dpm_complete; do
	for m in sync async; do
		grep -q "suspend_resume: $ph\[[0-9]*\] end" "$w/$m-1.trace" || missing="$missing $m:$ph"
	done
done
check "all eight phases traced in both modes${missing:+ (missing:$missing)}" [ -z "${missing:-}" ]
check "device callbacks are traced" grep -q device_pm_callback_end "$w/sync-1.trace"
make -s -C "$TOP/bench" O="$BUILD/tools" >/dev/null
"$BUILD/tools/phase-times" "sync=$w/sync-1.trace" "async=$w/async-1.trace" > "$w/table.txt" 2>&1
ok $? "phase-times analyses the guest's traces"
check "table has the resume_noirq phase" grep -q '^dpm_resume_noirq' "$w/table.txt"
check "table has a speed-up column" grep -q 'speed-up' "$w/table.txt"
check "table totals the dpm phases" grep -q '^all dpm_\* phases' "$w/table.txt"
tap_done
