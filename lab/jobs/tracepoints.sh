# tracepoints SCENARIO [SYNC_EVERY]: load SCENARIO, make every SYNC_EVERY-th (default 5)
# pmsynth device synchronous (power/async), then:
#  1. one async transition with every dpm_device and rpm event enabled,
#     with Linux 6.12's scheduling (pm_async=2, the series' lab-only switch),
#     whose workers wait for their dependencies: events.trace (the host
#     checks counts and relations); the same with the series' scheduling,
#     whose workers do not: events-series.trace;
#  2. one transition with the dpm_device events disabled but power events on:
#     disabled.trace (must hold no dpm_device event); one with only
#     dpm_device_wait_end enabled: wait-end-only.trace (each event alone);
#  3. overhead, same boot: 3 transitions with dpm_device off, 3 on,
#     overhead-{off,on}-N.trace (power:suspend_resume only otherwise).
#
# summary: the series' dpm_device and rpm events on a scenario, counts and relations, overhead
. /pmlab/pmlib.sh
DPM_EVENTS="power:dpm_device_queued power:dpm_device_start power:dpm_device_wait_start
	power:dpm_device_wait_end power:dpm_device_end"
scen=/pmlab/$1 every=${2:-5}
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $1 refused"
i=0
for d in $(ls /sys/bus/pmsynth/devices); do
	i=$((i + 1))
	[ $((i % every)) -eq 0 ] && echo disabled > /sys/bus/pmsynth/devices/$d/power/async
done
grep -l disabled /sys/bus/pmsynth/devices/*/power/async | sed 's|.*/devices/\([^/]*\)/power/async|\1|' > sync-devices.txt
ls /sys/bus/pmsynth/devices > devices.txt

pm_cycle 1 || fail "warm-up transition failed"
trace_setup $DPM_EVENTS 'rpm:*' power:suspend_resume power:device_pm_callback_start \
	power:device_pm_callback_end
trace_on
pm_cycle 2 || fail "traced transition failed"
trace_off
trace_save events.trace
trace_on
pm_cycle 1 || fail "traced transition with the series' scheduling failed"
trace_off
trace_save events-series.trace

trace_setup power:suspend_resume power:device_pm_callback_start power:device_pm_callback_end
cat $TRACEFS/events/power/dpm_device_*/enable | sort -u > disabled-enable.txt
trace_on
pm_cycle 1 || fail "transition with the dpm_device events disabled failed"
trace_off
trace_save disabled.trace

# each wait event alone: only dpm_device_wait_end enabled
trace_setup power:suspend_resume power:dpm_device_wait_end
trace_on
pm_cycle 2 || fail "transition with only dpm_device_wait_end failed"
trace_off
trace_save wait-end-only.trace

for mode in off on; do
	if [ $mode = on ]; then
		trace_setup power:suspend_resume $DPM_EVENTS
	else
		trace_setup power:suspend_resume
	fi
	n=1
	while [ $n -le 3 ]; do
		trace_on
		pm_cycle 1 || fail "overhead transition failed"
		trace_off
		trace_save overhead-$mode-$n.trace
		n=$((n + 1))
	done
done
cat $PMSYNTH/oracle > oracle.txt
