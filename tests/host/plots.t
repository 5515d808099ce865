#!/bin/sh
# plots/phase-times.gp draws the bench's phases.dat as a PNG; a missing
# data file is an error, not an empty figure.
. "$(dirname "$0")/../lib.sh"
tap_plan 4
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
gnuplot -e "data='$TOP/tests/data/phases.dat'; out='$w/p.png'; title='test'" \
	"$TOP/plots/phase-times.gp" > "$w/log" 2>&1
ok $? "phase-times.gp renders the sample bench data"
check "the figure is a 1000x500 PNG" sh -c "file '$w/p.png' | grep -q 'PNG image data, 1000 x 500'"
check "and not an empty one (> 10 kB of bars and labels)" [ "$(stat -c %s "$w/p.png")" -gt 10000 ]
gnuplot -e "data='$w/none.dat'; out='$w/q.png'" "$TOP/plots/phase-times.gp" > "$w/log" 2>&1
ok $((! $?)) "a missing data file fails"
tap_done
