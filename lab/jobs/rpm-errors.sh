# rpm-errors: runtime PM callback errors (seed 002) on pmsynth devices
# with faults injected (control "fault"), checked in power/runtime_* and
# the rpm events (rpm.txt):
#  - -EBUSY or -EAGAIN from ->runtime_suspend(): the device stays active,
#    not in error; nothing retries by itself (no busy mark since); the
#    next request suspends it; an autosuspend that failed so too;
#  - any other error (-EIO) from ->runtime_suspend() or ->runtime_resume()
#    sets power.runtime_error: status "error", every later call refused
#    (-EINVAL) without a callback, a usage reference refused, until the
#    status is set again with runtime PM disabled, which clears it.
#
# summary: runtime PM: -EBUSY/-EAGAIN leave a device active, other errors block it until cleared
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:1000
b
g
r autosuspend=100
x
y
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
trace_setup 'rpm:*'
trace_on

# --- -EBUSY once, -EAGAIN always: active, no error, retried on request ---
for d in b g x; do
	rpmctl $d idle-busy on > /dev/null
	rpmctl $d resume > /dev/null
done
pmsynth_ctl fault b runtime_suspend 16 once || fail "fault refused"
teq "b: suspend with ->runtime_suspend() -EBUSY: -16" -16 "$(rpmctl b suspend)"
teq "b: -EBUSY leaves it active, not in error" active "$(status b)"
sleep 0.5
teq "b: nothing retried the suspend by itself" 1 "$(calls b runtime_suspend)"
teq "b: the next suspend: 0" 0 "$(rpmctl b suspend)"
teq "b: suspended" suspended "$(status b)"
pmsynth_ctl fault g runtime_suspend 11 always || fail "fault refused"
teq "g: suspend with -EAGAIN: -11" -11 "$(rpmctl g suspend)"
teq "g: request-suspend with -EAGAIN: queued, 0" 0 "$(rpmctl g request-suspend)"
sleep 0.2
teq "g: active after two -EAGAIN suspends, not in error" "active 2" \
	"$(status g) $(calls g runtime_suspend)"
pmsynth_ctl fault g runtime_suspend 11 off
teq "g: fault off, suspend: 0" 0 "$(rpmctl g suspend)"
pmsynth_ctl fault r runtime_suspend 16 once || fail "fault refused"
echo 1 > $B/r/hold || fail "cannot hold r"
echo 0 > $B/r/hold
sleep 0.5
teq "r: its autosuspend failed with -EBUSY: active, one attempt, not retried" "active 1" \
	"$(status r) $(calls r runtime_suspend)"
echo 1 > $B/r/hold
echo 0 > $B/r/hold
sleep 0.5
teq "r: the next use's autosuspend: suspended" "suspended 2" "$(status r) $(calls r runtime_suspend)"

# --- -EIO: runtime_error blocks everything until cleared ---
pmsynth_ctl fault x runtime_suspend 5 once || fail "fault refused"
teq "x: suspend with -EIO: -5" -5 "$(rpmctl x suspend)"
teq "x: status error" error "$(status x)"
teq "x: in error, suspend refused: -EINVAL" -22 "$(rpmctl x suspend)"
teq "x: in error, resume refused: -EINVAL" -22 "$(rpmctl x resume)"
teq "x: in error, request-idle refused: -EINVAL" -22 "$(rpmctl x request-idle)"
teq "x: in error, a usage reference refused" 1 "$(echo 1 > $B/x/hold 2>/dev/null; echo $?)"
teq "x: no callback ran while in error" "1 1" "$(calls x runtime_suspend) $(calls x runtime_resume)"
rpmctl x disable > /dev/null
teq "x: set-active with runtime PM disabled: 0 (clears the error)" 0 "$(rpmctl x set-active)"
rpmctl x enable > /dev/null
teq "x: cleared: active" active "$(status x)"
teq "x: cleared: suspend: 0" 0 "$(rpmctl x suspend)"
pmsynth_ctl fault y runtime_resume 5 once || fail "fault refused"
teq "y: resume with -EIO: -5" -5 "$(rpmctl y resume)"
teq "y: status error" error "$(status y)"
teq "y: in error, resume refused: -EINVAL" -22 "$(rpmctl y resume)"
rpmctl y disable > /dev/null
teq "y: set-suspended with runtime PM disabled: 0 (clears the error)" 0 "$(rpmctl y set-suspended)"
rpmctl y enable > /dev/null
teq "y: cleared: suspended" suspended "$(status y)"
teq "y: cleared: resume: 0" 0 "$(rpmctl y resume)"
teq "y: two resume callbacks in all" 2 "$(calls y runtime_resume)"
trace_off
trace_save rpm.trace
rpm_events rpm.trace > rpm.txt
teq "events: b's -EBUSY, then back to RPM_ACTIVE" "in order" \
	"$(ev_order rpm.txt '^rpm_callback_end b suspend .* ret=-16' '^rpm_status b status=RPM_ACTIVE' \
	'^rpm_return_int b rpm_suspend ret=-16')"
teq "events: x's -EIO, then refused calls return -EINVAL with no callback" "in order" \
	"$(ev_order rpm.txt '^rpm_callback_end x suspend .* ret=-5' '^rpm_return_int x rpm_suspend ret=-5' \
	'^rpm_return_int x rpm_suspend ret=-22' '^rpm_return_int x rpm_resume ret=-22' \
	'^rpm_status x status=RPM_ACTIVE' '^rpm_callback_start x suspend')"
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (first: $(pmsynth_value oracle first))" 0 "$(pmsynth_value oracle violations)"
