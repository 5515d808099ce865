#!/bin/sh
# soak.sh - make soak: randomized rounds of transitions on the debug
# kernel (lockdep, KASAN, DEBUG_ATOMIC_SLEEP, hung-task checks), with
# faults and runtime PM activity, stopping at the first failure with what
# replays it.
#
# Usage: soak.sh OUTDIR
# Environment:
#   SEED         the soak's seed (default 1): the same seed, the same rounds
#   ROUNDS       rounds (default 50); PER_ROUND transitions each (default 20)
#   MAX_DEVICES  a round's scenario has 10..MAX_DEVICES devices, log-uniform
#                (default 300: on the debug kernel under TCG a 1,000-device
#                round's transitions take tens of seconds each)
#   JOBS         guests at once (default 2), the rounds dealt out round-robin
#   ONLY         run only round ONLY (a replay)
#   SOAK_KERNEL  debug (default: build/obj-debug, pmsynth built for it) or
#                lab (the lab kernel, faster, fewer checks)
#   SOAK_BREAK   oracle: round 1's scenario also declares to the ordering
#                oracle a dependency no device link enforces (pmsynth's
#                oracle_masters=), a deliberate bug the soak must catch
#   TIMEOUT      seconds per guest (default 5400: a lane of the default soak
#                runs ~58 min here)
#   DRY          1: write the rounds and stop (no guest)
# A round: a scengen graph (tree, DAG, chain or star), each device async at
# the round's own rate, callbacks of the round's latency (0-500 us,
# sleeping; some spinning 20 us), and PER_ROUND transitions drawn from:
# pm_async 0, 1 or 2; mem with pm_test=core (every phase), freeze with
# pm_test=devices or disk (hibernation's test mode at pm_test=core: the
# freeze and restore phases, no image); a callback failing at a random
# device and phase (5, 16 or 22, once or always) in 4 of 10; a thread
# taking and dropping a runtime usage reference of a device of depth 16 or
# less (parents and suppliers above it) meanwhile in 3 of 10
# (lab/jobs/soak.sh checks each transition).  Writes OUTDIR/rounds/NNNN/{scenario,plan}.txt, a guest
# directory per lane, OUTDIR/summary.txt; on a failure OUTDIR/failure/
# (failed.txt, the round's scenario and plan, the console and dmesg, the
# seed, replay.sh: the one command that runs that round again) and exit 1.
set -eu
die() { echo "soak: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: soak.sh OUTDIR"
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
# a runtime resume recurses through every parent and supplier above the
# device: 6.12 overflows the debug kernel's stack at a depth of about 47
# (the lab kernel's near 100), so the churn thread's device is one of
# depth 16 at most
rpm_depth=16
seed=${SEED:-1} rounds=${ROUNDS:-50} per=${PER_ROUND:-20} maxdev=${MAX_DEVICES:-300}
jobs=${JOBS:-2} only=${ONLY:-}
for v in "SEED=$seed" "ROUNDS=$rounds" "PER_ROUND=$per" "MAX_DEVICES=$maxdev" "JOBS=$jobs"; do
	case ${v#*=} in ''|*[!0-9]*|0) die "${v%%=*} must be a positive number, got '${v#*=}'";; esac
done
# decimal, whatever leading zeros (sh arithmetic would read 09 as octal)
seed=$(echo "$seed" | sed 's/^0*//') rounds=$(echo "$rounds" | sed 's/^0*//')
per=$(echo "$per" | sed 's/^0*//') maxdev=$(echo "$maxdev" | sed 's/^0*//')
jobs=$(echo "$jobs" | sed 's/^0*//')
for v in "SEED=$seed" "ROUNDS=$rounds" "PER_ROUND=$per" "MAX_DEVICES=$maxdev" "JOBS=$jobs"; do
	[ -n "${v#*=}" ] || die "${v%%=*} must be a positive number, got 0"
done
[ "$maxdev" -ge 10 ] && [ "$maxdev" -le 4096 ] || die "MAX_DEVICES must be 10..4096, got $maxdev"
case $only in '') ;; *[!0-9]*) die "ONLY must be a round number, got '$only'";; esac
[ -z "$only" ] || only=$(echo "$only" | sed 's/^0*//')
[ -z "${ONLY:-}" ] || [ -n "$only" ] || die "ONLY must be a round number 1.., got '$ONLY'"
[ -z "$only" ] || [ "$only" -le "$rounds" ] || die "ONLY=$only: there are $rounds rounds"
case ${SOAK_BREAK:-} in ''|oracle) ;; *) die "SOAK_BREAK must be oracle or empty, got '$SOAK_BREAK'";; esac
case ${SOAK_KERNEL:-debug} in
debug) kernel=$top/build/obj-debug/arch/x86/boot/bzImage mod=$top/build/pmsynth-debug/pmsynth.ko;;
lab) kernel=$top/build/obj/arch/x86/boot/bzImage mod=$top/lab/pmsynth/pmsynth.ko;;
*) die "SOAK_KERNEL must be debug or lab, got '$SOAK_KERNEL'";;
esac
lean=$top/build/initramfs-lean.cpio
for f in "$top/build/tools/scengen" $([ "${DRY:-}" = 1 ] || echo "$kernel $mod $lean"); do
	[ -f "$f" ] || die "$f not built (make soak builds it)"
