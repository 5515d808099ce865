#!/bin/sh
# bench/critpath on hand-made graphs with known answers (times in us):
# bound (critical path, spin work / CPUs), speed-up, efficiency, the
# async critical path's split, the ordering check, and bad input refused
# with the cause named and no output file written.
. "$(dirname "$0")/../lib.sh"
tap_plan 46
d=$TOP/tests/data/critpath
mk=$TOP/tests/mkrecords.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/critpath" >/dev/null
cp=$w/critpath

# rowmatch FILE PHASE REGEX: PHASE's row matches REGEX
rowmatch() {
	row "$1" "$2" | grep -q -- "$3" && return 0
	echo "# $2: want /$3/, got '$(row "$1" "$2")'" >&2
	return 1
}
wmatch() {
	wrow "$1" "$2" | grep -q -- "$3" && return 0
	echo "# $2: want /$3/, got '$(wrow "$1" "$2")'" >&2
	return 1
}
# has FILE PHASE FIELDS: PHASE's row starts with FIELDS (after the name)
has() {
	_h_row=$(row "$1" "$2")
	case "$_h_row" in
	"$2 $3"*) return 0;;
	esac
	echo "# $2: want '$3', got '$_h_row'" >&2
	return 1
}

# --- chain a <- b <- c: weights 100, 200, 300 -----------------------------
"$mk" "$d/chain.txt" sync 2 > "$w/chain-sync.jsonl" <<'SPEC'
phase resume 1000 1600
resume a 0 1000 1000 100 1100
resume b 0 1100 1100 200 1300
resume c 0 1300 1300 300 1600
phase suspend 2000 2600
suspend c 0 2000 2000 300 2300
suspend b 0 2300 2300 200 2500
suspend a 0 2500 2500 100 2600
SPEC
"$mk" "$d/chain.txt" async 2 > "$w/chain-async.jsonl" <<'SPEC'
phase resume 1000 1700
resume a 1005 1010 1020 100 1130
resume b 1005 1010 1150 200 1360 a
resume c 1005 1010 1380 300 1690 b
phase suspend 2000 2600
suspend c 0 2000 2000 300 2300
suspend b 0 2300 2300 200 2500
suspend a 0 2500 2500 100 2600
SPEC
"$cp" -s "$w/chain.sum" -d "$w/chain.dat" "$d/chain.txt" "$w/chain-sync.jsonl" "$w/chain-async.jsonl" > "$w/chain.out" 2>&1
ok $? "chain: analysed"
sed 's/^/# /' "$w/chain.out"
check "chain resume: T(sync) 0.6, T(async) 0.7 ms, speed-up 0.86x, graph 0.6 = a+b+c, no CPU work, bound 0.6, 85.7 %" \
	has "$w/chain.out" resume "0.600 0.700 0.86x 0.600 0.000 0.600 85.7% 0"
check "chain suspend: bound 0.6 (children first: c, b, a)" \
	has "$w/chain.out" suspend "0.600 0.600 1.00x 0.600 0.000 0.600 100.0% 0"
check "chain resume critical path: 3 devices, callback 0.6 (sync 0.6), queue 0.005, wake-up 0.04, other 0.055" \
	wmatch "$w/chain.out" resume '| 3 0.600 0.600 0.005 0.040 0.055$'
check "all phases: 1.2 vs 1.3 ms, bound 1.2, 92.3 %" \
	has "$w/chain.out" all "1.200 1.300 0.92x 1.200 0.000 1.200 92.3% 0"
check "summary line: KEY=VALUE for the whole transition" \
	[ "$(cat "$w/chain.sum")" = "scenario=chain devices=3 links=2 phases=8 clock=virtual cpus=2 t_sync=1.200 t_async=1.300 speedup=0.92 graph=1.200 floor=0.000 busy_sync=0.000 busy_async=0.000 overhead=0.000 bound=1.200 efficiency=92.3 workers=1.0 max_running=3.0 switches=0 blocked=2 violations=0 events=series" ]
check "phases.dat for the plot: phase, sync, async, bound, graph, CPU floor" \
	grep -qx "resume 0.600 0.700 0.600 0.600 0.000" "$w/chain.dat"

# --- tree r(x, y): suspend weights x 500, y 300, r 100 --------------------
"$mk" "$d/tree.txt" sync 4 > "$w/tree-sync.jsonl" <<'SPEC'
phase suspend 1000 1900
suspend x 0 1000 1000 500 1500
suspend y 0 1500 1500 300 1800
suspend r 0 1800 1800 100 1900
SPEC
"$mk" "$d/tree.txt" async 4 > "$w/tree-async.jsonl" <<'SPEC'
phase suspend 1000 1620
suspend x 0 1000 1000 500 1500
suspend y 0 1000 1000 300 1300
suspend r 0 1000 1510 100 1610 x,y
SPEC
"$cp" "$d/tree.txt" "$w/tree-sync.jsonl" "$w/tree-async.jsonl" > "$w/tree.out" 2>&1
ok $? "tree: analysed"
check "tree suspend: bound 0.6 = x then r (y runs beside x); 1.45x, 96.8 %" \
	has "$w/tree.out" suspend "0.900 0.620 1.45x 0.600 0.000 0.600 96.8% 0"
