# pmlib.sh - helpers for guest jobs, lab/jobs/*.sh (sourced, busybox sh).
#
# Jobs run as "sh job.sh ARGS" inside the guest with the current
# directory and $RESULTS set to /results; everything written there reaches
# the host.  A job's exit status becomes the host command's exit status.

TRACEFS=/sys/kernel/tracing

log() { echo "job: $*"; }
fail() { echo "job: FAIL: $*" >&2; exit 1; }

# pm_setup: full-phase test transitions ("mem", pm_test "core": every
# device phase including late and noirq runs, the platform is not entered).
pm_setup() {
	grep -qw mem /sys/power/state || fail "/sys/power/state lacks mem: $(cat /sys/power/state)"
	if [ -e /sys/power/mem_sleep ]; then
		grep -qw deep /sys/power/mem_sleep ||
			fail "no S3 (deep) in /sys/power/mem_sleep: $(cat /sys/power/mem_sleep)"
		echo deep > /sys/power/mem_sleep
	fi
	echo core > /sys/power/pm_test || fail "cannot set pm_test core"
	echo 0 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	return 0
}

# pm_cycle ASYNC: one suspend/resume transition with /sys/power/pm_async
# set to ASYNC (0 or 1).  Returns the status of the write to state.
pm_cycle() {
	echo "$1" > /sys/power/pm_async || fail "cannot set pm_async=$1"
	echo mem > /sys/power/state
}

# kernel_times FILE: the device-phase times the kernel printed during the
# last transition ("PHASE MSECS" lines, pm_debug_messages on), from a ring
# buffer cleared before it (dmesg -c)
kernel_times() {
	dmesg -c | sed -n 's/.*PM: \(.*\) of devices complete after \([0-9.]*\) msecs.*/\1 \2/p' |
		tr ' ' '_' | sed 's/_\([0-9.]*\)$/ \1/' > "$1"
	[ -s "$1" ] || fail "the kernel printed no device-phase times for $1"
}

# trace_setup EVENT...: clear the trace buffer and enable exactly EVENTs
# (subsystem:name), with a per-CPU buffer large enough for hundreds of
# devices, on the mono clock.
trace_setup() {
	echo 0 > $TRACEFS/tracing_on
	echo > $TRACEFS/set_event
	echo 8192 > $TRACEFS/buffer_size_kb
	# CLOCK_MONOTONIC, like bpf_ktime_get_ns(): the default per-CPU
	# "local" clock is not comparable across CPUs, and async workers
	# migrate between a callback's start and end
	echo mono > $TRACEFS/trace_clock
	for ev in "$@"; do
		echo "$ev" >> $TRACEFS/set_event || fail "no trace event $ev"
	done
	echo > $TRACEFS/trace
}

trace_on() { echo > $TRACEFS/trace; echo 1 > $TRACEFS/tracing_on; }
trace_off() { echo 0 > $TRACEFS/tracing_on; }

# trace_save FILE: copy the trace buffer (text) to FILE; fail if the ring
# buffer overran, because a lossy trace would silently skew every figure.
trace_save() {
	cat $TRACEFS/trace > "$1"
	lost=$(grep -h '^overrun:' $TRACEFS/per_cpu/cpu*/stats | awk '{ s += $2 } END { print s + 0 }')
	[ "$lost" -eq 0 ] || fail "trace buffer overran ($lost events lost) writing $1"
}

# rpm_events TRACE: the rpm:* events of a saved trace, in order, one per
# line as "EVENT DEV ARGS" (rpm_return_int as "rpm_return_int DEV FUNC ret=N").
rpm_events() {
	sed -n 's/^.* \(rpm_[a-z_]*\): \(.*\)$/\1 \2/p' "$1" |
		sed 's/^rpm_return_int \([a-z_]*\)+[^:]*:\([^ ]*\) /rpm_return_int \2 \1 /'
}

# ev_order FILE PATTERN...: whether lines matching the PATTERNs (EREs) occur
# in FILE in that order (each after the previous one's first match after
# it).  Prints "in order" when they do, else which one is missing after which.
ev_order() {
	_f=$1
	shift
	printf '%s\n' "$@" | awk -v f="$_f" '
		{ pat[++n] = $0 }
		END { i = 1
			while (i <= n && (getline line < f) > 0)
				if (line ~ pat[i]) i++
			if (i > n)
				print "in order"
			else
				printf "no \"%s\" after \"%s\"\n", pat[i], (i > 1 ? pat[i - 1] : "the start") }'
}

