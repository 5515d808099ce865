# pmsynth-direct-complete: ->prepare() returning 1 (direct_complete=1) on
# four pmsynth devices: dc, runtime-suspended, is left suspended through
# the transition (only prepare and complete run); held, held active, and
# ndc, with DPM_FLAG_NO_DIRECT_COMPLETE, are suspended normally; so is top,
# their parent.  Two transitions, the first traced (direct.trace); the
# calls each device saw (calls-DEV.txt), the oracle after both.
#
# summary: ->prepare() returning 1 (direct_complete) and DPM_FLAG_NO_DIRECT_COMPLETE
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
cat > dc.txt <<'S'
@defaults lat=system:200,prepare:0,complete:0 async=1
top
dc parent=top direct_complete=1
ndc parent=top direct_complete=1 flags=no_direct_complete
held parent=top direct_complete=1
S
pmsynth_load dc.txt || fail "dc.txt refused: $(pmsynth_value status error)"
B=/sys/bus/pmsynth/devices
echo 1 > $B/held/hold || fail "cannot hold held"
sleep 1
for d in top dc ndc held; do cat $B/$d/power/runtime_status > status-$d.txt; done
trace_setup power:dpm_device_end power:suspend_resume
trace_on
pm_cycle 1 || fail "first transition failed"
trace_off
trace_save direct.trace
pm_cycle 1 || fail "second transition failed"
for d in top dc ndc held; do cat $B/$d/calls > calls-$d.txt; done
cat $PMSYNTH/oracle > oracle.txt
cat $PMSYNTH/status > status.txt
