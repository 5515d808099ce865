# soak LANE: a lane of make soak's randomized rounds (bench/soak.sh), in one
# boot, on whatever kernel the host booted (make soak: the debug kernel).
#
# /pmlab/LANE/ROUND/ holds scenario.txt and plan.txt (one transition a
# line: "PM_ASYNC KIND FAULT RPM": PM_ASYNC 0, 1 or 2 (sync, the series'
# async, 6.12's); KIND mem (pm_test=core: every device phase), freeze
# (pm_test=devices: no late/noirq phases) or disk (hibernation's test mode
# pm_test=core: freeze, freeze_late, freeze_noirq, then the restore phases;
# no image; hibernate.pm_test_delay=0, series patch 0009); FAULT "-" or
# "DEV:PHASE:ERRNO:once|always" (a callback that fails); RPM "-" or DEV: a
# user thread takes and drops a runtime usage reference of DEV around the
# transition (frozen with every task while the devices are handled), and
# pmsynth's churn thread, a kernel thread, does the same through the device
# phases, paused only while DEV itself is suspended; churn.txt: "ROUND N
# KIND DEV CYCLES IN_TRANSITION ERRORS": cycles, those with DEV prepared
# and not suspended, and failed runtime resumes or cycles while DEV was
# suspended, which must be 0).
# Rounds run in name order; each loads its scenario (the previous
# population and its devices are removed: by pmsynth's "unload", and
# every second round by removing the module itself, then loading it
# again).  Checks, the kernel log read
# before every clear and after every load: no warning, BUG, lockdep,
# KASAN, hung-task, RCU-stall or runtime PM imbalance report (lockdep
# still on, where the kernel has it).  After every transition, and again
# once runtime PM has settled: 0 oracle violations, every device active,
# its runtime status, usage count, active children and enabled state as
# before; the transition failed exactly when a suspend-side fault fired,
# and a planned fault fired.  Each transition is a line of done.txt
# ("ROUND N KIND PM_ASYNC FAULT RC"); the first failed check ends the job:
# failed.txt says which round, transition and check, dmesg-failed.txt
# has the kernel's log.
#
# summary: make soak's randomized rounds of one lane: transitions, faults, runtime PM, checks
. /pmlab/pmlib.sh
[ $# -eq 1 ] || fail "usage: soak.sh LANE"
lane=/pmlab/$1
[ -d "$lane" ] || fail "no lane directory $lane"
SPLAT='BUG:|WARNING:|kernel BUG at|Oops|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|blocked for more than|Call Trace:|general protection fault|UBSAN:|KASAN:|rcu_[a-z_]*detected stall|RCU Stall|Unbalanced pm_runtime|usage count underflow|Freezing .*failed'
round=- n=0 kind=- async=- fault=- rpm=- pid=
: > done.txt
: > churn.txt

# stop WHAT: the first failed check; the job fails
stop() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null
	echo "round $round transition $n ($kind, pm_async=$async, fault $fault, rpm $rpm): $*" > failed.txt
	dmesg > dmesg-failed.txt
	fail "round $round transition $n: $*"
}

# klog_check WHEN: the kernel log since the last clear has no report; clears it
klog_check() {
	dmesg -c > /tmp/klog.txt
	! grep -qE "$SPLAT" /tmp/klog.txt || stop "kernel report $1: $(grep -E "$SPLAT" /tmp/klog.txt | head -1)"
	if [ -r /proc/lockdep_stats ] && ! grep -q 'debug_locks: *1' /proc/lockdep_stats; then
		stop "lockdep turned itself off $1"
	fi
}

