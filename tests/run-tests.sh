#!/bin/sh
# run-tests.sh - run every pmlab test file and total the results.
#
# Usage: run-tests.sh [FILE.t...]   (default: tests/host/*.t tests/guest/*.t)
#
# Each file prints TAP.  The last line of output is "N passed, N failed";
# the exit status is non-zero when anything failed, a file exited non-zero
# without a failing check, or a file printed fewer checks than it planned.
top=$(cd "$(dirname "$0")/.." && pwd)
logdir=$top/results/tests
rm -rf "$logdir"
mkdir -p "$logdir"
[ $# -gt 0 ] || set -- "$top"/tests/host/*.t "$top"/tests/guest/*.t

# Host tools built with SANITIZE=1 (bench/Makefile) abort on any ASan,
# LeakSanitizer or UBSan finding and leave its report in $logdir; a report
# fails the test file that ran the tool, whatever the tool's caller checked.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:log_path=$logdir/sanitizer"
export UBSAN_OPTIONS="abort_on_error=1:print_stacktrace=1:log_path=$logdir/sanitizer"

passed=0 failed=0 skipped=0
for t in "$@"; do
	name=$(basename "$(dirname "$t")")/$(basename "$t" .t)
	log=$logdir/$(echo "$name" | tr / -).tap
	start=$(date +%s)
	sh "$t" > "$log" 2>&1
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
	for r in "$logdir"/sanitizer.*; do
		[ -e "$r" ] || continue
		echo "not ok - $name: a sanitizer report, $r:" >> "$log"
		sed 's/^/# /' "$r" | head -30 >> "$log"
		mv "$r" "$log.$(basename "$r")"
		f=$((f + 1))
	done
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name: exited $rc" >> "$log"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	printf '%-32s %3d passed %3d failed %3d skipped  (%ds)\n' "$name" "$p" "$f" "$s" $(($(date +%s) - start))
	[ "$f" -eq 0 ] || grep -E '^not ok|^# ' "$log" | head -40 | sed 's/^/    /'
done
[ "$skipped" -eq 0 ] || echo "$skipped skipped (not counted as passed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
