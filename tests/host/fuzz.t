#!/bin/sh
# A short libFuzzer run of each harness of bench/fuzz (the records reader,
# the scenario reader, dt2scen's DTB walk, phase-times' line parser) over
# its seed corpus: any crash, leak, sanitizer report or hang fails.  The
# seeds include the reproducers of the bugs fixed in issue 12; "make fuzz"
# runs each harness longer (FUZZ_TIME, default 600 s).
. "$(dirname "$0")/../lib.sh"
harnesses="records scenario dt-walk phase-parse"
tap_plan 8
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
for h in $harnesses; do
	make -s -C "$TOP/bench" O="$w" "$w/fuzz-$h" > "$w/build-$h.log" 2>&1
	_rc=$?
	[ $_rc -eq 0 ] || sed 's/^/# /' "$w/build-$h.log"
	ok $_rc "fuzz-$h builds (clang, libFuzzer + ASan + UBSan)"
	# the harness's own sanitizer reports go to its log, not the test log
	ASAN_OPTIONS= UBSAN_OPTIONS= O="$w" FUZZ_TIME=${FUZZ_SHORT:-15} \
		"$TOP/bench/fuzz/run-fuzz.sh" "$h" > "$w/run-$h.out" 2>&1
	_rc=$?
	sed 's/^/# /' "$w/run-$h.out"
	[ $_rc -eq 0 ] || tail -30 "$w/fuzz-$h.log" | sed 's/^/# /'
	ok $_rc "fuzz-$h: a short run over its seeds finds nothing"
done
tap_done
