# pmsynth-smart-suspend: driver flags the PM core acts on only for driver
# callbacks, on three runtime-suspended pmsynth devices bound to pmsynth's
# driver (driver=1): drv (no flags), ss (DPM_FLAG_SMART_SUSPEND) and skipper
# (DPM_FLAG_SMART_SUSPEND | DPM_FLAG_MAY_SKIP_RESUME; not msr, a name the guest has).  One traced
# transition (flags.trace), then one more; the calls each device saw
# (calls-DEV.txt), its runtime status after (status-DEV.txt), the oracle.
#
# summary: DPM_FLAG_SMART_SUSPEND and DPM_FLAG_MAY_SKIP_RESUME on driver callbacks
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
cat > flags.txt <<'S'
@defaults lat=system:200,prepare:0,complete:0 async=1 driver=1
drv
ss flags=smart_suspend
skipper flags=smart_suspend,may_skip_resume
S
pmsynth_load flags.txt || fail "flags.txt refused: $(pmsynth_value status error)"
B=/sys/bus/pmsynth/devices
sleep 1
for d in drv ss skipper; do
	cat $B/$d/power/runtime_status > before-$d.txt
	basename "$(readlink $B/$d/driver)" > driver-$d.txt
done
trace_setup power:dpm_device_end power:suspend_resume
trace_on
pm_cycle 1 || fail "first transition failed"
trace_off
trace_save flags.trace
pm_cycle 1 || fail "second transition failed"
sleep 1
for d in drv ss skipper; do
	cat $B/$d/calls > calls-$d.txt
	cat $B/$d/power/runtime_status > status-$d.txt
done
cat $PMSYNTH/oracle > oracle.txt
cat $PMSYNTH/status > status.txt
