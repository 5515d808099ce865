#!/bin/sh
# run-bench.sh - the main job: per scenario, one guest boot recording sync
# then async transitions with bpf/pmtrace, analysed by bench/critpath
# against the scenario's critical-path bound.
#
# Usage: run-bench.sh RESULTS_ROOT
# Environment:
#   SCENARIOS  bench/scenarios names or scenario files (default below:
#              chain, star, tree, DAGs of 100/500/1000, an imported board,
#              the spinning DAG); SCENARIO (one) is taken as SCENARIOS
#   REPS       transitions per mode and scenario (default 3)
#   JOBS       virtual-clock guests run side by side (default 2: each is
#              one single-threaded TCG process, and virtual time does not
#              depend on the host's load); real-clock ones run alone
#   SMP, TIMEOUT  passed to lab/run-guest.sh (SMP default 4; on the real
#              clock no more than the host's cores)
#   BATTERY_REPS  transitions per mode of the ACPI battery rows (default 3;
#              0: no rows): one more virtual-clock boot with the battery
#              SSDT (lab/jobs/battery.sh), the battery resumed sync (6.12)
#              and async (the series' patch), with the guest's devices
#              alone and with BATTERY_SYNC (default 20) synchronous 1-ms
#              pmsynth devices after it
#   PCI_RPM    1 (default): the PCI runtime PM rows, one more virtual-clock
#              boot (q35 with an NVMe controller under vfio-pci,
#              lab/jobs/pci-rpm.sh, bench/rpm-callbacks): each D0 -> D3hot
#              and D3hot -> D0 callback's time; 0: no rows
#   TUNE       the async tuner's rows (bench/tune.sh, make tune): a board
#              scenario (default dt-sdm845-db845c-realistic; "none": no
#              rows), two more virtual-clock boots: REPS transitions each
#              sync, as-is and all-async, pmtune's best set, then REPS
#              with it; predicted against measured
#   RPM_CHAIN  the runtime PM latency row's chain lengths (default "1 10
#              100"; "none": no row): one more virtual-clock boot, a leaf
#              resumed through N suppliers (lab/jobs/rpm-latency.sh,
#              bench/rpm-latency), RPM_ROUNDS rounds (default 50) per
#              request kind, callbacks of RPM_LAT_US (default 100)
# A scenario whose callbacks spin runs on the real clock (multi-threaded
# TCG); the others on the virtual clock (-icount), where sleeping
# callbacks are deterministic.
#
# Writes RESULTS_ROOT/<UTC time>/: run.txt (kernel release, series hash,
# QEMU and settings), table.txt (the bench table and the instrumentation
# cost), and per scenario a directory with the records (*.jsonl), the
# kernel's own phase times, critpath's per-phase table (table.txt),
# phases.dat and phases.png; rpm-latency/ (its records and rows);
# RESULTS_ROOT/latest points at it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die() { echo "bench: $*" >&2; exit 1; }

DEFAULT_SCENARIOS="chain-100 star-500 tree-500 dag-100 dag-500 dag-1000 dt-sdm845-db845c dag-1000-spin"
[ $# -eq 1 ] || die "usage: run-bench.sh RESULTS_ROOT"
root=$1
REPS=${REPS:-3}
JOBS=${JOBS:-2}
if [ -n "${SCENARIO+set}" ]; then
	[ -z "${SCENARIOS+set}" ] || die "SCENARIO and SCENARIOS both set; SCENARIOS takes a list"
	SCENARIOS=$SCENARIO
fi
[ -n "${SCENARIOS+set}" ] || SCENARIOS=$DEFAULT_SCENARIOS
case $REPS in ''|*[!0-9]*|0) die "REPS must be a positive number, got '$REPS'";; esac
case $JOBS in ''|*[!0-9]*|0) die "JOBS must be a positive number, got '$JOBS'";; esac
RPM_CHAIN=${RPM_CHAIN-1 10 40}
RPM_ROUNDS=${RPM_ROUNDS:-50}
RPM_LAT_US=${RPM_LAT_US:-100}
[ "$RPM_CHAIN" != none ] || RPM_CHAIN=
for c in $RPM_CHAIN; do
	case $c in *[!0-9]*|0) die "RPM_CHAIN takes chain lengths 1..4095 or none, got '$c'";; esac
	[ "$c" -lt 4096 ] || die "RPM_CHAIN: $c suppliers, pmsynth takes at most 4095"
