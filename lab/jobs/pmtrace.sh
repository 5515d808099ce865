# pmtrace DEVICES: load a device scenario and record one async transition
# with bpf/pmtrace (records.jsonl), while trace-cmd records the same
# transition's power events (trace.dat -> trace-cmd.txt),
# for the cross-check of tests/guest/pmtrace.t.  Both on CLOCK_MONOTONIC
# (bpf_ktime_get_ns; trace-cmd -C mono): ftrace's default per-CPU "local"
# clock is not comparable across CPUs, and async workers migrate.
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
pmsynth_load "/pmlab/$1" || fail "scenario $1 refused"
pm_cycle 1 || fail "warm-up transition failed"
# the recorded transition with 6.12's scheduling (pm_async=2, the series'
# lab-only switch), whose workers wait for their dependencies, so that the
# records have waits to attribute
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
echo 'echo mem > /sys/power/state' > /tmp/suspend.sh
# trace-cmd copies /proc/kallsyms once its command is done, and BPF
# programs leave kallsyms as they are freed, after pmtrace exits ("error in
# size of file '/proc/kallsyms'" when the two overlap): the command waits
# for that, keeping pmtrace's exit status.
cat > /tmp/pmtrace.sh <<'S'
/pmlab/pmtrace -o records.jsonl -c 'sh /tmp/suspend.sh'
rc=$?
sleep 1
exit $rc
S
trace-cmd record -q -C mono -o /tmp/trace.dat -e power:device_pm_callback_start \
	-e power:device_pm_callback_end -e power:suspend_resume \
	sh /tmp/pmtrace.sh > pmtrace.log 2>&1 ||
	fail "pmtrace under trace-cmd failed: $(tail -3 pmtrace.log)"
trace-cmd report -i /tmp/trace.dat > trace-cmd.txt 2>&1 || fail "trace-cmd report failed"
# A bad argument: refused with its cause before anything is opened.
/pmlab/pmtrace -o badarg.jsonl -m novalue > badarg.txt 2>&1
echo $? > badarg.status