done
command -v awk > /dev/null || die "no awk"
[ -n "$out" ] || die "OUTDIR is empty"
case $out in /*) ;; *) out=$(pwd)/$out;; esac	# replay.sh runs from the top
# OUTDIR is replaced: only when it is a soak's own or empty
if [ -e "$out" ] && [ ! -d "$out/rounds" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "$out exists and is not a soak's results: not replacing it"
fi
rm -rf "$out"
mkdir -p "$out/rounds"

# stream_seed ROUND STREAM: a seed of the soak's seed, the round and the
# stream, below 2^31 - 1 (mawk takes any larger seed as that one)
stream_seed() { echo $(($(printf '%s:%s:%s' "$seed" "$1" "$2" | cksum | cut -d' ' -f1) % 2147483647)); }

# round R's scenario and plan, from the round's own seed
make_round() {
	r=$1 d=$out/rounds/$(printf %04d "$1")
	# three streams per round (graph, flags, plan), each seeded by a CRC of
	# "SEED:ROUND:STREAM": awk's generator (mawk's) gives nearby seeds
	# nearby first draws, and consecutive seeds made consecutive rounds'
	# sizes a smooth run (244, 223, 208, ... devices)
	rs=$(stream_seed "$r" graph) fs=$(stream_seed "$r" flags) ps=$(stream_seed "$r" plan)
	mkdir -p "$d"
	# shape, size, graph parameters, latency, async rate: one awk draw each
	set -- $(awk -v s="$rs" -v max="$maxdev" 'BEGIN { srand(s)
		split("tree dag dag chain star", sh, " "); shape = sh[int(rand() * 5) + 1]
		n = int(exp(log(10) + rand() * (log(max) - log(10))))
		split("0 20 100 500", la, " ")
		printf "%s %d %d %.2f %s %.2f\n", shape, n, 2 + int(rand() * 5), 0.5 + rand() * 1.5,
			la[int(rand() * 4) + 1], rand() }')
	shape=$1 n=$2 fanout=$3 links=$4 lat=$5 rate=$6
	case $shape in
	tree) g="tree -n $n --fanout $fanout";;
	dag) g="dag -n $n --links $links";;
	*) g="$shape -n $n";;
	esac
	# shellcheck disable=SC2086
	"$top/build/tools/scengen" $g --seed "$rs" --defaults "lat=all:$lat mode=all:sleep" \
		> "$d/graph.txt" 2> /dev/null || die "round $r: scengen $g failed"
	awk -v s="$fs" -v rate="$rate" 'BEGIN { srand(s) }
		/^[#@]/ || !NF { print; next }
		{ line = $0 " async=" (rand() < rate)
		  if (rand() < 0.05) line = line " mode=system:spin lat=system:20"
		  print line }' "$d/graph.txt" > "$d/scenario.txt"
	# SOAK_BREAK=oracle, round 1: two more devices, the first declared (to
	# the oracle only) to depend on the second, which dpm_list puts after
	# it; no device link tells the PM core, so it orders them the other way
	broken=
	if [ "${SOAK_BREAK:-}" = oracle ] && [ "$r" = 1 ]; then
		printf 'soak_broken_x oracle_masters=soak_broken_y\nsoak_broken_y\n' >> "$d/scenario.txt"
		broken=1
	fi
	rm "$d/graph.txt"
	# each device's name and depth: the longest run of parents and
	# suppliers above it, which a runtime resume of it walks recursively
	grep -v '^[#@]' "$d/scenario.txt" | awk 'NF {
			name[++n] = $1; up[n] = ""
			for (i = 2; i <= NF; i++)
				if ($i ~ /^(parent|masters)=/) { sub(/^[a-z]*=/, "", $i); up[n] = up[n] "," $i }
		}
		END {
			# n passes at most: a cycle (pmsynth refuses those) ends deep
			pass = 0
			do {
				changed = 0
				for (k = 1; k <= n; k++) {
					m = split(up[k], u, ",")
					d = 1
					for (j = 1; j <= m; j++)
						if (u[j] != "" && depth[u[j]] + 1 > d) d = depth[u[j]] + 1
					if (d != depth[name[k]]) { depth[name[k]] = d; changed = 1 }
				}
			} while (changed && ++pass <= n)
			for (k = 1; k <= n; k++) print name[k], (changed ? n + 1 : depth[name[k]])
		}' > "$d/names.txt"
	awk -v s="$ps" -v per="$per" -v maxdepth="$rpm_depth" 'BEGIN { srand(s) }
		{ name[++n] = $1; if ($2 <= maxdepth) shallow[++ns] = $1 }
		END {
			# freeze with pm_test=devices has no late or noirq phases
			split("prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete", ph, " ")
			split("prepare suspend resume complete", fph, " ")
			split("5 16 22", er, " ")
			for (i = 1; i <= per; i++) {
				k = rand()
				kind = k < 0.6 ? "mem" : k < 0.85 ? "freeze" : "disk"
				f = "-"
				if (rand() < 0.4)
					f = name[int(rand() * n) + 1] ":" \
					    (kind != "freeze" ? ph[int(rand() * 8) + 1] : fph[int(rand() * 4) + 1]) ":" \
					    er[int(rand() * 3) + 1] ":" (rand() < 0.3 ? "always" : "once")
				r = "-"
				if (rand() < 0.3 && ns) r = shallow[int(rand() * ns) + 1]
				printf "%d %s %s %s\n", int(rand() * 3), kind, f, r
			}
		}' "$d/names.txt" > "$d/plan.txt"
	rm "$d/names.txt"
	# the broken round starts sync, no fault, no churn: the declared order
	# is then violated for sure, before anything else can stop it
	[ -z "$broken" ] || sed -i '1s/.*/0 mem - -/' "$d/plan.txt"
}

