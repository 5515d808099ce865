#!/bin/sh
# run-tests.sh - run every pmlab test file and total the results.
#
# Usage: run-tests.sh [FILE.t...]   (default: tests/host/*.t tests/guest/*.t)
#
# Each file prints TAP.  The last line of output is "N passed, N failed";
# the exit status is non-zero when anything failed, a file exited non-zero
# without a failing check, or a file printed fewer checks than it planned.
#
# A file with the line "# run-tests: background" (the series bisect: kernel
# builds, nothing else) starts first, at nice 19 with JOBS=2, and runs
# alongside the others: a TCG guest with -icount runs on one host core and
# leaves the other idle.  Its summary line comes last.
#
# Files with the line "# run-tests: parallel" (guest tests that only boot
# guests into their own directories: no make in the project, no look at
# other processes) run last, two at a time: two single-threaded TCG guests
# keep both cores busy, and virtual time does not depend on the host's load.
# The others run one at a time, in order, before them.  Sanitizer reports
# are collected per file (each file has its own log path).
top=$(cd "$(dirname "$0")/.." && pwd)
logdir=$top/results/tests
rm -rf "$logdir"
mkdir -p "$logdir"
[ $# -gt 0 ] || set -- "$top"/tests/host/*.t "$top"/tests/guest/*.t

# Host tools built with SANITIZE=1 (bench/Makefile) abort on any ASan,
# LeakSanitizer or UBSan finding and leave its report in $logdir (the
# file's own log path, run_file); a report fails the test file that ran
# the tool, whatever the tool's caller checked.

# run_file FILE [background]: run it, write its log, LOG.counts ("passed failed skipped")
# and LOG.summary (the lines printed for it)
run_file() {
	name=$(basename "$(dirname "$1")")/$(basename "$1" .t)
	log=$logdir/$(echo "$name" | tr / -).tap
	san=$log.sanitizer
	export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:log_path=$san"
	export UBSAN_OPTIONS="abort_on_error=1:print_stacktrace=1:log_path=$san"
	start=$(date +%s)
	if [ -n "$2" ]; then
		JOBS=2 nice -n 19 sh "$1" > "$log" 2>&1
	else
		sh "$1" > "$log" 2>&1
	fi
	rc=$?
	p=$(grep -c '^ok ' "$log" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$log" | tr -d ' ')
	f=$(grep -c '^not ok ' "$log" | tr -d ' ')
	p=$((p - s))
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
	if [ -n "$plan" ] && [ $((p + s + f)) -ne "$plan" ]; then
		echo "not ok - $name: planned $plan checks, ran $((p + s + f))" >> "$log"
		f=$((f + 1))
	fi
	for r in "$san".*; do
		[ -e "$r" ] || continue
		echo "not ok - $name: a sanitizer report, $r:" >> "$log"
		sed 's/^/# /' "$r" | head -30 >> "$log"
		f=$((f + 1))
	done
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name: exited $rc" >> "$log"
		f=1
	fi
	echo "$p $f $s" > "$log.counts"
	{
		printf '%-32s %3d passed %3d failed %3d skipped  (%ds%s)\n' "$name" "$p" "$f" "$s" \
			$(($(date +%s) - start)) "${2:+, in the background}"
		[ "$f" -eq 0 ] || grep -E '^not ok|^# ' "$log" | head -40 | sed 's/^/    /'
	} > "$log.summary"
}

passed=0 failed=0 skipped=0
# add_counts LOG
add_counts() {
	read -r p f s < "$1.counts" || { p=0 f=1 s=0; }
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
bg_logs="" bg_pids=""
for t in "$@"; do
	grep -qx '# run-tests: background' "$t" || continue
	name=$(basename "$(dirname "$t")")/$(basename "$t" .t)
	run_file "$t" background &
	bg_pids="$bg_pids $!"
	bg_logs="$bg_logs $logdir/$(echo "$name" | tr / -).tap"
done
par=
for t in "$@"; do
	grep -qx '# run-tests: background' "$t" && continue
	if grep -qx '# run-tests: parallel' "$t"; then
		par="$par $t"
		continue
	fi
	run_file "$t" ""
	cat "$log.summary"
	add_counts "$log"
done
# par_lane: run the parallel files not yet claimed by the other lane
# (mkdir claims one atomically), printing each summary when it is done
par_lane() {
	for t in $par; do
		mkdir "$logdir/claim-$(basename "$(dirname "$t")")-$(basename "$t" .t)" 2>/dev/null || continue
		run_file "$t" ""
		cat "$log.summary"
	done
}
par_lane & lane_pid=$!
par_lane
wait "$lane_pid"
for t in $par; do
	add_counts "$logdir/$(basename "$(dirname "$t")")-$(basename "$t" .t).tap"
done
for pid in $bg_pids; do
	wait "$pid"
done
for log in $bg_logs; do
	if [ -f "$log.summary" ]; then
		cat "$log.summary"
	else
		echo "not ok - $(basename "$log" .tap): the background run left no result"
		echo "0 1 0" > "$log.counts"
	fi
	add_counts "$log"
done
[ "$skipped" -eq 0 ] || echo "$skipped skipped (not counted as passed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
