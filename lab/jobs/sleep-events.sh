# sleep-events: what the series' system-sleep device events say when a
# transition leaves the common path, on four pmsynth devices (top; a, b,
# c its children; b's suspend callback takes 20 ms):
#  1. a's suspend callback waits for b with device_pm_wait_for_dev():
#     callback-wait.trace;
#  2. c's suspend callback signals a wakeup event (pm_system_wakeup()):
#     the transition must fail, abort.trace;
#  3. the next transition goes through: after.trace.
# Plus the oracle and the module status after all three.
#
# summary: the series' device events when a transition leaves the common path (wait, wakeup abort)
. /pmlab/pmlib.sh
DPM_EVENTS="power:dpm_device_queued power:dpm_device_start power:dpm_device_wait_start
	power:dpm_device_wait_end power:dpm_device_end"
pm_setup
pmsynth_insmod
cat > small.txt <<'S'
@defaults lat=system:1000,prepare:0,complete:0 async=1
top
a parent=top
b parent=top lat=suspend:20000
c parent=top
S
pmsynth_load small.txt || fail "small.txt refused"
pm_cycle 1 || fail "warm-up transition failed"

pmsynth_ctl wait-for a b suspend || fail "wait-for refused"
trace_setup $DPM_EVENTS power:suspend_resume power:device_pm_callback_start \
	power:device_pm_callback_end
trace_on
pm_cycle 1 || fail "transition with a callback waiting failed"
trace_off
trace_save callback-wait.trace
pmsynth_ctl wait-for a off || fail "wait-for off refused"

pmsynth_ctl fault c suspend wakeup once || fail "wakeup fault refused"
trace_on
pm_cycle 1 && fail "the transition went through a wakeup event"
trace_off
trace_save abort.trace

trace_on
pm_cycle 1 || fail "the transition after the aborted one failed"
trace_off
trace_save after.trace
cat $PMSYNTH/oracle > oracle.txt
cat $PMSYNTH/status > status.txt
