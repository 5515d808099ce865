#!/bin/sh
# run-tests: parallel
# The series' runtime PM events on pmsynth devices: every runtime callback
# the PM core runs is traced, ->runtime_idle() and those run by
# pm_runtime_force_suspend/resume() (forced=1) included, with the function
# it picked; every work item queued for a request ends in exactly one run
# or one cancellation.  6.12 has none of these events.
. "$(dirname "$0")/../lib.sh"
tap_plan 10
w=$BUILD/test-guest/rpm-events
t=$w/rpm.trace
pmsynth_guest rpm-events "$w"
ok $GUEST_STATUS "rpm-events job runs to the end"

check "forced: its runtime_suspend ran forced, by pmsynth's callback, during system suspend" \
	grep -q 'rpm_callback_start: forced suspend pmsynth_runtime_suspend \[pmsynth\] forced=1$' "$t"
check "forced: and its runtime_resume, forced, during system resume" \
	grep -q 'rpm_callback_end: forced resume pmsynth_runtime_resume \[pmsynth\] forced=1 ret=0$' "$t"
n=$(grep -c 'rpm_callback_[a-z]*: forced [a-z]* [a-z_]* \[pmsynth\] forced=1' "$t")
check "forced: exactly one forced suspend and one forced resume, start and end each ($n)" [ "$n" -eq 4 ]
check "hub: runtime_idle is traced (pmsynth_runtime_idle)" \
	grep -q 'rpm_callback_start: hub idle pmsynth_runtime_idle \[pmsynth\] forced=0$' "$t"
# every callback start has its end, per thread and device
awk '/ rpm_callback_(start|end): / { x = $0; sub(/.*rpm_callback_/, "", x)	# "start: DEVICE ..."
		kind = x; sub(/:.*/, "", kind); sub(/^[a-z]+: /, "", x); split(x, g, " ")
		k = $1 SUBSEP g[1]; if (kind == "start") open[k]++; else if (open[k]-- <= 0) bad++ }
	END { for (k in open) if (open[k]) bad++; exit bad > 0 }' "$t"
ok $? "every rpm_callback_start has its rpm_callback_end on the same thread"

c=$(grep -c 'rpm_request_cancel: plain request=' "$t")
check "plain: cancellations are traced (at least 3 of the 5 requests: $c)" [ "$c" -ge 3 ]
# per device: each queued=1 ends in one run or one cancel before the next
awk '/ rpm_request_(queue|cancel|run): / {
		x = $0; sub(/.*rpm_request_/, "", x)	# "KIND: DEVICE request=R ..."
		k = x; sub(/:.*/, "", k); y = x; sub(/^[a-z]+: /, "", y); split(y, g, " "); d = g[1]
		if (k == "queue" && x ~ /queued=1/) { if (open[d]) bad++; open[d] = 1; q++ }
		else if (k == "queue") { if (!open[d]) bad++ }
		else { if (!open[d]) bad++; open[d] = 0; ends++ }
	}
	END { for (d in open) if (open[d]) left++; printf "%d %d %d %d\n", q, ends, bad, left }' "$t" > "$w/requests.txt"
set -- $(cat "$w/requests.txt")
check "every queued work item ends in one run or cancel ($1 queued, $2 ended, ${3:-?} out of order, ${4:-0} still open)" \
	sh -c "[ ${1:-0} -gt 0 ] && [ ${3:-1} -eq 0 ] && [ ${1:-0} -eq $(( ${2:-0} + ${4:-0} )) ]"
check "no run carries request=none (a cancelled request ends as a cancel)" \
	sh -c "! grep -q 'rpm_request_run: .* request=none' '$t'"
check "the oracle saw no violation" grep -qx 'violations 0' "$w/oracle.txt"
tap_done