check "tree suspend critical path: r after x (2 devices), wake-up 0.01, other 0.01" \
	wmatch "$w/tree.out" suspend '| 2 0.600 0.600 0.000 0.010 0.010$'

# a device outside the scenario is independent work of its own length
"$mk" "$d/tree.txt" sync 4 > "$w/tree-other.jsonl" <<'SPEC'
phase suspend 1000 2900
suspend x 0 1000 1000 500 1500
suspend y 0 1500 1500 300 1800
suspend r 0 1800 1800 100 1900
suspend eth0 0 1900 1900 1000 2900
SPEC
"$cp" "$d/tree.txt" "$w/tree-other.jsonl" "$w/tree-async.jsonl" > "$w/other.out" 2>&1
check "a guest device of 1 ms outside the scenario sets the bound to 1 ms" \
	rowmatch "$w/other.out" suspend '^suspend 1.900 0.620 3.06x 1.000 '

# --- diamond: resume a 100, b 500, c 200, d 300 (d under b, slave of c) ---
"$mk" "$d/diamond.txt" sync 4 > "$w/diamond-sync.jsonl" <<'SPEC'
phase resume 1000 2100
resume a 0 1000 1000 100 1100
resume b 0 1100 1100 500 1600
resume c 0 1600 1600 200 1800
resume d 0 1800 1800 300 2100
SPEC
"$mk" "$d/diamond.txt" async 4 > "$w/diamond-async.jsonl" < /dev/null
"$cp" "$d/diamond.txt" "$w/diamond-sync.jsonl" "$w/diamond-async.jsonl" > "$w/diamond.out" 2>&1
ok $? "diamond: analysed"
check "diamond resume: bound 0.9 = a, b, d (the pm_link via c is shorter)" \
	rowmatch "$w/diamond.out" resume '^resume 1.100 0.000 0.00x 0.900 '
check "diamond suspend: no callbacks, bound 0" rowmatch "$w/diamond.out" suspend '^suspend 0.000 0.000 0.00x 0.000 '

# --- spin vs sleep: four independent 100 us callbacks, 2 CPUs -------------
for kind in spin sleep; do
	"$mk" "$d/$kind.txt" sync 2 > "$w/$kind-sync.jsonl" <<'SPEC'
phase suspend 1000 1400
suspend p0 0 1000 1000 100 1100
suspend p1 0 1100 1100 100 1200
suspend p2 0 1200 1200 100 1300
suspend p3 0 1300 1300 100 1400
SPEC
	"$mk" "$d/$kind.txt" async 2 > "$w/$kind-async.jsonl" <<'SPEC'
phase suspend 1000 1250
suspend p0 0 1000 1000 100 1100
suspend p1 0 1000 1000 100 1100
suspend p2 0 1100 1100 100 1200
suspend p3 0 1100 1100 100 1200
SPEC
done
"$cp" "$d/spin.txt" "$w/spin-sync.jsonl" "$w/spin-async.jsonl" > "$w/spin.out" 2>&1
check "spin, 2 CPUs: bound 0.2 = 0.4 ms of work / 2 CPUs (critical path only 0.1)" \
	has "$w/spin.out" suspend "0.400 0.250 1.60x 0.100 0.000 0.200 80.0% 0"
"$cp" "$d/sleep.txt" "$w/sleep-sync.jsonl" "$w/sleep-async.jsonl" > "$w/sleep.out" 2>&1
check "sleep: bound 0.1, the critical path (sleeping takes no CPU)" \
	has "$w/sleep.out" suspend "0.400 0.250 1.60x 0.100 0.000 0.100 40.0% 0"
"$cp" --cpus 4 "$d/spin.txt" "$w/spin-sync.jsonl" "$w/spin-async.jsonl" > "$w/spin4.out" 2>&1
check "spin, --cpus 4: bound 0.1" has "$w/spin4.out" suspend "0.400 0.250 1.60x 0.100 0.000 0.100 40.0% 0"