r=1
while [ "$r" -le "$rounds" ]; do
	if [ -z "$only" ] || [ "$r" = "$only" ]; then make_round "$r"; fi
	r=$((r + 1))
done
# deal the rounds out to JOBS lanes
k=0
for d in "$out"/rounds/*/; do
	l=$out/lanes/lane-$((k % jobs + 1))
	mkdir -p "$l"
	cp -r "$d" "$l/"
	k=$((k + 1))
done
total=$(cat "$out"/rounds/*/plan.txt | wc -l)
if [ "${DRY:-}" = 1 ]; then
	echo "soak: seed $seed, $k rounds, $total transitions written to $out/rounds (DRY=1: no guest)"
	exit 0
fi
echo "soak: seed $seed, $k rounds, $total transitions, $(ls "$out/lanes" | wc -l) guests at once (${SOAK_KERNEL:-debug} kernel)"
t0=$(date +%s)
pids=
for l in "$out"/lanes/*; do
	name=$(basename "$l")
	# every KASAN report, not only the first; a hung task ends the guest
	# the lean initramfs: busybox is all the job needs; 1 GiB: a hibernation
	# test transition preallocates the memory in use (KASAN's shadow, 1/8 of
	# it, among it), 2.7 s of guest time at 1 GiB, 5.1 s at 2
	MEM=${MEM:-1G} INITRAMFS=$lean KERNEL=$kernel EXTRA="$mod $l" TIMEOUT=${TIMEOUT:-5400} CLOCK=virtual \
		APPEND="kasan_multi_shot hung_task_panic=1" \
		"$top/lab/run-guest.sh" soak "$out/guest-$name" "$name" > "$out/guest-$name.log" 2>&1 &
	pids="$pids $name:$!"
done
rc=0 failed=
for p in $pids; do wait "${p#*:}" || { rc=1; failed="$failed ${p%%:*}"; }; done
done_n=$(cat "$out"/guest-*/done.txt 2>/dev/null | wc -l)
elapsed=$(($(date +%s) - t0))
echo "seed=$seed rounds=$k transitions=$done_n planned=$total seconds=$elapsed kernel=${SOAK_KERNEL:-debug}" \
	> "$out/summary.txt"