done
BATTERY_REPS=${BATTERY_REPS:-3}
PCI_RPM=${PCI_RPM:-1}
case $PCI_RPM in 0|1) ;; *) die "PCI_RPM must be 1 (the PCI runtime PM rows) or 0, got '$PCI_RPM'";; esac
BATTERY_SYNC=${BATTERY_SYNC:-20}
TUNE=${TUNE-dt-sdm845-db845c-realistic}
[ "$TUNE" != none ] || TUNE=""
case $BATTERY_REPS in ''|*[!0-9]*) die "BATTERY_REPS must be a number (0: no battery rows), got '$BATTERY_REPS'";; esac
case $BATTERY_SYNC in ''|*[!0-9]*|0) die "BATTERY_SYNC must be a positive number, got '$BATTERY_SYNC'";; esac
[ "$BATTERY_SYNC" -le 4096 ] || die "BATTERY_SYNC: $BATTERY_SYNC devices, pmsynth takes at most 4096"
case $RPM_ROUNDS in *[!0-9]*|0) die "RPM_ROUNDS must be a positive number, got '$RPM_ROUNDS'";; esac
case $RPM_LAT_US in ''|*[!0-9]*) die "RPM_LAT_US must be a number of microseconds, got '$RPM_LAT_US'";; esac
[ -n "$(echo $SCENARIOS)" ] || die "SCENARIOS is empty (scenario names of bench/scenarios or files; unset: the default eight)"
. "$top/lab/hostlib.sh"
# every scenario by name: "NAME=FILE" (a file given by path is named by its
# basename without .txt and copied into the results)
map= names=
for s in $SCENARIOS; do
	f=$(scenario_file "$s")
	n=$(basename "$f" .txt)
	case " $names " in *" $n "*) die "two scenarios named $n ($s and another)";; esac
	names="$names $n" map="$map $n=$f"
