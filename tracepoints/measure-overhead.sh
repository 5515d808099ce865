#!/bin/sh
# measure-overhead.sh - cost of the dpm_device events on a transition of
# synthetic devices: in one guest boot, 3 transitions with the events
# disabled and 3 with them enabled (power:suspend_resume on in both, for
# the phase times), virtual clock.
#
# Usage: tracepoints/measure-overhead.sh [SCENARIO]   (default dag-500)
# Run from the top of the project after "make pmsynth tools".
set -eu
scen=${1:-dag-500}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/results/tracepoints-overhead-$scen
EXTRA="$top/lab/pmsynth/pmsynth.ko $top/bench/scenarios/$scen.txt" \
	"$top/lab/run-guest.sh" tracepoints "$out" "$scen.txt" 5 >&2
list() { ls "$out"/overhead-"$1"-*.trace | tr '\n' ',' | sed 's/,$//'; }
echo "# $scen, $(grep -c . "$out/devices.txt") devices, 3 transitions each, clock $(sed -n 's/^clock=//p' "$out/run.txt")"
"$top/build/tools/phase-times" --top 0 "disabled=$(list off)" "enabled=$(list on)" |
	grep -E '^(phase|dpm_|all )'