if [ $rc -eq 0 ] && [ "$done_n" -eq "$total" ]; then
	echo "soak: $done_n transitions in $elapsed s, 0 failures (seed $seed)"
	exit 0
fi
# the failure: what replays it (of several failed lanes, the first by
# name; every failed lane is listed)
mkdir -p "$out/failure"
echo "${failed# }" > "$out/failure/lanes.txt"
lane=${failed# }
lane=${lane%% *}
g=$out/guest-$lane
[ -d "$g" ] || g=$g.failed
f=
[ -z "$lane" ] || [ ! -f "$g/failed.txt" ] || f=$g/failed.txt
if [ -n "$f" ]; then
	cp "$f" "$out/failure/failed.txt"
	round=$(sed -n 's/^round \([0-9]*\) .*/\1/p' "$f")
	cp "$out/rounds/$round/scenario.txt" "$out/rounds/$round/plan.txt" "$out/failure/"
	for x in console.log dmesg-failed.txt runtime-before.txt runtime-after.txt done.txt job.log; do
		cp "$g/$x" "$out/failure/" 2>/dev/null || true
	done
else
	# no failed check: the guest hung, panicked or timed out; its console
	# says how far it got ("job: round R: ...")
	echo "lane ${lane:-?}: the guest failed without a failed check: $(tail -1 "$out/guest-$lane.log" 2>/dev/null)" \
		> "$out/failure/failed.txt"
	round=$(sed -n 's/.*job: round \([0-9]*\): .*/\1/p' "$g/console.log" 2>/dev/null | tail -1)
	[ -z "$round" ] || cp "$out/rounds/$round/scenario.txt" "$out/rounds/$round/plan.txt" "$out/failure/"
	cp "$g/console.log" "$out/failure/" 2>/dev/null || true
fi
echo "$seed" > "$out/failure/seed.txt"
{
	echo "#!/bin/sh"
	echo "# replays make soak's first failure: $(cat "$out/failure/failed.txt")"
	echo "cd '$top' && SEED=$seed ROUNDS=$rounds PER_ROUND=$per MAX_DEVICES=$maxdev ${round:+ONLY=$(echo "$round" | sed 's/^0*//') }${SOAK_BREAK:+SOAK_BREAK=$SOAK_BREAK }SOAK_KERNEL=${SOAK_KERNEL:-debug} MEM=${MEM:-1G} TIMEOUT=${TIMEOUT:-5400} JOBS=1 bench/soak.sh '$out/replay'"
} > "$out/failure/replay.sh"
chmod +x "$out/failure/replay.sh"
die "FAILED: $(cat "$out/failure/failed.txt"); replay: $out/failure/replay.sh"