done
SCENARIOS=${names# }
[ -z "$TUNE" ] || [ -f "$(scenario_file "$TUNE")" ] || die "TUNE: no scenario '$TUNE'"
for f in lab/pmsynth/pmsynth.ko build/bpf/pmtrace build/bpf/kstacks build/tools/critpath build/tools/rpm-latency \
	build/tools/pmtune \
	build/tools/rpm-callbacks build/tools/flamefold build/tools/trace-events build/tools/gantt build/guest/vfio-hold build/acpi/battery.aml \
	build/node/node_modules/d3-flame-graph/dist/d3-flamegraph.umd.min.js; do
	[ -f "$top/$f" ] || die "$f not built (make bench builds it)"
done
# scen NAME: the scenario's file (in the results directory, once made)
scen() { echo "$out/scenarios/$1.txt"; }

clock_of() {	# spinning callbacks need the real clock
	if grep -q 'mode=[^ ]*:spin' "$(scen "$1")"; then echo real; else echo virtual; fi
}

release=$(cat "$top/build/obj/include/config/kernel.release")
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$root/$stamp
mkdir -p "$out/scenarios"
for m in $map; do cp "${m#*=}" "$out/scenarios/${m%%=*}.txt"; done
total=$(echo $SCENARIOS | wc -w)
t0=$(date +%s)
{
	echo "kernel_release=$release"
	echo "series_sha256=$(cat "$top/build/linux/.pmlab-series")"
	echo "qemu=$(qemu-system-x86_64 --version | head -1)"
	echo "smp=${SMP:-4} (real clock: at most $(nproc), the host's cores) reps=$REPS jobs=$JOBS"
	echo "scenarios=$(echo $SCENARIOS)"
	echo "battery=reps $BATTERY_REPS sync_devices 0 $BATTERY_SYNC clock=virtual"
	echo "pci_rpm=$PCI_RPM clock=virtual"
	echo "rpm_latency=chain ${RPM_CHAIN:-none} rounds=$RPM_ROUNDS callback_us=$RPM_LAT_US clock=virtual"
	for s in $SCENARIOS; do echo "clock.$s=$(clock_of "$s")"; done
} > "$out/run.txt"
echo "bench: $total scenarios x ($REPS sync + $REPS async + $REPS 6.12-async + $REPS bare + $REPS trace-cmd + 1 BPF-statistics) transitions, results in $out"

# sum_get DIR KEY [6.12]: KEY's value in critpath's summary of DIR (of the
# 6.12-scheduling transitions with a third argument)
sum_get() { tr ' ' '\n' < "$1/summary${3:+-$3}.txt" | sed -n "s/^$2=//p"; }

# one N SCENARIO: boot, record, analyse; a line when done.
one() {
	n=$1 s=$2 clock=$(clock_of "$2") d=$out/$2 start=$(date +%s) smp=${SMP:-4}
	# on the real clock, more vCPUs than host cores would measure the host
	[ "$clock" = virtual ] || [ "$smp" -le "$(nproc)" ] || smp=$(nproc)
	echo "bench: [$n/$total] $s: guest running (clock $clock, $smp vCPUs)"
	if ! SMP=$smp CLOCK=$clock \
		EXTRA="$top/lab/pmsynth/pmsynth.ko $top/build/bpf/pmtrace $top/build/bpf/kstacks $(scen "$s")" \
		"$top/lab/run-guest.sh" bench "$d" "$REPS" "$s.txt" "$clock" > "$out/$s.log" 2>&1; then
		echo "bench: [$n/$total] $s: FAILED: $(tail -1 "$out/$s.log")"
		return 1
	fi
	"$top/build/tools/critpath" -d "$d/phases.dat" -s "$d/summary.txt" "$(scen "$s")" \
		"$d"/sync-*.jsonl "$d"/async-*.jsonl > "$d/table.txt" 2> "$d/critpath.log" &&
	"$top/build/tools/critpath" -s "$d/summary-6.12.txt" "$(scen "$s")" \
		"$d"/sync-*.jsonl "$d"/legacy-*.jsonl > "$d/table-6.12.txt" 2>> "$d/critpath.log" || {
		echo "bench: [$n/$total] $s: analysis FAILED: $(tail -1 "$d/critpath.log")"
		return 1
	}
	gnuplot -e "data='$d/phases.dat'; out='$d/phases.png'; title='$s, kernel $release, clock $clock'" \
		"$top/plots/phase-times.gp" 2>> "$d/critpath.log" || {
		echo "bench: [$n/$total] $s: gnuplot FAILED on $d/phases.dat"
		return 1
	}
	"$top/bench/figures.sh" "$d" "$(scen "$s")" "$s, kernel $release, clock $clock" 2>> "$d/critpath.log" || {
		echo "bench: [$n/$total] $s: figures FAILED: $(tail -1 "$d/critpath.log")"
		return 1
	}
	echo "bench: [$n/$total] $s: done in $(($(date +%s) - start)) s: $(sum_get "$d" t_sync) ms sync, $(sum_get "$d" t_async) ms async ($(sum_get "$d" t_async 6.12) ms with 6.12's scheduling), efficiency $(sum_get "$d" efficiency) % ($(sum_get "$d" efficiency 6.12) %)"
}

# rpm_one: the runtime PM latency row's boot and analysis (rpm-latency/)
rpm_one() {
	d=$out/rpm-latency start=$(date +%s)
	echo "bench: runtime PM latency: guest running (chains of $(echo $RPM_CHAIN | tr ' ' ','), virtual clock)"
	# shellcheck disable=SC2086
	if ! CLOCK=virtual EXTRA="$top/lab/pmsynth/pmsynth.ko $top/build/bpf/pmtrace" \
		"$top/lab/run-guest.sh" rpm-latency "$d" "$RPM_ROUNDS" "$RPM_LAT_US" virtual $RPM_CHAIN \
		> "$out/rpm-latency.log" 2>&1; then
		echo "bench: runtime PM latency: FAILED: $(tail -1 "$out/rpm-latency.log")"
		return 1
	fi
	files=
	for c in $RPM_CHAIN; do files="$files $d/rpm-$c-sync.jsonl $d/rpm-$c-queued.jsonl"; done
	# shellcheck disable=SC2086
	"$top/build/tools/rpm-latency" --callback-us "$RPM_LAT_US" $files > "$d/table.txt" 2> "$d/analysis.log" || {
		echo "bench: runtime PM latency: analysis FAILED: $(tail -1 "$d/analysis.log")"
		return 1
	}
	echo "bench: runtime PM latency: done in $(($(date +%s) - start)) s"
}

# pci_one: the PCI runtime PM rows' boot and analysis (pci-rpm/table.txt)
pci_one() {
	d=$out/pci-rpm start=$(date +%s)
	echo "bench: PCI runtime PM: guest running (q35, NVMe under vfio-pci, virtual clock)"
	if ! CLOCK=virtual EXTRA="$top/build/bpf/pmtrace $top/build/guest/vfio-hold" \
		"$top/lab/run-guest.sh" pci-rpm "$d" > "$out/pci-rpm.log" 2>&1; then
		echo "bench: PCI runtime PM: FAILED: $(tail -1 "$out/pci-rpm.log")"
		return 1
	fi
	"$top/build/tools/rpm-callbacks" --device "$(cat "$d/bdf.txt")" "$d/pci-rpm.jsonl" \
		> "$d/table.txt" 2> "$d/analysis.log" || {
		echo "bench: PCI runtime PM: analysis FAILED: $(tail -1 "$d/analysis.log")"
		return 1
	}
	echo "bench: PCI runtime PM: done in $(($(date +%s) - start)) s"
}

# tune_one: the tuner's rows, two boots (tune/NAME/tune.txt)
tune_one() {
	start=$(date +%s)
	echo "bench: async tuner: $TUNE: guests running (measure, then pmtune's set; virtual clock)"
	REPS=$REPS "$here/tune.sh" "$(scenario_file "$TUNE")" "$out/tune" > "$out/tune.log" 2>&1 || {
		echo "bench: async tuner: FAILED: $(tail -1 "$out/tune.log")"
		return 1
	}
	echo "bench: async tuner: done in $(($(date +%s) - start)) s"
}

# battery_one: the ACPI battery rows' boot and figures (battery/table.txt)
battery_one() {
	d=$out/battery start=$(date +%s)
	echo "bench: ACPI battery: guest running ($BATTERY_REPS transitions per mode, virtual clock)"
	if ! CLOCK=virtual EXTRA="$top/lab/pmsynth/pmsynth.ko $top/build/bpf/pmtrace" \
		"$top/lab/run-guest.sh" battery "$d" "$BATTERY_REPS" 0 "$BATTERY_SYNC" \
		> "$out/battery.log" 2>&1; then
		echo "bench: ACPI battery: FAILED: $(tail -1 "$out/battery.log")"
		return 1
	fi
	for n in 0 "$BATTERY_SYNC"; do
		for m in sync async; do
			# the battery's resume callback (ms) and async flag in each
			# record: of the two devices named PNP0C0A:00, the ACPI device
			# (the other, its platform twin, has only the bus's no-op)
			cb=$(for f in "$d"/battery-$n-$m-*.jsonl; do
				jq -c 'select(.type == "device" and .device == "PNP0C0A:00" and .phase == "resume")' "$f" |
					jq -rs 'sort_by(.callback_ns) | .[-1] | "\(.callback_ns) \(.async)"'
			done | awk -v n="$BATTERY_REPS" '{ s += $1; a += $2; k++ }
				END { if (k == n) printf "%.3f %d", s / k / 1e6, a }')
			ph=$(cat "$d"/kernel-$n-$m-*.txt | awk -v n="$BATTERY_REPS" '$1 == "resume" { s += $2; k++ }
				END { if (k == n) printf "%.3f", s / k }')
			[ -n "$cb" ] && [ -n "$ph" ] || {
				echo "bench: ACPI battery: $n sync devices, battery $m: records or kernel times missing"
				return 1
			}
			echo "$n $m $ph $cb"
		done
	done > "$d/figures.txt"
	echo "bench: ACPI battery: done in $(($(date +%s) - start)) s"
}

# Virtual-clock scenarios (and the runtime PM latency boot) in JOBS lanes,
# then real-clock ones alone.
n=0 virt= real=
for s in $SCENARIOS; do
	n=$((n + 1))
	if [ "$(clock_of "$s")" = real ]; then real="$real $n:$s"; else virt="$virt $n:$s"; fi
done
[ -z "$RPM_CHAIN" ] || virt="$virt rpm:"
[ "$BATTERY_REPS" -eq 0 ] || virt="$virt bat:"
[ "$PCI_RPM" -eq 0 ] || virt="$virt pci:"
[ -z "$TUNE" ] || virt="$virt tune:"
lane() {	# lane K: every JOBS-th virtual-clock item from the K-th
	k=0 rc=0
	for item in $virt; do
		if [ $((k % JOBS)) -eq "$1" ]; then
			case $item in
			rpm:) rpm_one || rc=1;;
			bat:) battery_one || rc=1;;
			pci:) pci_one || rc=1;;
			tune:) tune_one || rc=1;;
			*) one "${item%%:*}" "${item#*:}" || rc=1;;
			esac
		fi
		k=$((k + 1))
	done
	return $rc
}
pids= j=0
while [ $j -lt "$JOBS" ]; do
	lane $j & pids="$pids $!"
	j=$((j + 1))
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
for item in $real; do one "${item%%:*}" "${item#*:}" || rc=1; done
if [ $rc -ne 0 ]; then
	mv "$out" "$out.failed"
	die "a scenario failed; logs in $out.failed"
