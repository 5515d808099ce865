#!/bin/sh
# plots/phase-times.gp draws the bench's phases.dat as a PNG; a missing
# data file is an error, not an empty figure.  plots/sweep.gp draws the
# sample sweep.dat (tests/data: made-up figures, for the drawing only)
# against devices and vCPUs, its title naming shapes, kernel and clock.
. "$(dirname "$0")/../lib.sh"
tap_plan 8
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
gnuplot -e "data='$TOP/tests/data/phases.dat'; out='$w/p.png'; title='test'" \
	"$TOP/plots/phase-times.gp" > "$w/log" 2>&1
ok $? "phase-times.gp renders the sample bench data"
check "the figure is a 1000x500 PNG" sh -c "file '$w/p.png' | grep -q 'PNG image data, 1000 x 500'"
check "and not an empty one (> 10 kB of bars and labels)" [ "$(stat -c %s "$w/p.png")" -gt 10000 ]
gnuplot -e "data='$w/none.dat'; out='$w/q.png'" "$TOP/plots/phase-times.gp" > "$w/log" 2>&1
ok $((! $?)) "a missing data file fails"
for x in devices cpus; do
	gnuplot -e "data='$TOP/tests/data/sweep.dat'; x='$x'; at=500; out='$w/s-$x.png'; kernel='k1'" \
		"$TOP/plots/sweep.gp" > "$w/log-$x" 2>&1
done
check "sweep.gp draws both curves as 1000x900 (speed-up above efficiency) PNGs" \
	sh -c "file '$w/s-devices.png' '$w/s-cpus.png' | grep -c 'PNG image data, 1000 x 900' | grep -qx 2"
gnuplot -e "data='$w/none.dat'; x='cpus'; at=500; out='$w/n.png'; kernel='k1'" "$TOP/plots/sweep.gp" > "$w/log" 2>&1
ok $((! $?)) "sweep.gp: a missing data file fails"
gnuplot -e "data='$TOP/tests/data/sweep.dat'; x='time'; at=500; out='$w/t.png'; kernel='k1'" \
	"$TOP/plots/sweep.gp" > "$w/log" 2>&1
ok $((! $?)) "sweep.gp: an x other than devices or cpus fails"
check "... saying so" grep -q 'x must be devices or cpus' "$w/log"
tap_done