pm_setup
echo 0 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
if cat "$lane"/*/plan.txt | awk '$2 == "disk" { f = 1 } END { exit !f }'; then
	grep -qw disk /sys/power/state || fail "the plan hibernates and this kernel cannot (no disk in /sys/power/state)"
	# without it every hibernation test transition busy-waits 5 s (minutes under TCG)
	echo 0 > /sys/module/hibernate/parameters/pm_test_delay ||
		fail "the plan hibernates and this kernel has no hibernate.pm_test_delay (series patch 0009)"
fi
pmsynth_insmod
klog_check "at boot or loading pmsynth"

# runtime_state FILE: every pmsynth device's runtime status, usage count,
# active children and enabled state ("PATH:VALUE" lines), read by one
# process: a fork per file costs seconds per transition on the debug kernel
runtime_state() {
	grep -H '' /sys/bus/pmsynth/devices/*/power/runtime_status \
		/sys/bus/pmsynth/devices/*/power/runtime_usage \
		/sys/bus/pmsynth/devices/*/power/runtime_active_kids \
		/sys/bus/pmsynth/devices/*/power/runtime_enabled > "$1"
}

# settle FILE: runtime_state once it holds still (idle devices suspending);
# fails when it does not within a second per 100 devices (3 s at least)
settle() {
	k=0 limit=$((devs / 10 + 30))
	runtime_state "$1"
	while [ $k -lt $limit ]; do
		sleep 0.1
		runtime_state /tmp/settle.txt
		cmp -s "$1" /tmp/settle.txt && return 0
		mv /tmp/settle.txt "$1"
		k=$((k + 1))
	done
	return 1
}

# checks WHEN: the oracle, every device active, the kernel log
checks() {
	# the oracle first: it dumps a stack with each violation
	v=$(pmsynth_value oracle violations)
	[ "$v" = 0 ] || stop "$v oracle violations $1: $(pmsynth_value oracle first)"
	a=$(pmsynth_value status not_active)
	[ "$a" = 0 ] || stop "$a devices not active $1"
	klog_check "$1"
}

# churn DEV: take and drop a usage reference of DEV until killed
churn() {
	while :; do
		echo 1 > "/sys/bus/pmsynth/devices/$1/hold" || exit 1
		echo 0 > "/sys/bus/pmsynth/devices/$1/hold" || exit 1
	done
}

# whether a fault in phase $1 runs for this kind, and is suspend-side
runs() { [ "$kind" != freeze ] || case $1 in suspend_late|suspend_noirq|resume_noirq|resume_early) false;; esac; }
aborts() { case $1 in prepare|suspend|suspend_late|suspend_noirq) true;; *) false;; esac; }

rounds_done=0
for dir in "$lane"/*/; do
	round=$(basename "$dir") n=0
	rounds_done=$((rounds_done + 1))
	# the last round's devices go: every other round with the module
	# (rmmod: its exit removes the population), else by "unload"
	if [ $((rounds_done % 2)) = 1 ]; then
		pmsynth_ctl unload 2>/dev/null
	else
		rmmod pmsynth || stop "rmmod pmsynth failed"
		[ ! -d "$PMSYNTH" ] || stop "pmsynth's debugfs directory outlived rmmod"
		[ -z "$(ls /sys/bus/pmsynth/devices 2>/dev/null)" ] || stop "pmsynth devices outlived rmmod"
		klog_check "removing the module"
		pmsynth_insmod
		log "round $round: pmsynth removed with its devices and loaded again"
	fi
	pmsynth_load "$dir/scenario.txt" || stop "scenario refused"
	pmsynth_ctl oracle-reset || stop "oracle-reset refused"
	devs=$(ls /sys/bus/pmsynth/devices | wc -l)
	log "round $round: $devs devices, $(wc -l < "$dir/plan.txt") transitions"
	settle /tmp/before.txt || stop "runtime PM did not settle after loading"
	checks "after loading"
	while read -r async kind fault rpm; do
		n=$((n + 1))
		case $kind in
		mem|disk) t=core;;
		freeze) t=devices;;
		*) stop "bad plan kind '$kind'";;
		esac
		echo "$t" > /sys/power/pm_test || stop "cannot set pm_test $t"
		dev=${fault%%:*} ph=$(echo "$fault" | cut -d: -f2) err=$(echo "$fault" | cut -d: -f3)
		if [ "$fault" != - ]; then
			pmsynth_ctl fault $(echo "$fault" | tr ':' ' ') || stop "fault $fault refused"
		fi
		pid=
		if [ "$rpm" != - ]; then
			d=$rpm
			[ -e "/sys/bus/pmsynth/devices/$d/hold" ] || stop "the plan's churn device $d does not exist"
			churn "$d" &
			pid=$!
			# and pmsynth's kernel thread, through the device phases
			pmsynth_ctl churn "$d" on || stop "churn $d on refused"
		fi
		klog_check "before the transition"
		echo "$async" > /sys/power/pm_async || stop "cannot set pm_async=$async"
		echo "$kind" > /sys/power/state
		rc=$?
		if [ -n "$pid" ]; then
			kill "$pid"
			wait "$pid" 2>/dev/null
			pid=
			# killed between its two writes, it still holds a reference
			h=/sys/bus/pmsynth/devices/$d/hold
			while [ "$(cat "$h")" -gt 0 ]; do echo 0 > "$h"; done
			pmsynth_ctl churn "$d" off || stop "churn $d off refused"
			f=/sys/bus/pmsynth/devices/$d/churn
			c=$(sed -n 's/^cycles //p' "$f") i=$(sed -n 's/^in_transition //p' "$f")
			e=$(sed -n 's/^errors //p' "$f")
			echo "$round $n $kind $d $c $i $e" >> churn.txt
			[ "$e" = 0 ] || stop "the churn thread of $d: $e runtime resumes failed or cycles ran while $d was suspended"
		fi
		dmesg > /tmp/transition.txt
		if [ "$fault" != - ]; then
			pmsynth_ctl fault "$dev" "$ph" 5 off || stop "cannot clear fault $fault"
		fi
		echo "$round $n $kind $async $fault $rc" >> done.txt
		fired=0
		if [ "$fault" != - ] && runs "$ph"; then
			grep -q "$dev: injected error -$err in $ph" /tmp/transition.txt ||
				stop "the fault did not fire (rc $rc)"
			fired=1
		fi
		if [ $fired = 1 ] && aborts "$ph"; then
			[ "$rc" != 0 ] || stop "a $ph failure did not fail the transition"
		else
			if [ "$rc" != 0 ] && [ "$kind" = disk ] &&
				grep -q 'Image allocation is .* pages short' /tmp/transition.txt; then
				stop "hibernation could not preallocate its image: guest memory too small (MEM), not a PM failure"
			fi
			[ "$rc" = 0 ] || stop "the transition failed (rc $rc) with no suspend-side fault"
		fi
		checks "after the transition (rc $rc)"
		settle /tmp/after.txt || stop "runtime PM did not settle (rc $rc)"
		checks "once runtime PM settled"
		cmp -s /tmp/before.txt /tmp/after.txt || {
			cp /tmp/before.txt runtime-before.txt
			cp /tmp/after.txt runtime-after.txt
			stop "runtime status/usage/active children/enabled changed (before, after): $(diff /tmp/before.txt /tmp/after.txt | grep '^[-+][^-+]' | head -2 | tr '\n' ' ')"
		}
	done < "$dir/plan.txt"
done
round=- n=0
pmsynth_ctl unload || stop "unload failed"
klog_check "removing the last population"
echo "$(wc -l < done.txt) transitions" > summary.txt