fi

# Analysis speed: the largest scenario's records, each file given as often
# as it takes to pass 100,000 records (critpath counts every file apart).
big=$(for s in $SCENARIOS; do echo "$(cat "$out/$s"/*.jsonl | wc -l) $s"; done | sort -n | tail -1 | cut -d' ' -f2)
files=$(ls "$out/$big"/sync-*.jsonl "$out/$big"/async-*.jsonl)
nrec=0 args=
while [ "$nrec" -lt 100000 ]; do
	for f in $files; do
		[ "$nrec" -lt 100000 ] || break
		args="$args $f"
		nrec=$((nrec + $(wc -l < "$f")))
	done
done
t1=$(date +%s.%N)
"$top/build/tools/critpath" "$(scen "$big")" $args > /dev/null 2>&1 || die "critpath failed on $big's records"
speed="critpath: $nrec records ($(echo $args | wc -w) files of $big) analysed in $(echo "$t1 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }') s (host wall clock)"
echo "bench: $speed"

# The tables, and the instrumentation cost from the kernel's own figures.
kernel_ms() {	# kernel_ms DIR MODE: mean of the six timed device phases
	cat "$1"/kernel-*-"$2".txt | awk -v n="$REPS" '$1 !~ /^start_|^end_/ { s += $2 } END { printf "%.3f", s / n }'
}
cost() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%+.1f%%", 100 * (t - b) / b }'; }
# bpf_figures DIR: "EVENTS_PER_DEVICE_PHASE NS_PER_EVENT BPF_MS IDLE_EVENTS" of
# the transition run with BPF statistics
bpf_figures() {
	awk -v dp="$(grep -c '"type":"device"' "$1/stats-1.jsonl")" '
		/^#/ { next }
		$1 == "cpu_idle" { idle = $2 }
		$1 != "cpu_idle" && $1 != "suspend_resume" && $1 !~ /^rpm_/ { dev += $2 }
		{ runs += $2; ns += $3 }
		END { printf "%.2f %.0f %.3f %d", dev / dp, runs ? ns / runs : 0, ns / 1e6, idle }' "$1/bpf-stats.txt"
}
w=8
for s in $SCENARIOS; do [ ${#s} -lt $w ] || w=$((${#s} + 1)); done
{
	echo "# pmlab bench $stamp: per scenario, in one boot, $REPS transitions each sync (pm_async=0), async with"
	echo "# Linux 6.12's scheduling (pm_async=2, the series' lab-only switch) and async with the series'"
	echo "# (pm_async=1); mem, pm_test=core"
	sed 's/^/# /' "$out/run.txt"
	echo "# T: all eight dpm phases, ms, mean per transition, from pmtrace's records (virtual clock: one"
	echo "# instruction per ns for all vCPUs together, so CPU work weighs 10-20x more than on a laptop)."
	echo "# bound: max(longest dependency chain of sync callback times, CPU work of the sync transitions,"
	echo "# spin work / CPUs); effic.: bound / T; new/6.12: T(new) / T(6.12) - 1; violations: trace"
	echo "# ordering check (critpath) / pmsynth oracle, over all transitions; the oracle counts both modes"
	printf "%-${w}s %5s %5s %7s %9s %9s %9s %8s %8s %8s %9s %7s %7s %10s\n" scenario devs links clock \
		"T(sync)" "T(6.12)" "T(new)" "sync/6.12" "sync/new" "new/6.12" bound "eff6.12" "eff.new" violations
	for s in $SCENARIOS; do
		d=$out/$s
		printf "%-${w}s %5s %5s %7s %9s %9s %9s %8sx %7sx %8s %9s %6s%% %6s%% %10s\n" "$s" \
			"$(sum_get "$d" devices)" "$(sum_get "$d" links)" "$(sum_get "$d" clock)" \
			"$(sum_get "$d" t_sync)" "$(sum_get "$d" t_async 6.12)" "$(sum_get "$d" t_async)" \
			"$(sum_get "$d" speedup 6.12)" "$(sum_get "$d" speedup)" \
			"$(awk -v a="$(sum_get "$d" t_async)" -v b="$(sum_get "$d" t_async 6.12)" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }')" \
			"$(sum_get "$d" bound)" "$(sum_get "$d" efficiency 6.12)" "$(sum_get "$d" efficiency)" \
			"$(($(sum_get "$d" violations) + $(sum_get "$d" violations 6.12)))/$(sed -n 's/^violations //p' "$d/oracle.txt")"
	done
	echo
	echo "# suspend side (suspend + suspend_late + suspend_noirq) and resume side (resume_noirq +"
	echo "# resume_early + resume), ms per transition; new/6.12: T(new) / T(6.12) - 1"
	printf "%-${w}s %9s %9s %9s %9s | %9s %9s %9s %9s\n" scenario "susp sync" "susp 6.12" "susp new" new/6.12 \
		"res sync" "res 6.12" "res new" new/6.12
	for s in $SCENARIOS; do
		awk -v s="$s" -v w="$w" 'FNR == 1 { f++ } /^$/ { stop[f] = 1 } stop[f] { next }
			$1 ~ /^(suspend|suspend_late|suspend_noirq)$/ { if (f == 1) { ss += $2; sn += $3 } else so += $3 }
			$1 ~ /^(resume_noirq|resume_early|resume)$/ { if (f == 1) { rs += $2; rn += $3 } else ro += $3 }
			END { printf "%-" w "s %9.3f %9.3f %9.3f %+8.1f%% | %9.3f %9.3f %9.3f %+8.1f%%\n", s, ss, so, sn,
				100 * (sn - so) / so, rs, ro, rn, 100 * (rn - ro) / ro }' \
			"$out/$s/table.txt" "$out/$s/table-6.12.txt"
	done
	echo
	echo "# CPU work, ms per transition (virtual clock: time some vCPU was busy; real: CPU-ms summed over"
	echo "# CPUs); overhead: async - sync.  Async workers: distinct threads in the busiest phase, most with"
	echo "# device work at once, their context switches and the waits that blocked, all phases"
	printf "%-${w}s %7s %10s %11s %10s %8s %8s %9s %8s\n" scenario sched "busy(sync)" "busy(async)" overhead \
		workers at-once switches blocked
	for s in $SCENARIOS; do
		d=$out/$s
		for m in 6.12 new; do
			x=$m; [ "$m" = new ] && x=
			printf "%-${w}s %7s %10s %11s %10s %8s %8s %9s %8s\n" "$s" "$m" "$(sum_get "$d" busy_sync $x)" \
				"$(sum_get "$d" busy_async $x)" "$(sum_get "$d" overhead $x)" "$(sum_get "$d" workers $x)" \
				"$(sum_get "$d" max_running $x)" "$(sum_get "$d" switches $x)" "$(sum_get "$d" blocked $x)"
		done
	done
	echo
	echo "# efficiency (bound / T(async)) per phase, each scheduler"
	printf "%-${w}s %7s %8s %8s %8s %8s %8s %8s %8s %8s\n" scenario sched prepare suspend s_late s_noirq \
		r_noirq r_early resume complete
	for s in $SCENARIOS; do
		for m in 6.12 new; do
			t=$out/$s/table.txt; [ "$m" = new ] || t=$out/$s/table-$m.txt
			printf "%-${w}s %7s" "$s" "$m"
			for p in prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete; do
				printf ' %8s' "$(awk -v p="$p" '/^$/ { exit } $1 == p { print $8 }' "$t")"
			done
			echo
		done
	done
	echo
	echo "# instrumentation cost: async transitions timed by the kernel itself (pm_debug_messages, the six"
	echo "# timed device phases, ms), nothing attached vs pmtrace vs trace-cmd recording the same events,"
	echo "# alternating in one boot.  BPF: a separate transition with BPF statistics: program runs per"
	echo "# device and phase, mean ns per run, all programs' ms per transition, cpu_idle runs"
	printf "%-${w}s %10s %10s %10s %8s %9s | %7s %7s %8s %8s\n" scenario bare pmtrace trace-cmd \
		pmtrace trace-cmd "ev/dev" "ns/ev" "bpf ms" idle-ev
	for s in $SCENARIOS; do
		bare=$(kernel_ms "$out/$s" bare) traced=$(kernel_ms "$out/$s" async) tc=$(kernel_ms "$out/$s" tracecmd)
		printf "%-${w}s %10s %10s %10s %8s %9s | %7s %7s %8s %8s\n" "$s" "$bare" "$traced" "$tc" \
			"$(cost "$bare" "$traced")" "$(cost "$bare" "$tc")" $(bpf_figures "$out/$s")
	done
	if [ -n "$RPM_CHAIN" ]; then
		echo
		echo "# runtime PM: a leaf resumed through a chain of N suppliers (pm_links), $RPM_ROUNDS rounds per"
		echo "# request kind, every runtime callback sleeping $RPM_LAT_US us (virtual clock: the PM core's and"
		echo "# pm_wq's CPU work weighs 10-20x more than on a laptop); us, nearest-rank percentiles"
		grep -v '^#' "$out/rpm-latency/table.txt"
		# the stack tracer's deepest kernel stack in one untimed sync
		# round per N; per supplier and where 16 KiB runs out, from the
		# shortest and longest chain
		cat "$out"/rpm-latency/stack-*.txt | sort -n | awk '
			$2 != "-" { n[++k] = $1; b[k] = $2; line = line sprintf(" N=%d %d B,", $1, $2) }
			END {
				if (!k) { print "# kernel stack of a sync resume: no stack tracer in this kernel"; exit }
				sub(/,$/, "", line)
				printf "# kernel stack of a sync resume (stack tracer, deepest):%s", line
				if (k > 1 && n[k] > n[1] && b[k] > b[1]) {
					per = (b[k] - b[1]) / (n[k] - n[1])
					printf "; %.0f B per supplier: a 16 KiB stack runs out near N=%d", per, n[1] + (16384 - b[1]) / per
				}
				print ""
			}'
	fi
	if [ "$BATTERY_REPS" -gt 0 ]; then
		echo
		echo "# ACPI battery (seed 006; lab/acpi/battery.asl: its resume evaluates _STA, an EC read modelled by"
		echo "# AML Sleep (1), 4-8 ms at HZ=250; _BIF/_BST are re-read after the device phases):"
		echo "# the resume phase, ms (the kernel's pm_debug_messages, mean of $BATTERY_REPS transitions with pm_async=1),"
		echo "# the battery resumed sync (6.12: power/async disabled) and async (the series' opt-in), with the"
		echo "# guest's devices alone and with $BATTERY_SYNC synchronous pmsynth devices (1 ms resume each) after it"
		echo "# cb: the battery's resume callback, ms; worker: of the $BATTERY_REPS, those run in an async worker"
		printf "%9s | %-27s | %-27s | %7s\n" "" "battery sync (6.12)" "battery async (series)" ""
		printf "%9s | %7s %7s %11s | %7s %7s %11s | %7s\n" sync-devs cb worker "resume ms" cb worker \
			"resume ms" change
		awk '{ k = $1; i = ($2 == "sync") ? 0 : 1; ph[k, i] = $3; cb[k, i] = $4; wk[k, i] = $5; seen[k] = 1 }
			END { for (k in seen)
				printf "%9d | %7.3f %7d %11.3f | %7.3f %7d %11.3f | %+6.1f%%\n", k, cb[k, 0], wk[k, 0],
					ph[k, 0], cb[k, 1], wk[k, 1], ph[k, 1], 100 * (ph[k, 1] - ph[k, 0]) / ph[k, 0] }' \
			"$out/battery/figures.txt" | sort -n
	fi
	if [ "$PCI_RPM" -eq 1 ]; then
		echo
		echo "# PCI runtime PM (seed 001): QEMU's NVMe controller on q35 under vfio-pci, idle -> D3hot, opened"
		echo "# -> D0 (lab/jobs/pci-rpm.sh); each callback's own time, us: the PCI core's PMCSR write and its"
		echo "# d3hot_delay (usleep_range(10000, 12000)) dominate (virtual clock)"
		grep -v '^#' "$out/pci-rpm/table.txt"
	fi
	if [ -n "$TUNE" ]; then
		echo
		echo "# async tuner (make tune, bench/pmtune): which devices should be async, on $TUNE (async as 6.12"
		echo "# opts its devices in); the best set pmtune found, measured in a second boot.  predicted:"
		echo "# pmtune's model from the sync and all-async transitions; ms per transition (virtual clock)"
		grep -v '^#' "$out/tune/$(basename "$(scenario_file "$TUNE")" .txt)/tune.txt"
	fi
	echo
	echo "# $speed"
	echo "# per-phase tables: $out/<scenario>/table.txt; figures: <scenario>/phases.png"
} > "$out/table.txt.tmp"
mv "$out/table.txt.tmp" "$out/table.txt"
ln -sfn "$stamp" "$root/latest"
cat "$out/table.txt"
echo "bench: done in $(($(date +%s) - t0)) s; results in $out"
