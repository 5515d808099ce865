#!/bin/sh
# sweep.sh - make sweep: speed-up and efficiency of async suspend/resume
# against the number of devices and of vCPUs, as curves.
#
# Usage: sweep.sh OUTDIR
# Environment:
#   SWEEP_SHAPES   scenario shapes (default "tree dag": scengen's tree of
#                  fanout 4 and DAG of 1.5 pm_links per device)
#   SWEEP_DEVICES  device counts at 4 vCPUs (default "100 250 500 1000 2000")
#   SWEEP_CPUS     vCPU counts at SWEEP_AT devices (default "1 3 4 8": a
#                  2-vCPU guest on the virtual clock stalls in its first
#                  transition under pmtrace, a lost timer wake-up of QEMU
#                  7.2's -icount; README)
#   SWEEP_AT       the device count of the vCPU curves (default 500)
#   SWEEP_SPIN     device counts of the spin curve (default "100 250 500
#                  1000"; "none": no spin points): the DAG with every
#                  callback spinning 100 us, on the real clock (CPU work
#                  that spreads over CPUs), at the host's cores (at most 2
#                  vCPUs here), and 1 vCPU at SWEEP_AT; measured one at a
#                  time after the others (a real clock shares the host)
#   JOBS           points measured at once (default 2: virtual-clock guests
#                  side by side measure the same)
#   SSHLOGIN       GNU parallel's --sshlogin: run points on those hosts too
#                  (each with this checkout, built, at the same path, and
#                  OUTDIR on a file system they share)
#   REPS           transitions per mode and point (default 1)
# Every point is one guest boot, on the virtual clock but for spin (bench/sweep-point.sh:
# sync, 6.12's async and the series', critpath), run through GNU parallel;
# a point already measured with the same kernel, series, scenario, vCPUs,
# REPS and tools is not measured again (its key file), so an interrupted
# or extended sweep resumes; after a failed point, the running ones end
# first (GNU parallel --halt soon).  Writes OUTDIR/sweep.dat (a row per point),
# OUTDIR/sweep-devices.png and sweep-cpus.png (plots/sweep.gp: the
# series, 6.12 and the bound), the same for spin (sweep-spin.dat,
# sweep-spin-devices.png, sweep-spin-cpus.png), OUTDIR/joblog (GNU
# parallel's).
set -eu
die() { echo "sweep: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: sweep.sh OUTDIR"
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
shapes=${SWEEP_SHAPES:-tree dag}
devices=${SWEEP_DEVICES:-100 250 500 1000 2000}
cpus=${SWEEP_CPUS:-1 3 4 8}
at=${SWEEP_AT:-500}
jobs=${JOBS:-2}
spin=${SWEEP_SPIN-100 250 500 1000}
[ "$spin" != none ] || spin=
cores=$(nproc)
[ "$cores" -le 2 ] || cores=2
for s in $shapes; do case $s in tree|dag) ;; *) die "SWEEP_SHAPES: '$s' is not tree or dag";; esac; done
for n in $devices $at $spin; do
	case $n in ''|*[!0-9]*|0) die "SWEEP_DEVICES, SWEEP_AT, SWEEP_SPIN: '$n' is not a device count 1..4096";; esac
	[ "$n" -le 4096 ] || die "SWEEP_DEVICES, SWEEP_AT, SWEEP_SPIN: '$n' is not a device count 1..4096"
done
for c in $cpus; do
	case $c in ''|*[!0-9]*|0) die "SWEEP_CPUS: '$c' is not a vCPU count 1..16";; esac
	[ "$c" -le 16 ] || die "SWEEP_CPUS: '$c' is not a vCPU count 1..16"
done
case $jobs in ''|*[!0-9]*|0) die "JOBS must be a positive number, got '$jobs'";; esac
command -v parallel >/dev/null || die "GNU parallel not found (make deps installs it)"
for f in build/tools/scengen build/tools/critpath build/bpf/pmtrace lab/pmsynth/pmsynth.ko; do
	[ -f "$top/$f" ] || die "$f not built (make sweep builds it)"
done
mkdir -p "$out"
out=$(realpath "$out")
# the points, "SHAPE DEVICES CPUS", each once
for s in $shapes; do
	for n in $devices; do echo "$s $n 4"; done
	for c in $cpus; do echo "$s $at $c"; done
done | awk '!seen[$0]++' > "$out/points.txt"
# the real-clock points, one at a time after the others
{
	for n in $spin; do echo "spin $n $cores"; done
	[ -z "$spin" ] || echo "spin $at 1"
} | awk '!seen[$0]++' > "$out/points-real.txt"
echo "sweep: $(wc -l < "$out/points.txt") virtual-clock points, $jobs at a time${SSHLOGIN:+, also on $SSHLOGIN}, then $(wc -l < "$out/points-real.txt") real-clock ones; results in $out"
# shellcheck disable=SC2086
parallel --will-cite --jobs "$jobs" --colsep ' ' --halt soon,fail=1 --joblog "$out/joblog" \
	${SSHLOGIN:+--sshlogin ":,$SSHLOGIN" --workdir . --env REPS --env TIMEOUT} \
	"$top/bench/sweep-point.sh" "$out" {1} {2} {3} :::: "$out/points.txt" ||
	die "a point failed (GNU parallel's joblog: $out/joblog)"
if [ -s "$out/points-real.txt" ]; then
	parallel --will-cite --jobs 1 --colsep ' ' --halt soon,fail=1 --joblog "$out/joblog-real" \
		"$top/bench/sweep-point.sh" "$out" {1} {2} {3} :::: "$out/points-real.txt" ||
		die "a point failed (GNU parallel's joblog: $out/joblog-real)"
fi
{
	echo "# shape devices cpus speedup_new speedup_612 efficiency_new efficiency_612 speedup_bound"
	echo "# kernel $(cat "$top/build/obj/include/config/kernel.release"), clock virtual"
	while read -r s n c; do cat "$out/points/$s-$n-c$c/row.txt"; done < "$out/points.txt"
} > "$out/sweep.dat.tmp"
mv "$out/sweep.dat.tmp" "$out/sweep.dat"
kernel=$(cat "$top/build/obj/include/config/kernel.release")
for x in devices cpus; do
	gnuplot -e "data='$out/sweep.dat'; x='$x'; at=$at; out='$out/sweep-$x.png'; kernel='$kernel'" \
		"$top/plots/sweep.gp" || die "gnuplot failed drawing sweep-$x.png"
done
figs="$out/sweep-devices.png, $out/sweep-cpus.png"
if [ -s "$out/points-real.txt" ]; then
	{
		echo "# shape devices cpus speedup_new speedup_612 efficiency_new efficiency_612 speedup_bound"
		echo "# kernel $kernel, clock real"
		while read -r s n c; do cat "$out/points/$s-$n-c$c/row.txt"; done < "$out/points-real.txt"
	} > "$out/sweep-spin.dat.tmp"
	mv "$out/sweep-spin.dat.tmp" "$out/sweep-spin.dat"
	for x in devices cpus; do
		gnuplot -e "data='$out/sweep-spin.dat'; x='$x'; at=$at; cpus=$cores; clock='real';
			out='$out/sweep-spin-$x.png'; kernel='$kernel'" "$top/plots/sweep.gp" ||
			die "gnuplot failed drawing sweep-spin-$x.png"
	done
	figs="$figs, $out/sweep-spin-devices.png, $out/sweep-spin-cpus.png"
fi
echo "sweep: done: $out/sweep.dat, $figs"
