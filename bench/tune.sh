#!/bin/sh
# tune.sh - make tune: the async opt-in tuner's loop, closed in the guest.
#
# Usage: tune.sh SCENARIO OUTDIR     (writes OUTDIR/NAME, NAME the scenario's)
# SCENARIO: a name of bench/scenarios (e.g. dt-sdm845-db845c-realistic) or
# a scenario file.  Environment: REPS (transitions per set, default 3),
# SMP (vCPUs, default 4), TIMEOUT (per boot), PMTUNE_FLAGS (more pmtune
# options, e.g. "--unsafe" or "--within 10").
#
# 1. one boot (lab/jobs/tune.sh): REPS sync transitions, REPS as-is (the
#    scenario's own async flags), REPS all-async, recorded by pmtrace on
#    the virtual clock: OUTDIR/NAME/measure;
# 2. bench/pmtune on them: OUTDIR/NAME/pmtune.txt (the model, the predictions,
#    the flips), OUTDIR/NAME/recommended.sh (the best set's power/async writes);
# 3. a second boot applies recommended.sh and records REPS transitions with
#    it: OUTDIR/NAME/tuned;
# 4. pmtune on all of them: predicted against measured for every set
#    (OUTDIR/NAME/check.txt), the table on stdout and in OUTDIR/NAME/tune.txt.
# A failed step stops it with one line naming the cause; OUTDIR keeps what
# was made.
set -eu
die() { echo "tune: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: tune.sh SCENARIO OUTDIR"
top=$(cd "$(dirname "$0")/.." && pwd)
tools=$top/build/tools
reps=${REPS:-3}
case $reps in ''|*[!0-9]*|0) die "REPS must be a positive number, got '$reps'";; esac
scen=$1
[ -f "$scen" ] || scen=$top/bench/scenarios/$1.txt
[ -f "$scen" ] || die "no scenario '$1' (a name of bench/scenarios or a file)"
name=$(basename "$scen" .txt)
for f in build/tools/pmtune build/bpf/pmtrace lab/pmsynth/pmsynth.ko; do
	[ -f "$top/$f" ] || die "$f not built (make tune builds it)"
done
"$tools/critpath" --check "$scen" > /dev/null || die "$scen is not a scenario pmsynth loads"
out=$2/$name
rm -rf "$out/measure" "$out/tuned" "$out/recommended.sh" "$out/pmtune.txt" "$out/check.txt" \
	"$out/pmtune-check.txt" "$out/tune.txt"
mkdir -p "$out"
cp "$scen" "$out/$name.txt"
extra="$top/lab/pmsynth/pmsynth.ko $top/build/bpf/pmtrace $out/$name.txt"
echo "tune: $name: measuring sync, as-is and all-async ($reps each, virtual clock)"
CLOCK=virtual EXTRA="$extra" "$top/lab/run-guest.sh" tune "$out/measure" "$reps" "$name.txt" \
	virtual > "$out/measure.log" 2>&1 || die "the measuring boot failed: $(tail -1 "$out/measure.log")"
m=$out/measure
# shellcheck disable=SC2086
"$tools/pmtune" ${PMTUNE_FLAGS:-} --script "$out/recommended.sh" "$out/$name.txt" \
	--calibrate all-async "$m"/sync-*.jsonl "$m"/asis-*.jsonl "$m"/all-async-*.jsonl \
	> "$out/pmtune.txt" \
	2> "$out/pmtune.log" || die "pmtune: $(tail -1 "$out/pmtune.log")"
echo "tune: $(grep -c '^echo' "$out/recommended.sh") power/async writes recommended; measuring them"
CLOCK=virtual EXTRA="$extra $out/recommended.sh" "$top/lab/run-guest.sh" tune "$out/tuned" \
	"$reps" "$name.txt" virtual recommended.sh > "$out/tuned.log" 2>&1 ||
	die "the tuned boot failed: $(tail -1 "$out/tuned.log")"
# shellcheck disable=SC2086
"$tools/pmtune" ${PMTUNE_FLAGS:-} --summary "$out/check.txt" "$out/$name.txt" "$m"/sync-*.jsonl \
	--calibrate all-async "$m"/asis-*.jsonl "$m"/all-async-*.jsonl "$out/tuned"/tuned-*.jsonl \
	> "$out/pmtune-check.txt" \
	2> "$out/pmtune.log" || die "pmtune: $(tail -1 "$out/pmtune.log")"
{
	echo "# make tune: scenario $name, $reps transitions per set, $(sed -n 's/^smp=//p' "$m/run.txt") vCPUs,"
	echo "# virtual clock (one instruction clock for all vCPUs: CPU work weighs 10-20x more"
	echo "# against device waits than on a laptop); ms per transition, means; predicted by"
	echo "# pmtune from the sync and all-async transitions (bench/README.md)"
	printf '%-10s %6s %10s %10s %7s\n' set async predicted measured error
	for set in all-sync as-is tuned all-async; do
		awk -v s="$set" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["opt_in"] == s) { n++; a = v["async"]; p += v["predicted"]; m += v["measured"] } }
			END { if (n) printf "%-10s %6d %10.3f %10.3f %+6.1f%%\n", s, a, p / n, m / n,
				100 * (p - m) / m }' "$out/check.txt"
	done
} > "$out/tune.txt"
[ "$(grep -vc '^#' "$out/tune.txt")" -eq 5 ] || die "a set has no transitions in $out/check.txt"
cat "$out/tune.txt"