# --- the CPU-aware bound: the same sleeping graph (critical path 0.1 ms) --
# CPU-bound: the sync run kept some vCPU busy 0.3 of its 0.4 ms (all idle
# 0.1); the async run never let all vCPUs idle in its 0.35 ms
"$mk" "$d/sleep.txt" sync 2 > "$w/cpu-sync.jsonl" <<'SPEC'
phase suspend 1000 1400
cpu suspend 100 300,100
suspend p0 0 1000 1000 100 1100
suspend p1 0 1100 1100 100 1200
suspend p2 0 1200 1200 100 1300
suspend p3 0 1300 1300 100 1400
SPEC
"$mk" "$d/sleep.txt" async 2 > "$w/cpu-async.jsonl" <<'SPEC'
phase suspend 1000 1350
cpu suspend 0 350,200
suspend p0 0 1000 1000 100 1100
suspend p1 0 1000 1000 100 1100
suspend p2 0 1100 1200 100 1300
suspend p3 0 1100 1240 100 1340 p2
worker suspend p0 10 1
worker suspend p1 11 2
worker suspend p2 10 3
worker suspend p3 12 4
SPEC
"$cp" "$d/sleep.txt" "$w/cpu-sync.jsonl" "$w/cpu-async.jsonl" > "$w/cpu.out" 2>&1
ok $? "CPU-bound phase: analysed"
check "CPU-bound (virtual clock): graph 0.1, CPU floor 0.3 = the sync run's busy time, bound 0.3, 85.7 %" \
	has "$w/cpu.out" suspend "0.400 0.350 1.14x 0.100 0.300 0.300 85.7% 0"
check "its CPU work: 0.3 sync, 0.35 async, overhead 0.05; 3 workers, 2 at once, 10 switches, 1 blocked wait" \
	wmatch "$w/cpu.out" suspend '^suspend 0.300 0.350 0.050 3.0 2.0 10 1 |'
"$cp" --clock real "$d/sleep.txt" "$w/cpu-sync.jsonl" "$w/cpu-async.jsonl" > "$w/cpu-real.out" 2>&1
check "the same on the real clock: CPU work summed over CPUs (0.4 sync, 0.55 async), floor 0.4 / 2 CPUs" \
	has "$w/cpu-real.out" suspend "0.400 0.350 1.14x 0.100 0.200 0.200 57.1% 0"
"$mk" "$d/sleep.txt" sync 2 > "$w/graph-sync.jsonl" <<'SPEC'
phase suspend 1000 1400
cpu suspend 350 50,20
suspend p0 0 1000 1000 100 1100
suspend p1 0 1100 1100 100 1200
suspend p2 0 1200 1200 100 1300
suspend p3 0 1300 1300 100 1400
SPEC
"$cp" "$d/sleep.txt" "$w/graph-sync.jsonl" "$w/cpu-async.jsonl" > "$w/graph.out" 2>&1
check "graph-bound (sync busy 0.05 ms): bound 0.1 = the graph's, floor 0.05 beside it" \
	has "$w/graph.out" suspend "0.400 0.350 1.14x 0.100 0.050 0.100 28.6% 0"
sed 's/,"cpus":\[[^]]*\],"all_idle_ns":[0-9]*,"cpus_unknown":0//' "$w/cpu-sync.jsonl" > "$w/nocpu.jsonl"
"$cp" "$d/sleep.txt" "$w/nocpu.jsonl" "$w/cpu-async.jsonl" > "$w/nocpu.out" 2>&1
check "records without CPU accounting: floor and CPU work n/a, bound the graph's" \
	has "$w/nocpu.out" suspend "0.400 0.350 1.14x 0.100 n/a 0.100 28.6% 0"
sed '/"name":"dpm_suspend"/s/"cpus_unknown":0/"cpus_unknown":1/' "$w/cpu-sync.jsonl" > "$w/unknown.jsonl"
"$cp" "$d/sleep.txt" "$w/unknown.jsonl" "$w/cpu-async.jsonl" > "$w/unknown.out" 2>&1
check "a CPU of unknown state in a phase: its CPU figures n/a, not a floor from partial sums" \
	has "$w/unknown.out" suspend "0.400 0.350 1.14x 0.100 n/a 0.100 28.6% 0"

# --- ordering check from the trace alone --------------------------------
"$mk" "$d/chain.txt" async 2 > "$w/bad-order.jsonl" <<'SPEC'
phase resume 1000 1700
resume a 1005 1010 1020 100 1130
resume b 1005 1010 1100 200 1360
resume c 1005 1010 1380 300 1690 b
SPEC
"$cp" "$d/chain.txt" "$w/chain-sync.jsonl" "$w/bad-order.jsonl" > "$w/order.out" 2>"$w/order.err"
ok $? "a run with an ordering violation is still analysed"
check "the violation is counted in its phase" rowmatch "$w/order.out" resume ' 1$'
check "and the first one is described" \
	contains "$w/order.err" "resume: 'b' began its callback 0.030 ms before 'a' was done"

