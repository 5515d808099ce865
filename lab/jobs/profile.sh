# profile SCENARIO PM_ASYNC: where the CPU goes in one transition of a
# device scenario (a file passed in EXTRA) with pm_async=PM_ASYNC (0 sync,
# 1 the series' async, 2 Linux 6.12's): bpftrace samples the kernel stacks
# of every vCPU that is not idle at 4999 Hz of the guest's clock
# (profile.txt: the 40 most frequent 8-frame stacks, then the 60 most
# sampled functions).  On the virtual clock the samples count
# instructions executed, so they show where the CPU work of the bench's
# busy(async) column goes.  Run: make guest JOB=profile ARGS="dag-1000.txt 1"
# EXTRA=bench/scenarios/dag-1000.txt
#
# summary: kernel stacks sampled by bpftrace during one transition: where the CPU goes
. /pmlab/pmlib.sh
[ $# -eq 2 ] || fail "usage: profile.sh SCENARIO PM_ASYNC"
case $2 in 0|1|2) ;; *) fail "PM_ASYNC must be 0, 1 or 2, got '$2'";; esac
pm_setup
pmsynth_insmod
pmsynth_load "/pmlab/$1" || fail "scenario $1 refused"
echo "$2" > /sys/power/pm_async || fail "pm_async does not take $2"
pm_cycle "$2" || fail "warm-up transition failed"
echo 'echo mem > /sys/power/state' > /tmp/suspend.sh
bpftrace -e 'profile:hz:4999 /pid != 0/ { @stack[kstack(8)] = count(); @fn[ksym(reg("ip"))] = count(); }
	END { print(@stack, 40); print(@fn, 60); clear(@stack); clear(@fn); }' \
	-c 'sh /tmp/suspend.sh' > profile.txt 2> profile.err || fail "bpftrace failed: $(tail -3 profile.err)"
