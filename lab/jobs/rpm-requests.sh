# rpm-requests: runtime PM's asynchronous requests (seed 002) on pmsynth
# devices, one trace per section (rpm-*.trace, events in rpm-*.txt):
#  - pm_request_resume() and an asynchronous suspend are queued to pm_wq
#    (rpm_request_queue, then rpm_request_run and the callback in a
#    kworker); a request for the state the device is in returns 1;
#  - pm_schedule_suspend(): the timer fires no earlier than its delay; a
#    resume request before it cancels it; a later schedule replaces an
#    earlier one (one suspend, at the later one's time);
#  - autosuspend delay changes while the autosuspend timer is pending: a
#    shorter delay that has passed suspends at once, -1 forbids runtime
#    suspend (a usage reference and a resume), a delay again allows it.
#
# summary: runtime PM: queued requests, suspend timers, autosuspend delay changes
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:1000
q
t
a autosuspend=1000
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
mark() { echo "pmlab: $*" > $TRACEFS/trace_marker; }
# section NAME: save the trace of the section that ends, as rpm-NAME.trace
# (raw) and rpm-NAME.txt (rpm_events), and start the next one
section() {
	trace_off
	trace_save "rpm-$1.trace"
	rpm_events "rpm-$1.trace" > "rpm-$1.txt"
	trace_on
}
# since_mark TRACE PATTERN: ms from the trace's marker to the first event
# line matching PATTERN after it (-1 if none)
since_mark() {
	awk -v pat="$2" '
		{ t = $0; sub(/^.* \[[0-9]+\] [^ ]+ +/, "", t); sub(/:.*/, "", t) }
		/tracing_mark_write: pmlab:/ { m = t; next }
		m != "" && $0 ~ pat { printf "%d\n", (t - m) * 1000; found = 1; exit }
		END { if (!found) print -1 }' "$1"
}
trace_setup 'rpm:*'
trace_on

# --- queued requests go through pm_wq ---
rpmctl q idle-busy on > /dev/null
teq "request-resume q (suspended): queued, 0" 0 "$(rpmctl q request-resume)"
sleep 0.2
teq "request-resume q: active once pm_wq ran it" active "$(status q)"
teq "request-resume q again (active): 1" 1 "$(rpmctl q request-resume)"
teq "request-suspend q: queued, 0" 0 "$(rpmctl q request-suspend)"
sleep 0.2
teq "request-suspend q: suspended once pm_wq ran it" suspended "$(status q)"
teq "request-suspend q again (suspended): 1" 1 "$(rpmctl q request-suspend)"
section queued
teq "events: resume queued, run by pm_wq, then the callback" "in order" \
	"$(ev_order rpm-queued.txt '^rpm_request_queue q request=resume queued=1' \
	'^rpm_request_run q request=resume' '^rpm_callback_start q resume' '^rpm_status q status=RPM_ACTIVE' \
	'^rpm_request_queue q request=suspend queued=1' '^rpm_request_run q request=suspend' \
	'^rpm_callback_start q suspend' '^rpm_status q status=RPM_SUSPENDED')"
teq "events: both callbacks ran in a kworker (pm_wq)" 2 \
	"$(grep -E 'rpm_callback_start: q (resume|suspend)' rpm-queued.trace | grep -c '^ *kworker/')"
teq "events: requests queued: resume, the idle notification after it, suspend (none for the state q was in)" \
	"resume idle suspend" \
	"$(sed -n 's/^rpm_request_queue q request=\([a-z]*\) .*/\1/p' rpm-queued.txt | tr '\n' ' ' | sed 's/ $//')"

# --- pm_schedule_suspend(): the timer ---
rpmctl t idle-busy on > /dev/null
teq "resume t (sync): 0" 0 "$(rpmctl t resume)"
mark schedule-suspend t 300
teq "schedule-suspend t 300: 0" 0 "$(rpmctl t schedule-suspend 300)"
sleep 0.1
teq "schedule-suspend: still active 100 ms later" active "$(status t)"
sleep 0.4
teq "schedule-suspend: suspended after its delay" suspended "$(status t)"
section timer
w=$(since_mark rpm-timer.trace 'rpm_request_queue: t request=suspend')
tcheck "schedule-suspend: the timer's request came no earlier than 300 ms (after $w ms)" \
	[ "$w" -ge 300 ]
teq "schedule-suspend: one suspend callback" 1 "$(calls t runtime_suspend)"

# a resume request cancels the pending timer
rpmctl t resume > /dev/null
teq "schedule-suspend t 300, then request-resume (active): 1" 1 \
	"$(rpmctl t schedule-suspend 300 > /dev/null; rpmctl t request-resume)"
sleep 0.6
teq "cancelled timer: t still active" active "$(status t)"
teq "cancelled timer: no second suspend callback" 1 "$(calls t runtime_suspend)"
section cancel
teq "cancelled timer: no suspend request was queued" 0 \
	"$(ev_count rpm-cancel.txt '^rpm_request_queue t request=suspend')"

# a later schedule replaces an earlier one
mark schedule-suspend t 2000 then 200
rpmctl t schedule-suspend 2000 > /dev/null
teq "schedule-suspend t 2000 then 200: 0" 0 "$(rpmctl t schedule-suspend 200)"
sleep 0.5
teq "replaced timer: suspended by the later one, well before 2000 ms" suspended "$(status t)"
sleep 2
section replace
w=$(since_mark rpm-replace.trace 'rpm_request_queue: t request=suspend')
tcheck "replaced timer: its request came after 200 ms, before 2000 (after $w ms)" \
	[ "$w" -ge 200 -a "$w" -lt 2000 ]
teq "replaced timer: the earlier timer never fired (one timer suspend)" 1 \
	"$(ev_count rpm-replace.txt '^rpm_suspend t flags-1 ')"
teq "replaced timer: two suspend callbacks in all" 2 "$(calls t runtime_suspend)"

# --- autosuspend delay changes while the timer is pending ---
echo 1 > $B/a/hold || fail "cannot hold a"
echo 0 > $B/a/hold
sleep 0.2
teq "autosuspend 1000 ms: active 200 ms after the last use" active "$(status a)"
teq "autosuspend-delay 100 while pending: 0" 0 "$(rpmctl a autosuspend-delay 100)"
teq "autosuspend-delay 100: suspended at once (100 ms had passed)" suspended "$(status a)"
teq "autosuspend-delay -1: 0" 0 "$(rpmctl a autosuspend-delay -1)"
teq "autosuspend-delay -1: resumed, runtime suspend forbidden (usage 1)" "active 1" \
	"$(status a) $(cat $B/a/power/runtime_usage)"
teq "autosuspend-delay 100 again: 0" 0 "$(rpmctl a autosuspend-delay 100)"
teq "autosuspend-delay 100 again: usage 0, still active (last use just now)" "active 0" \
	"$(status a) $(cat $B/a/power/runtime_usage)"
sleep 0.4
teq "autosuspend-delay 100 again: suspended after the delay" suspended "$(status a)"
teq "a: two suspend callbacks" 2 "$(calls a runtime_suspend)"
section autosuspend
teq "events: the shortened delay's suspend ran inside the command (no pm_wq request)" "in order" \
	"$(ev_order rpm-autosuspend.txt '^rpm_idle a ' '^rpm_callback_start a idle' \
	'^rpm_suspend a ' '^rpm_callback_start a suspend' '^rpm_status a status=RPM_SUSPENDED' \
	'^rpm_resume a ' '^rpm_callback_start a resume')"
trace_off
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (first: $(pmsynth_value oracle first))" 0 "$(pmsynth_value oracle violations)"
