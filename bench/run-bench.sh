#!/bin/sh
# run-bench.sh - the main job: guest transitions, sync then async, and
# their per-phase times.
#
# Usage: run-bench.sh RESULTS_ROOT
# Environment: REPS (transitions per mode, default 3), DEVICES (a scenario
# of bench/scenarios, default dag-500; "none" for the guest's own devices
# only), CLOCK, SMP, TIMEOUT (passed to lab/run-guest.sh).
#
# Writes RESULTS_ROOT/<UTC time>-<clock>/ with the guest's traces, console
# log, run settings (kernel version, series hash, clock, QEMU) and
# table.txt, phases.dat and phases.png (plots/phase-times.gp), and points
# RESULTS_ROOT/latest at it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die() { echo "bench: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: run-bench.sh RESULTS_ROOT"
root=$1
REPS=${REPS:-3}
DEVICES=${DEVICES:-dag-500}
export CLOCK=${CLOCK:-virtual}
case $REPS in ''|*[!0-9]*|0) die "REPS must be a positive number, got '$REPS'";; esac

tools=$top/build/tools
mkdir -p "$tools"
make -s -C "$here" O="$tools" >/dev/null || die "cannot build bench tools"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$root/$stamp-$CLOCK
mkdir -p "$root"
if [ "$DEVICES" = none ]; then
	devfile= devarg=
else
	devfile=$top/bench/scenarios/$DEVICES.txt
	[ -f "$devfile" ] || die "unknown device scenario '$DEVICES' (see bench/scenarios)"
	devarg=$DEVICES.txt
	export EXTRA="$top/lab/pmsynth/pmsynth.ko $devfile"
fi
echo "bench: [1/2] guest: $REPS sync + $REPS async transitions, devices: $DEVICES (clock $CLOCK)"
"$top/lab/run-guest.sh" phases "$out" "$REPS" $devarg || die "guest run failed"
{
	echo "series_sha256=$(cat "$top/build/linux/.pmlab-series")"
	echo "kernel_release=$(cat "$top/build/obj/include/config/kernel.release")"
} >> "$out/run.txt"

echo "bench: [2/2] analysis"
sync=$(ls "$out"/sync-*.trace | tr '\n' ',' | sed 's/,$//')
async=$(ls "$out"/async-*.trace | tr '\n' ',' | sed 's/,$//')
{
	echo "# pmlab bench: $REPS transitions per mode (mem, pm_test=core), devices: guest's own + $DEVICES"
	sed 's/^/# /' "$out/run.txt"
	[ ! -f "$out/oracle.txt" ] || sed -n 's/^violations /# ordering oracle violations: /p' "$out/oracle.txt"
	"$tools/phase-times" "sync=$sync" "async=$async"
} > "$out/table.txt.tmp" || die "analysis failed"
mv "$out/table.txt.tmp" "$out/table.txt"
awk '/^dpm_/ && NF >= 3 { print $1, $2, $3 }' "$out/table.txt" > "$out/phases.dat"
gnuplot -e "data='$out/phases.dat'; out='$out/phases.png.tmp'; title='$DEVICES, clock $CLOCK'" \
	"$top/plots/phase-times.gp" || { rm -f "$out/phases.png.tmp"; die "gnuplot failed on $out/phases.dat"; }
mv "$out/phases.png.tmp" "$out/phases.png"
ln -sfn "$stamp-$CLOCK" "$root/latest"
cat "$out/table.txt"
echo "bench: results in $out (figure: phases.png)"
