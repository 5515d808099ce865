#!/bin/sh
# run-fuzz.sh - run libFuzzer harnesses for a while each, fail on a finding.
#
# Usage: O=DIR FUZZ_TIME=SECONDS run-fuzz.sh NAME...
#
# Runs DIR/fuzz-NAME for SECONDS over a working copy of the seed corpus
# bench/fuzz/corpus/NAME (in DIR/fuzz-work/NAME: inputs it finds stay
# there, the shipped seeds are not touched).  A crash, leak, sanitizer
# report, timeout (10 s per input) or out-of-memory (2 GiB) leaves its
# reproducer in DIR/fuzz-findings/ and fails the run; replay one with
# "DIR/fuzz-NAME FILE".  Prints one line per harness.
here=$(cd "$(dirname "$0")" && pwd)
: "${O:?set O to the build directory}" "${FUZZ_TIME:=600}"
case $FUZZ_TIME in
''|*[!0-9]*|0) echo "run-fuzz: FUZZ_TIME must be a positive number of seconds, got '$FUZZ_TIME'" >&2
	exit 2;;
esac
[ $# -gt 0 ] || { echo "usage: O=DIR FUZZ_TIME=S run-fuzz.sh NAME..." >&2; exit 2; }
status=0
for name in "$@"; do
	bin=$O/fuzz-$name seeds=$here/corpus/$name work=$O/fuzz-work/$name
	[ -x "$bin" ] || { echo "run-fuzz: $bin not built" >&2; exit 2; }
	[ -d "$seeds" ] || { echo "run-fuzz: no seed corpus $seeds" >&2; exit 2; }
	mkdir -p "$work" "$O/fuzz-findings"
	cp "$seeds"/* "$work"/
	log=$O/fuzz-$name.log
	"$bin" -max_total_time="$FUZZ_TIME" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-close_fd_mask=2 \
		-artifact_prefix="$O/fuzz-findings/$name-" "$work" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
	if [ $rc -eq 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
		echo "fuzz $name: ${runs:-?} inputs in ${secs:-?} s, no finding ($(ls "$work" | wc -l) in corpus)"
	else
		echo "fuzz $name: FINDING (exit $rc) after ${runs:-?} inputs; log $log:" >&2
		grep -E 'ERROR|runtime error|Test unit written|SUMMARY' "$log" | head -8 | sed 's/^/  /' >&2
		status=1
	fi
done
exit $status