# ev_count FILE PATTERN: how many lines of FILE match the ERE PATTERN.
ev_count() { grep -cE "$2" "$1"; }

# --- pmsynth: the synthetic-device module (lab/pmsynth) ---
PMSYNTH=/sys/kernel/debug/pmsynth

# pmsynth_insmod: load /pmlab/pmsynth.ko (the run must pass it in EXTRA).
pmsynth_insmod() {
	[ -d $PMSYNTH ] && return 0
	insmod /pmlab/pmsynth.ko || fail "cannot insmod /pmlab/pmsynth.ko"
}

# pmsynth_load FILE: replace the population with scenario FILE.  On a
# refused scenario, prints the module's reason and returns 1.
pmsynth_load() {
	cat "$1" > $PMSYNTH/scenario || return 1
	if ! echo load > $PMSYNTH/control 2>/dev/null; then
		echo "pmsynth: $1 refused: $(sed -n 's/^error //p' $PMSYNTH/status)" >&2
		return 1
	fi
}

# pmsynth_value FILE KEY: the value of "KEY value" in a pmsynth debugfs file.
pmsynth_value() { sed -n "s/^$2 //p" $PMSYNTH/$1; }

# pmsynth_ctl COMMAND...: a control command (fault, unload, oracle-reset).
pmsynth_ctl() { echo "$*" > $PMSYNTH/control; }

# rpmctl DEV OP [ARG]: one runtime PM call on DEV ("rpm" control command,
# lab/pmsynth/pmsynth-rpm.c); prints what the call returned.  Fails (with
# the module's reason on stderr) only when the command is refused.
rpmctl() {
	if ! echo "rpm $*" > $PMSYNTH/control 2>/dev/null; then
		echo "rpm $*: refused: $(pmsynth_value status error)" >&2
		return 1
	fi
	pmsynth_value status rpm_result
}

# --- checks inside the guest, reported to the host test as TAP ---
# tcheck DESCRIPTION COMMAND...: run COMMAND; append "ok - DESCRIPTION" or
# "not ok - DESCRIPTION" to $RESULTS/checks.txt.  Host tests re-emit these
# lines (tests/lib.sh: guest_checks) and compare their number to the plan.
tcheck() {
	desc=$1
	shift
	if "$@"; then
		echo "ok - $desc" >> "$RESULTS/checks.txt"
	else
		echo "not ok - $desc" >> "$RESULTS/checks.txt"
		echo "check failed: $desc" >&2
	fi
}

# teq DESCRIPTION EXPECTED ACTUAL: tcheck for equality, showing both.
teq() {
	if [ "$2" = "$3" ]; then
		echo "ok - $1" >> "$RESULTS/checks.txt"
	else
		echo "not ok - $1 (expected '$2', got '$3')" >> "$RESULTS/checks.txt"
		echo "check failed: $1: expected '$2', got '$3'" >&2
	fi
}

# --- the lab's setup for a user's own commands (make run, make shell) ---
# lab_setup: full-phase test transitions (pm_setup: "echo mem >
# /sys/power/state" runs every device phase and returns), pmsynth loaded
# with $SCENARIO (a file in /pmlab; none when empty), /pmlab/suspend.sh
# (one transition, for bpftrace's -c), pmtrace and the bpftrace tools of
# tracepoints/ in /pmlab.  Prints what it set up.
lab_setup() {
	pm_setup
	printf 'echo mem > /sys/power/state\n' > /pmlab/suspend.sh
	export PATH=/pmlab:$PATH
	if [ -n "$SCENARIO" ]; then
		pmsynth_insmod
		pmsynth_load "/pmlab/$SCENARIO" || fail "scenario $SCENARIO refused"
		echo "pmlab: pmsynth: $(pmsynth_value status devices) synthetic devices, $(pmsynth_value status links) pm_links from $SCENARIO (/sys/bus/pmsynth/devices, $PMSYNTH)"
	else
		echo "pmlab: no scenario loaded (SCENARIO=none)"
	fi
	echo "pmlab: pm_test=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/power/pm_test): 'echo mem > /sys/power/state' (or sh /pmlab/suspend.sh) runs every device phase and returns"
	echo "pmlab: tools: bpftrace, bpftool, trace-cmd$([ -x /pmlab/pmtrace ] && echo ', pmtrace'); recipes: $(cd /pmlab && ls *.bt 2>/dev/null | tr '\n' ' ')(in /pmlab)"
	echo "pmlab: files written in /results reach the host"
}
