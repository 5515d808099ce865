# rpm-status: pm_runtime_barrier(), disable/enable with requests pending,
# and pm_runtime_set_active/set_suspended's parent/child rules (seed 002),
# on pmsynth devices (p, its child c, and e), checked in power/runtime_*
# and in the rpm events (rpm.txt):
#  - the barrier waits for a callback in progress and cancels a timer;
#  - disable cancels a pending timer; while disabled, suspend is refused
#    (-EACCES), a resume of an active device returns 1, runtime_status
#    reads "unsupported";
#  - set_active/set_suspended: refused while enabled (-EAGAIN); an active
#    child under a suspended parent refused (-EBUSY); with the parent
#    active, the child counts as its active child; set_suspended drops it
#    and the parent, notified, suspends.
#
# summary: runtime PM: barrier, disable/enable with requests pending, set_active/set_suspended rules
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:1000
p
c parent=p
e lat=runtime_suspend:300000
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
kids() { cat $B/$1/power/runtime_active_kids; }
trace_setup 'rpm:*'
trace_on

# --- the barrier ---
rpmctl e idle-busy on > /dev/null
rpmctl e resume > /dev/null
teq "request-suspend e (300 ms callback): 0" 0 "$(rpmctl e request-suspend)"
sleep 0.1
teq "100 ms later: suspending" suspending "$(status e)"
teq "barrier during the suspend: 0 (no resume was pending)" 0 "$(rpmctl e barrier)"
teq "barrier: returned with the suspend complete" suspended "$(status e)"
rpmctl e resume > /dev/null
rpmctl e schedule-suspend 300 > /dev/null
teq "barrier with a timer pending: 0" 0 "$(rpmctl e barrier)"
sleep 0.6
teq "barrier: the timer was cancelled (e active, one suspend)" "active 1" \
	"$(status e) $(calls e runtime_suspend)"

# --- disable/enable ---
rpmctl e schedule-suspend 300 > /dev/null
teq "disable with a timer pending: accepted" 0 "$(rpmctl e disable)"
sleep 0.6
teq "disabled: runtime_enabled" disabled "$(cat $B/e/power/runtime_enabled)"
teq "disabled: runtime_status reads unsupported" unsupported "$(status e)"
teq "disabled: the pending timer was cancelled (one suspend)" 1 "$(calls e runtime_suspend)"
teq "disabled: suspend refused, -EACCES" -13 "$(rpmctl e suspend)"
teq "disabled: resume of an active device: 1" 1 "$(rpmctl e resume)"
teq "a second disable: refused" 1 "$(rpmctl e disable > /dev/null 2>&1; echo $?)"
teq "enable: accepted" 0 "$(rpmctl e enable)"
teq "enabled: active again, no callback ran meanwhile" "active 1 2" \
	"$(status e) $(calls e runtime_suspend) $(calls e runtime_resume)"
teq "a second enable: refused" 1 "$(rpmctl e enable > /dev/null 2>&1; echo $?)"

# --- set_active / set_suspended ---
teq "set-active while enabled: -EAGAIN" -11 "$(rpmctl c set-active)"
rpmctl c disable > /dev/null
teq "set-active c under suspended p: -EBUSY" -16 "$(rpmctl c set-active)"
teq "set-active refused: p has no active child" 0 "$(kids p)"
echo 1 > $B/p/hold || fail "cannot hold p"
teq "set-active c under active p: 0" 0 "$(rpmctl c set-active)"
teq "set-active: p has one active child, c's callbacks did not run" "1 0" \
	"$(kids p) $(calls c runtime_resume)"
rpmctl c enable > /dev/null
teq "enabled c: active" active "$(status c)"
echo 0 > $B/p/hold
sleep 0.3
teq "p's reference dropped: p stays active for its active child" active "$(status p)"
rpmctl c disable > /dev/null
teq "set-suspended c: 0" 0 "$(rpmctl c set-suspended)"
sleep 0.3
teq "set-suspended: p has no active child" 0 "$(kids p)"
teq "set-suspended: p, notified, suspended" suspended "$(status p)"
rpmctl c enable > /dev/null
teq "c enabled again: suspended, no callback of c ran" "suspended 0 0" \
	"$(status c) $(calls c runtime_suspend) $(calls c runtime_resume)"
# --- bad usage of the rpm command: refused, with the cause ---
bad() { echo "rpm $*" > $PMSYNTH/control 2>/dev/null && echo accepted || pmsynth_value status error; }
teq "rpm of an unknown device: refused" "rpm: no device 'nope'" "$(bad nope idle)"
teq "rpm with an unknown operation: refused" \
	"rpm: unknown operation 'frob' (lab/pmsynth/README.md lists them)" "$(bad e frob)"
teq "rpm schedule-suspend without a number: refused" \
	"rpm: schedule-suspend wants MS (0..60000), not 'soon'" "$(bad e schedule-suspend soon)"
teq "rpm autosuspend-delay below -1: refused" \
	"rpm: autosuspend-delay wants MS (-1..60000), not '-2'" "$(bad e autosuspend-delay -2)"
teq "rpm idle with an argument: refused" "rpm: idle wants no argument, not 'now'" "$(bad e idle now)"
teq "rpm ignore-children without on|off: refused" "rpm: ignore-children wants on|off, not ''" \
	"$(bad e ignore-children)"
teq "an enable without a disable: refused, named" \
	"rpm: e: enable without an rpm disable before it" "$(bad e enable)"
trace_off
trace_save rpm.trace
rpm_events rpm.trace > rpm.txt
teq "events: the barrier returned after the suspend callback ended" "in order" \
	"$(ev_order rpm.txt '^rpm_status e status=RPM_SUSPENDING' '^rpm_callback_end e suspend .* ret=0' \
	'^rpm_status e status=RPM_SUSPENDED' '^rpm_resume e ')"
teq "events: c's status set without callbacks: active, then suspended, then p's idle and suspend" "in order" \
	"$(ev_order rpm.txt '^rpm_status c status=RPM_ACTIVE' '^rpm_status c status=RPM_SUSPENDED' \
	'^rpm_idle p ' '^rpm_callback_start p suspend')"
teq "dmesg: the refused set-active named the inactive parent" 1 \
	"$(dmesg | grep -c 'trying to activate child device c but parent (p) is not active')"
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (first: $(pmsynth_value oracle first))" 0 "$(pmsynth_value oracle violations)"
