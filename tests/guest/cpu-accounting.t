#!/bin/sh
# run-tests: parallel
# pmtrace's CPU accounting and worker figures on a known scenario: the
# chain-100 pm_link chain (d0 <- d1 <- ... <- d99, every device async,
# sleeping callbacks), one sync transition and one async on each scheduler.
#  - consistency of the phase records, by invariants between the per-CPU
#    sums and the all-idle count, which are kept apart in the kernel: every
#    CPU known and busy + idle = the phase; all-idle time no more than any
#    CPU's idle time; the time some CPU was busy (phase - all-idle) at
#    least the busiest CPU's and at most the sum of all (phases after the
#    CPU offline/online of pm_test=core included);
#  - sync: the main thread runs one sleeping callback after the other, so
#    the time all CPUs were idle is the chain's callback time, less the
#    callbacks' own CPU work: 90-101 % of it in every phase with callbacks;
#  - async with 6.12's scheduling (every device queued upfront): each
#    device but the last in line blocks on its neighbour in the chain: 99
#    blocked waits per phase between chain devices, and nearly a worker
#    thread per device;
#  - async with the series' (a device starts when its dependencies are
#    done, and a worker goes on with the device it made ready): no blocked
#    wait, and the chain runs in one or two workers per phase.
. "$(dirname "$0")/../lib.sh"
tap_plan 17
w=$BUILD/test-guest/cpu-accounting
pmsynth_guest cpu-accounting "$w" bench/scenarios/chain-100.txt build/bpf/pmtrace -- chain-100.txt
ok $GUEST_STATUS "one sync transition and one async on each scheduler of chain-100 under pmtrace"
ncpu=$(cat "$w/cpus.txt" 2>/dev/null || echo 0)
phases="prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete"
sleeping="suspend suspend_late suspend_noirq resume_noirq resume_early resume"

# phase_check MODE JQ-FILTER: the filter holds for every dpm phase record
phase_check() {
	_n=$(jq -s "[.[] | select(.type == \"phase\" and (.name | startswith(\"dpm_\")))] |
		map(select(($1) | not)) | length" "$w/$2.jsonl" 2>/dev/null)
	[ "$_n" = 0 ] && return 0
	echo "# $_n phase records of $2 fail: $1" >&2
	return 1
}
for mode in sync async; do
	check "$mode: eight dpm phase records, each with all $ncpu CPUs accounted" phase_check \
		"(.cpus | length) == $ncpu and .cpus_unknown == 0" $mode
	check "$mode: every CPU's busy + idle is the phase's time, to the microsecond" phase_check \
		"(.end - .start) as \$l | all(.cpus[]; (.busy_ns + .idle_ns - \$l) | fabs < 1000)" $mode
	check "$mode: all-idle time within every CPU's idle time" phase_check \
		".all_idle_ns as \$a | all(.cpus[]; .idle_ns >= \$a)" $mode
	# 10 us of slack above the sum: once, resume_noirq (right after pm_test
	# core brought the secondary CPUs back) had 3.3 us more some-CPU-busy
	# time than the four CPUs' busy times together (a fresh clone's CI run)
	check "$mode: some-CPU-busy time between the busiest CPU's and the sum of all" phase_check \
		"(.end - .start - .all_idle_ns) as \$u | [.cpus[].busy_ns] as \$b |
		 \$u >= (\$b | max) - 1000 and \$u <= (\$b | add) + 10000" $mode
done
check "the phase records after CPU_ON (resume_noirq) are among them" \
	sh -c "grep -q '\"name\":\"CPU_ON\"' '$w/sync.jsonl' && grep -q '\"name\":\"dpm_resume_noirq\".*\"cpus\"' '$w/sync.jsonl'"

# sync: all-idle time / the chain's callback time, per sleeping phase
jq -rs --arg phases "$sleeping" '
	($phases | split(" ")) as $ph |
	$ph[] as $p |
	([.[] | select(.type == "device" and .phase == $p and (.device | test("^d[0-9]+$"))) | .callback_ns] | add) as $cb |
	(.[] | select(.type == "phase" and .name == "dpm_" + $p) | .all_idle_ns) as $ai |
	"\($p) \($ai) \($cb)"' "$w/sync.jsonl" > "$w/idle-vs-callbacks.txt"
sed 's/^/# sync all-idle ns vs chain callback ns: /' "$w/idle-vs-callbacks.txt"
check "sync: all CPUs idle for 90-101 % of the chain's sleeping callbacks, in each of the 6 phases" \
	awk 'NF == 3 && $3 > 0 && $2 >= 0.9 * $3 && $2 <= 1.01 * $3 { n++ } END { exit n != 6 }' "$w/idle-vs-callbacks.txt"

# async: blocked waits between chain devices, the chain's workers per phase
# (the guest's PCI devices are async too, in workers of their own)
# waits_workers MODE: "PHASE BLOCKED WORKERS" lines in $w/waits-workers-MODE.txt
waits_workers() {
jq -rs --arg phases "$sleeping" '
	($phases | split(" ")) as $ph |
	$ph[] as $p |
	[.[] | select(.type == "device" and .phase == $p)] as $d |
	($d | map(select(.device | test("^d[0-9]+$")))) as $chain |
	($chain | map(.waits[] | select(.on | test("^d[0-9]+$"))) | length) as $blocked |
	($chain | map(select(.async == 1) | .tid) | unique | length) as $workers |
	"\($p) \($blocked) \($workers)"' "$w/$1.jsonl" > "$w/waits-workers-$1.txt"
sed "s/^/# $1 phase, blocked waits between chain devices, distinct worker threads: /" "$w/waits-workers-$1.txt"
}
waits_workers legacy
waits_workers async
check "6.12's scheduling: 99 blocked waits between chain devices in each of the 6 phases (all queued upfront)" \
	awk 'NF == 3 && $2 == 99 { n++ } END { exit n != 6 }' "$w/waits-workers-legacy.txt"
check "6.12's scheduling: at least 90 worker threads per phase for the 100 devices (each blocked device holds one)" \
	awk 'NF == 3 && $3 >= 90 { n++ } END { exit n != 6 }' "$w/waits-workers-legacy.txt"
check "the series' scheduling: no blocked wait between chain devices in any of the 6 phases" \
	awk 'NF == 3 && $2 == 0 { n++ } END { exit n != 6 }' "$w/waits-workers-async.txt"
check "the series' scheduling: the chain runs in 1 or 2 worker threads per phase" \
	awk 'NF == 3 && $3 >= 1 && $3 <= 2 { n++ } END { exit n != 6 }' "$w/waits-workers-async.txt"
"$BUILD/tools/critpath" "$TOP/bench/scenarios/chain-100.txt" "$w/sync.jsonl" "$w/legacy.jsonl" > "$w/table-legacy.txt" 2>&1
check "critpath counts the same for 6.12's: 100 blocked waits in suspend (the 99 and the bus root's one on d0)" \
	awk '$1 == "work" { on = 1 } on && $1 == "suspend" { exit !($8 == 100) }' "$w/table-legacy.txt"
"$BUILD/tools/critpath" "$TOP/bench/scenarios/chain-100.txt" "$w/sync.jsonl" "$w/async.jsonl" > "$w/table.txt" 2>&1
check "and for the series': no blocked wait in any phase" \
	awk '$1 == "work" { on = 1 } on && $1 == "all" { exit !($8 == 0) }' "$w/table.txt"
tap_done
