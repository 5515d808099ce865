#!/bin/sh
# run-tests: parallel
# make sweep's local path, small: trees of 20 and 40 devices at 4 vCPUs,
# and 40 devices at 1 and 3 vCPUs (4 points, each one guest boot, two at a
# time through GNU parallel), then the spin DAG on the real clock, 20
# devices at 2 vCPUs and 40 at 1 (one at a time): sweep.dat has a row per point with both
# schedulers' speed-ups, efficiencies and the bound, and both curves are
# drawn.  Run again, every point is resumed (none measured); with one vCPU
# count more, only that point is measured.  (The figures are the bench's
# business; here only that they are there and that a speed-up never
# beats its bound by more than rounding.)
. "$(dirname "$0")/../lib.sh"
tap_plan 10
w=$BUILD/test-guest/sweep
rm -rf "$w"
mkdir -p "$BUILD/test-guest"
export SWEEP_SHAPES=tree SWEEP_DEVICES="20 40" SWEEP_CPUS="1 3" SWEEP_AT=40 JOBS=2 SWEEP_SPIN=20
"$TOP/bench/sweep.sh" "$w" > "$w.log" 2>&1
ok $? "sweep.sh measures 6 points"
sed 's/^/# /' "$w.log"
check "each point was measured once" [ "$(grep -c ': measured$' "$w.log")" -eq 6 ]
check "sweep.dat: a row per point, 8 figures each" \
	[ "$(grep -v '^#' "$w/sweep.dat" | awk 'NF == 8' | awk '{ print $1, $2, $3 }' | sort | tr '\n' ';')" = \
		"tree 20 4;tree 40 1;tree 40 3;tree 40 4;" ]
check "no speed-up above its bound (but for rounding)" \
	awk '!/^#/ { if ($4 > $8 + 0.02 || $5 > $8 + 0.02) bad++; n++ } END { exit !(n == 4 && !bad) }' "$w/sweep.dat"
check "both curves drawn" sh -c "file '$w/sweep-devices.png' '$w/sweep-cpus.png' | grep -c PNG | grep -qx 2"
cores=$(nproc)
[ "$cores" -le 2 ] || cores=2
check "sweep-spin.dat: the spin points, on the real clock" sh -c \
	"grep -qx '# kernel .*, clock real' '$w/sweep-spin.dat' &&
	 [ \"\$(grep -v '^#' '$w/sweep-spin.dat' | awk 'NF == 8 { print \$1, \$2, \$3 }' | tr '\n' ';')\" = 'spin 20 $cores;spin 40 1;' ] &&
	 grep -qx 'clock=real' '$w/points/spin-20-c$cores/run.txt'"
check "and its curves drawn" sh -c "file '$w/sweep-spin-devices.png' '$w/sweep-spin-cpus.png' | grep -c PNG | grep -qx 2"
"$TOP/bench/sweep.sh" "$w" > "$w.again.log" 2>&1
sed 's/^/# again: /' "$w.again.log"
check "run again: all 6 points resumed, none measured" \
	sh -c "[ \$(grep -c ': resumed$' '$w.again.log') -eq 6 ] && ! grep -q ': measured$' '$w.again.log'"
SWEEP_CPUS="1 3 5" "$TOP/bench/sweep.sh" "$w" > "$w.more.log" 2>&1
sed 's/^/# more: /' "$w.more.log"
check "one vCPU count more: only that point measured" \
	sh -c "[ \$(grep -c ': resumed$' '$w.more.log') -eq 6 ] && grep -q '^sweep: tree-40, 5 vCPUs: measured$' '$w.more.log'"
check "and sweep.dat has its row" grep -q '^tree 40 5 ' "$w/sweep.dat"
tap_done