# --- bad input: refused, cause named, nothing written ---------------------
# refused NAME EXPECTED-MESSAGE ARGS...: exit non-zero, message, no -s file
refused() {
	_r_name=$1 _r_msg=$2
	shift 2
	rm -f "$w/r.sum"
	"$cp" -s "$w/r.sum" "$@" > "$w/r.out" 2>&1
	_r_rc=$?
	if [ "$_r_rc" -ne 0 ] && grep -qF -- "$_r_msg" "$w/r.out" && [ ! -e "$w/r.sum" ]; then
		ok 0 "$_r_name: refused"
	else
		sed 's/^/# /' "$w/r.out"
		ok 1 "$_r_name: refused (exit $_r_rc, want '$_r_msg', no summary)"
	fi
}
head -n -1 "$w/chain-async.jsonl" > "$w/no-end.jsonl"
refused "records without the end record" "no end record after line" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/no-end.jsonl"
head -c 2000 "$w/chain-async.jsonl" > "$w/cut.jsonl"
refused "records cut mid-line" "last line cut short: the file is truncated" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/cut.jsonl"
refused "records of another scenario (tree's, analysed as chain)" "recorded with scenario 'tree'" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/tree-async.jsonl"
grep -v '"device":"b","phase":"complete"' "$w/chain-async.jsonl" |
	sed 's/"records":\([0-9]*\)/"records":X\1/' | awk '/"records":X/ { sub(/X[0-9]+/, n - 1) } { n++; print }' > "$w/missing.jsonl"
refused "a scenario device missing from a phase" "no complete record of device 'b'" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/missing.jsonl"
sed 's/"dropped":0/"dropped":7/' "$w/chain-async.jsonl" > "$w/dropped.jsonl"
refused "records with dropped events" "pmtrace dropped 7 events" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/dropped.jsonl"
refused "a file that is not records" "not a pmtrace records file" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$d/chain.txt"
cat "$w/chain-async.jsonl" "$w/chain-async.jsonl" > "$w/twice.jsonl"
refused "two transitions in one file" "data after the end record" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/twice.jsonl"
refused "sync transitions only" "need sync and async transitions, got 1 sync and 0 async" \
	"$d/chain.txt" "$w/chain-sync.jsonl"
refused "a scenario with a dependency cycle" "cycle.txt: line 2: pm_link cycle: 'b' depends on 'a', which depends, directly or not, on 'b'" \
	"$d/cycle.txt" "$w/chain-sync.jsonl" "$w/chain-async.jsonl"
refused "a scenario with an unknown master" "unknown-master.txt: line 2: unknown master 'zz'" \
	"$d/unknown-master.txt" "$w/chain-sync.jsonl" "$w/chain-async.jsonl"
refused "a scenario with a duplicate name" "duplicate device name 'a'" \
	"$d/duplicate.txt" "$w/chain-sync.jsonl" "$w/chain-async.jsonl"
"$mk" "$d/chain.txt" async 4 < /dev/null > "$w/four.jsonl"
refused "transitions on different CPU counts" "ran on 2 CPUs" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/four.jsonl"
"$cp" --cpus 4 "$d/chain.txt" "$w/chain-sync.jsonl" "$w/four.jsonl" > "$w/r.out" 2>&1
ok $? "the same with --cpus 4: analysed"
sed 's/"devices":"3","links":"2",//' "$w/chain-async.jsonl" > "$w/nocounts.jsonl"
refused "a begin record without device and link counts" "lacks the devices and links" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/nocounts.jsonl"
refused "a missing records file" "nope.jsonl: No such file or directory" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/nope.jsonl"
sed 's/pmtrace-records-3/pmtrace-records-2/' "$w/chain-async.jsonl" > "$w/v1.jsonl"
refused "records of the previous format" "recorded by an older pmtrace; record again" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/v1.jsonl"
sed 's/,"clock":"virtual"//' "$w/chain-async.jsonl" > "$w/noclock.jsonl"
refused "records that do not name their clock" "clock '(none)' in its begin record, want virtual or real: give --clock" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/noclock.jsonl"
"$mk" "$d/chain.txt" async 2 real < /dev/null > "$w/real.jsonl"
refused "transitions on different clocks" "on the virtual clock" \
	"$d/chain.txt" "$w/chain-sync.jsonl" "$w/real.jsonl"
sed '/"name":"dpm_suspend"/s/"busy_ns":0/"busy_ns":900000/' "$w/cpu-sync.jsonl" > "$w/toobusy.jsonl"
sed -i 's/"busy_ns":300000/"busy_ns":900000/' "$w/toobusy.jsonl"
refused "CPU times that do not fit in their phase" "dpm_suspend: CPU 0 busy 900000 + idle 100000 ns" \
	"$d/sleep.txt" "$w/toobusy.jsonl" "$w/cpu-async.jsonl"
tap_done
