# rpm-events: the series' runtime PM events on three pmsynth devices
# (hub; forced and plain, its children), all in rpm.trace:
#  - forced, held active, goes through pm_runtime_force_suspend/resume()
#    in one system transition (force-runtime on);
#  - plain, runtime-suspended, gets five requests cancelled by
#    pm_runtime_barrier() (rpm-cancel), each before or after pm_wq ran it;
#  - forced is released and autosuspends: hub, without an active child,
#    gets idle notifications (runtime_idle).
#
# summary: the series' runtime PM events: forced, cancelled and queued requests
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime_suspend:1000,runtime_resume:2000,runtime_idle:100,system:100 autosuspend=20
hub
forced parent=hub
plain parent=hub
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
echo 1 > $B/forced/hold || fail "cannot hold forced"
pmsynth_ctl force-runtime forced on || fail "force-runtime refused"
sleep 1
trace_setup 'rpm:*' power:suspend_resume
trace_on
pm_cycle 1 || fail "transition with forced runtime callbacks failed"
sleep 1
for i in 1 2 3 4 5; do
	pmsynth_ctl rpm-cancel plain || fail "rpm-cancel refused: $(pmsynth_value status error)"
	sleep 0.2
done
echo 0 > $B/forced/hold
sleep 1
trace_off
trace_save rpm.trace
cat $PMSYNTH/oracle > oracle.txt
