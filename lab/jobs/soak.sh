# soak LANE: a lane of make soak's randomized rounds (bench/soak.sh), in one
# boot, on whatever kernel the host booted (make soak: the debug kernel).
#
# /pmlab/LANE/ROUND/ holds scenario.txt and plan.txt (one transition a
# line: "PM_ASYNC KIND FAULT RPM": PM_ASYNC 0, 1 or 2 (sync, the series'
# async, 6.12's); KIND mem (pm_test=core: every device phase) or freeze
# (pm_test=devices: no late/noirq phases); FAULT "-" or
# "DEV:PHASE:ERRNO:once|always" (a callback that fails); RPM 1: a thread
# takes and drops a runtime usage reference of a random device throughout
# the transition).  Rounds run in name order; each loads its scenario (the
# previous population and its devices are removed) and runs its plan.
# After every transition: 0 oracle violations, every device active again,
# its runtime status, usage count and active children as before, no
# kernel warning, lockdep, KASAN, hung-task or RCU report in dmesg.  Each
# transition is a line of done.txt ("ROUND N KIND PM_ASYNC FAULT RC"); the
# first failed check ends the job: failed.txt says which round,
# transition and check, dmesg-failed.txt has the kernel's log.
#
# summary: make soak's randomized rounds of one lane: transitions, faults, runtime PM, checks
. /pmlab/pmlib.sh
[ $# -eq 1 ] || fail "usage: soak.sh LANE"
lane=/pmlab/$1
[ -d "$lane" ] || fail "no lane directory $lane"
SPLAT='BUG:|WARNING:|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|blocked for more than|Call Trace:|general protection fault|UBSAN:|KASAN:|rcu_.*stall|RCU Stall'
pmsynth_insmod
echo 0 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
: > done.txt

# runtime_state FILE: every pmsynth device's runtime status, usage count
# and active children ("PATH:VALUE" lines), read by one process: a fork
# per file costs seconds per transition on the debug kernel
runtime_state() {
	grep -H '' /sys/bus/pmsynth/devices/*/power/runtime_status \
		/sys/bus/pmsynth/devices/*/power/runtime_usage \
		/sys/bus/pmsynth/devices/*/power/runtime_active_kids > "$1"
}

# settle FILE: runtime_state once it holds still (idle devices suspending)
settle() {
	k=0
	runtime_state "$1"
	while [ $k -lt 30 ]; do
		sleep 0.1
		runtime_state /tmp/settle.txt
		cmp -s "$1" /tmp/settle.txt && return 0
		mv /tmp/settle.txt "$1"
		k=$((k + 1))
	done
}

# stop WHAT: the first failed check; the job fails
stop() {
	echo "round $round transition $n ($kind, pm_async=$async, fault $fault, rpm $rpm): $*" > failed.txt
	dmesg > dmesg-failed.txt
	fail "round $round transition $n: $*"
}

# churn DEV: take and drop a usage reference of DEV until killed
churn() {
	while :; do
		echo 1 > "/sys/bus/pmsynth/devices/$1/hold" 2>/dev/null
		echo 0 > "/sys/bus/pmsynth/devices/$1/hold" 2>/dev/null
	done
}

for dir in "$lane"/*/; do
	round=$(basename "$dir")
	pmsynth_ctl unload 2>/dev/null
	pmsynth_load "$dir/scenario.txt" || stop "scenario refused"
	pmsynth_ctl oracle-reset || stop "oracle-reset refused"
	devs=$(ls /sys/bus/pmsynth/devices | wc -l)
	log "round $round: $devs devices, $(wc -l < "$dir/plan.txt") transitions"
	n=0
	while read -r async kind fault rpm; do
		n=$((n + 1))
		case $kind in mem) t=core;; freeze) t=devices;; *) stop "bad plan kind '$kind'";; esac
		echo "$t" > /sys/power/pm_test || stop "cannot set pm_test $t"
		settle /tmp/before.txt
		if [ "$fault" != - ]; then
			pmsynth_ctl fault $(echo "$fault" | tr ':' ' ') || stop "fault $fault refused"
		fi
		pid=
		if [ "$rpm" = 1 ]; then
			d=$(ls /sys/bus/pmsynth/devices | sed -n "$(( (n * 7 + devs) % devs + 1 ))p")
			churn "$d" &
			pid=$!
		fi
		dmesg -c > /dev/null
		echo "$async" > /sys/power/pm_async || stop "cannot set pm_async=$async"
		echo "$kind" > /sys/power/state
		rc=$?
		if [ -n "$pid" ]; then
			kill "$pid"
			wait "$pid" 2>/dev/null
			# killed between its two writes, it still holds a reference
			h=/sys/bus/pmsynth/devices/$d/hold
			while [ "$(cat "$h")" -gt 0 ]; do echo 0 > "$h"; done
		fi
		if [ "$fault" != - ]; then
			pmsynth_ctl fault "${fault%%:*}" "$(echo "$fault" | cut -d: -f2)" 5 off ||
				stop "cannot clear fault $fault"
		fi
		echo "$round $n $kind $async $fault $rc" >> done.txt
		# the oracle first: it dumps a stack with each violation
		v=$(pmsynth_value oracle violations)
		[ "$v" = 0 ] || stop "$v oracle violations: $(pmsynth_value oracle first)"
		dmesg > /tmp/dmesg.txt
		! grep -qE "$SPLAT" /tmp/dmesg.txt || stop "kernel report: $(grep -E "$SPLAT" /tmp/dmesg.txt | head -1)"
		a=$(pmsynth_value status not_active)
		[ "$a" = 0 ] || stop "$a devices not active after the transition (rc $rc)"
		settle /tmp/after.txt
		cmp -s /tmp/before.txt /tmp/after.txt || {
			cp /tmp/before.txt runtime-before.txt
			cp /tmp/after.txt runtime-after.txt
			stop "runtime status/usage/active children changed (before, after): $(diff /tmp/before.txt /tmp/after.txt | grep '^[-+][^-+]' | head -2 | tr '\n' ' ')"
		}
	done < "$dir/plan.txt"
done
echo "$(wc -l < done.txt) transitions" > summary.txt
