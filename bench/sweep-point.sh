#!/bin/sh
# sweep-point.sh - one point of make sweep: a generated scenario, one
# guest boot (virtual clock; spin: real), the sync, 6.12 and series transitions
# (lab/jobs/bench.sh ... lean), critpath of both schedulers.
#
# Usage: sweep-point.sh OUTDIR SHAPE DEVICES CPUS
# SHAPE is tree or dag (bench/scengen: tree fanout 4; dag 1.5 pm_links per
# device, seeded by DEVICES), both on the virtual clock, or spin (that DAG
# with every callback spinning 100 us, on the real clock: CPU work that
# does spread over CPUs), CPUS the guest's vCPUs.  Writes
# OUTDIR/points/SHAPE-DEVICES-cCPUS/: the scenario, the records,
# summary.txt and summary-6.12.txt (critpath), key (what the point was
# measured with: kernel release, series hash, scenario sha256, vCPUs,
# REPS, and the sha256 of pmsynth.ko, pmtrace, the guest job and
# critpath) and row.txt, "SHAPE DEVICES CPUS SPEEDUP_NEW SPEEDUP_612
# EFF_NEW EFF_612 SPEEDUP_BOUND" (speed-ups T(sync)/T(async), the
# bound's T(sync)/bound; efficiencies %).  A point whose key file
# matches and whose row.txt exists is not measured again: prints
# "resumed", else "measured".  Exit status: 0, or 1 with one line naming
# the cause (what the point had is then in POINT.failed).
set -eu
die() { echo "sweep-point: $*" >&2; exit 1; }
[ $# -eq 4 ] || die "usage: sweep-point.sh OUTDIR SHAPE DEVICES CPUS"
out=$1 shape=$2 n=$3 cpus=$4
top=$(cd "$(dirname "$0")/.." && pwd)
clock=virtual
case $shape in tree) gen="tree -n $n --fanout 4";; dag) gen="dag -n $n --links 1.5 --seed $n";;
spin) gen="dag -n $n --links 1.5 --seed $n"; clock=real;;
*) die "SHAPE must be tree, dag or spin, got '$shape'";; esac
case $n in ''|*[!0-9]*|0) die "DEVICES must be a number 1..4096, got '$n'";; esac
[ "$n" -le 4096 ] || die "DEVICES must be a number 1..4096, got '$n'"
case $cpus in ''|*[!0-9]*|0) die "CPUS must be a number 1..16, got '$cpus'";; esac
[ "$cpus" -le 16 ] || die "CPUS must be a number 1..16, got '$cpus'"
reps=${REPS:-1}
name=$shape-$n
d=$out/points/$name-c$cpus
mkdir -p "$out/points"
# shellcheck disable=SC2086
if [ "$shape" = spin ]; then
	"$top/build/tools/scengen" $gen --defaults "mode=all:spin lat=system:100"
else
	"$top/build/tools/scengen" $gen
fi > "$out/points/.$name-c$cpus.txt" || die "scengen $gen failed"
# what the point's figures depend on: kernel, series, scenario, vCPUs,
# REPS, and the module, tracer, guest job and analysis that made them
release=$(cat "$top/build/obj/include/config/kernel.release") || die "no kernel built (make sweep)"
series=$(cat "$top/build/linux/.pmlab-series") || die "no series applied (make sweep)"
tools=$(cd "$top" && sha256sum lab/pmsynth/pmsynth.ko build/bpf/pmtrace lab/jobs/bench.sh \
	build/tools/critpath | cut -d' ' -f1 | tr '\n' ' ') || die "a tool is missing (make sweep)"
key=$(printf '%s\n' "kernel=$release" "series=$series" \
	"scenario=$(sha256sum < "$out/points/.$name-c$cpus.txt" | cut -d' ' -f1)" \
	"cpus=$cpus" "reps=$reps" "tools=$tools")
if [ -f "$d/row.txt" ] && [ "$(cat "$d/key" 2>/dev/null)" = "$key" ]; then
	rm -f "$out/points/.$name-c$cpus.txt"
	echo "sweep: $name, $cpus vCPUs: resumed"
	exit 0
fi
rm -rf "$d" "$d.tmp" "$d.failed" "$d.guest.failed"
mkdir -p "$d.tmp"
mv "$out/points/.$name-c$cpus.txt" "$d.tmp/$name.txt"
# a point that fails keeps what it had in $d.failed, for a look
trap 'rm -rf "$d.guest"; [ ! -d "$d.tmp" ] || mv "$d.tmp" "$d.failed"' EXIT
trap 'exit 130' INT TERM
SMP=$cpus CLOCK=$clock EXTRA="$top/lab/pmsynth/pmsynth.ko $top/build/bpf/pmtrace $d.tmp/$name.txt" \
	"$top/lab/run-guest.sh" bench "$d.guest" "$reps" "$name.txt" "$clock" lean > "$d.tmp/guest.log" 2>&1 ||
	die "$name, $cpus vCPUs: the guest failed: $(tail -1 "$d.tmp/guest.log")"
mv "$d.guest"/* "$d.tmp/"
tools=$top/build/tools
"$tools/critpath" -s "$d.tmp/summary.txt" "$d.tmp/$name.txt" "$d.tmp"/sync-*.jsonl \
	"$d.tmp"/async-*.jsonl > "$d.tmp/table.txt" 2> "$d.tmp/critpath.log" &&
"$tools/critpath" -s "$d.tmp/summary-6.12.txt" "$d.tmp/$name.txt" "$d.tmp"/sync-*.jsonl \
	"$d.tmp"/legacy-*.jsonl > "$d.tmp/table-6.12.txt" 2>> "$d.tmp/critpath.log" ||
	die "$name, $cpus vCPUs: critpath: $(tail -1 "$d.tmp/critpath.log")"
get() { tr ' ' '\n' < "$d.tmp/$1" | sed -n "s/^$2=//p"; }
ts=$(get summary.txt t_sync) bound=$(get summary.txt bound)
echo "$shape $n $cpus $(get summary.txt speedup) $(get summary-6.12.txt speedup)" \
	"$(get summary.txt efficiency) $(get summary-6.12.txt efficiency)" \
	"$(awk -v t="$ts" -v b="$bound" 'BEGIN { printf "%.2f", t / b }')" > "$d.tmp/row.txt"
[ "$(wc -w < "$d.tmp/row.txt")" -eq 8 ] || die "$name, $cpus vCPUs: a summary lacks a figure"
echo "$key" > "$d.tmp/key"
mv "$d.tmp" "$d"
echo "sweep: $name, $cpus vCPUs: measured"
