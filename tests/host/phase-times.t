#!/bin/sh
# bench/phase-times: per-phase means, device attribution, bad input.
. "$(dirname "$0")/../lib.sh"
tap_plan 11
d=$TOP/tests/data
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"	# run-tests.sh's log_path kept
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/phase-times" >/dev/null
pt=$w/phase-times

"$pt" "sync=$d/phases-a.trace" "async=$d/phases-b.trace" > "$w/out" 2>&1
ok $? "two sets analyse"
check "dpm_suspend: 8 ms vs 4 ms, speed-up 2.00x" \
	sh -c "grep -E '^dpm_suspend\[2\] +8\.000 +4\.000 +2\.00x' '$w/out' >/dev/null"
check "dpm_prepare is reported" sh -c "grep -E '^dpm_prepare\[2\] +2\.000 +2\.000 +1\.00x' '$w/out' >/dev/null"
check "sum of dpm_* phases: 14 ms vs 8 ms" \
	sh -c "grep -E '^all dpm_\* phases +14\.000 +8\.000 +1\.75x' '$w/out' >/dev/null"
check "slowest device attributed to its phase (dev0 5 ms)" \
	sh -c "grep -E 'dpm_suspend\[2\] +dev0 +5\.000' '$w/out' >/dev/null"

cat > "$w/expected" <<'EOF'
phase (ms)                       sync        async  speed-up
dpm_prepare[2]                  2.000        2.000     1.00x
dpm_suspend[2]                  8.000        4.000     2.00x
dpm_resume[16]                  4.000        2.000     2.00x
all dpm_* phases               14.000        8.000     1.75x

sync: slowest device callbacks per phase (ms, mean of 1)
  dpm_prepare[2]         serial8250                          1.000
  dpm_suspend[2]         dev0                                5.000
                         dev1                                2.000

async: slowest device callbacks per phase (ms, mean of 2)
  dpm_prepare[2]         serial8250                          1.000
  dpm_suspend[2]         dev0                                3.000
                         dev1                                2.000
EOF
"$pt" sync="$d/phases-a.trace" async="$d/phases-b.trace,$d/phases-b.trace" > "$w/out" 2>&1
check "the whole table is as it always was (tests/guest/phases.t parses it)" \
	cmp -s "$w/expected" "$w/out"

"$pt" "sync=$d/phases-a.trace,$d/phases-b.trace" > "$w/out" 2>&1
check "repetitions are averaged (dpm_suspend 6 ms)" \
	sh -c "grep -E '^dpm_suspend\[2\] +6\.000' '$w/out' >/dev/null"

head -n 10 "$d/phases-a.trace" > "$w/trunc.trace"
"$pt" "x=$w/trunc.trace" > "$w/out" 2>&1
ok $((! $?)) "a truncated trace is rejected"
check "the error names the file and the open phase" \
	contains "$w/out" "trunc.trace: dpm_suspend[2] begins and never ends"

"$pt" "x=$d/phases-nodriver.trace" > "$w/out" 2>&1
check "a device without driver string is named right (platform 1 ms)" \
	sh -c "grep -E 'dpm_prepare\[2\] +platform +1\.000' '$w/out' >/dev/null"

"$pt" "x=$w/nonexistent" > "$w/out" 2>&1 || true
check "a missing file is named" contains "$w/out" "nonexistent: No such file"
tap_done
