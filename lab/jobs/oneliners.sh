# oneliners SCENARIO: run every bpftrace tool of tracepoints/ and the
# trace-cmd recipe against pmsynth devices, saving what each prints.
#   system sleep (SCENARIO, one async transition each): slowest-devices,
#     queue-delay and callback-hist with the series' scheduling
#     (pm_async=1); wait-chains, sync-devices (d7 made synchronous first)
#     and trace-cmd record/report with Linux 6.12's (pm_async=2, the
#     series' lab-only switch), whose workers wait for their dependencies:
#     the series' workers do not;
#   runtime PM (rt.txt below): rpm-latency around a workload that holds
#     "held" for good and "released" only briefly, and makes requests of
#     "released" that are cancelled before pm_wq runs them.
#
# summary: every bpftrace tool of tracepoints/ and the trace-cmd recipe on pmsynth devices
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
pmsynth_load "/pmlab/$1" || fail "scenario $1 refused"
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
echo disabled > /sys/bus/pmsynth/devices/d7/power/async
# bpftrace -c splits its command at spaces (no shell): use a script
echo 'echo mem > /sys/power/state' > /tmp/suspend.sh
for t in slowest-devices wait-chains queue-delay sync-devices callback-hist; do
	case $t in wait-chains|sync-devices) echo 2;; *) echo 1;; esac > /sys/power/pm_async
	bpftrace "/pmlab/$t.bt" -c "sh /tmp/suspend.sh" > "$t.txt" 2> "$t.err" ||
		fail "bpftrace $t.bt failed: $(tail -3 "$t.err")"
	grep -q . "$t.err" && sed "s/^/$t: /" "$t.err" >&2
done
echo 2 > /sys/power/pm_async
trace-cmd record -q -o /tmp/trace.dat -e 'power:dpm_device_*' -e power:device_pm_callback_start \
	-e power:device_pm_callback_end sh -c 'echo mem > /sys/power/state' > trace-cmd-record.txt 2>&1 ||
	fail "trace-cmd record failed: $(tail -3 trace-cmd-record.txt)"
trace-cmd report -i /tmp/trace.dat > trace-cmd-report.txt 2>&1 || fail "trace-cmd report failed"

cat > rt.txt <<'S'
@defaults lat=runtime_suspend:1000,runtime_resume:3000 autosuspend=20
hub
held parent=hub
released parent=hub
S
pmsynth_load rt.txt || fail "rt.txt refused"
cat > /tmp/rt-workload.sh <<'S'
B=/sys/bus/pmsynth/devices
echo 1 > $B/held/hold
echo 1 > $B/released/hold
echo 0 > $B/released/hold
sleep 1
# requests of released that pm_runtime_barrier() cancels
for i in 1 2 3; do
	echo rpm-cancel released > /sys/kernel/debug/pmsynth/control
	sleep 0.2
done
# with no active child left, hub gets idle notifications: runtime_idle
echo 0 > $B/held/hold
sleep 1
S
bpftrace /pmlab/rpm-latency.bt -c "sh /tmp/rt-workload.sh" > rpm-latency.txt 2> rpm-latency.err ||
	fail "bpftrace rpm-latency.bt failed: $(tail -3 rpm-latency.err)"
