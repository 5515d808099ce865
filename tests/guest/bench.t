#!/bin/sh
# run-tests: parallel
# make bench's pipeline end to end on one small scenario (chain-100, one
# transition per mode): guest records, critpath, the table, the figure,
# the run settings; the runtime PM latency rows (chains of 1 and 10, 3
# rounds), the ACPI battery rows (1 transition per mode, 0 and 5 sync
# devices) and the PCI runtime PM rows (the NVMe controller's callbacks).  Numbers are the bench's business; this checks that each is
# there, that the chain is analysed as a chain, that no latency is below
# the callbacks' own sleeps, and that the battery ran where it should.
. "$(dirname "$0")/../lib.sh"
tap_plan 27
w=$BUILD/test-guest/bench
rm -rf "$w"
mkdir -p "$BUILD/test-guest"
SCENARIOS=chain-100 REPS=1 JOBS=1 RPM_CHAIN="1 10" RPM_ROUNDS=3 BATTERY_REPS=1 BATTERY_SYNC=5 TUNE=none \
	"$TOP/bench/run-bench.sh" "$w" > "$w.log" 2>&1
ok $? "run-bench.sh runs chain-100"
sed 's/^/# /' "$w.log"
r=$w/latest
check "progress lines name the scenario and the step" grep -q '^bench: \[1/1\] chain-100: done in' "$w.log"
check "the table has chain-100's row: 100 devices, 99 links, virtual clock, T sync/6.12/new, both speed-ups, new vs 6.12, bound, both efficiencies, no violations" \
	grep -qE '^chain-100 +100 +99 +virtual( +[0-9.]+){3}( +[0-9.]+x){2} +[-+][0-9.]+% +[0-9.]+( +[0-9.]+%){2} +0/0$' "$r/table.txt"
check "a chain gains nothing from async on either scheduler: both speed-ups between 0.9x and 1.1x" \
	awk '$1 == "chain-100" && NF == 14 { a = $8; b = $9; sub(/x$/, "", a); sub(/x$/, "", b); exit !(a >= 0.9 && a <= 1.1 && b >= 0.9 && b <= 1.1) }' "$r/table.txt"
check "and its bound is most of T(sync): the chain's callbacks, one after the other" \
	awk '$1 == "chain-100" && NF == 14 { exit !($11 > 0.8 * $5 && $11 < $5) }' "$r/table.txt"
check "its CPU floor is a small part of T(sync): sleeping callbacks" \
	sh -c "tr ' ' '\\n' < '$r/chain-100/summary.txt' | awk -F= '\$1 == \"t_sync\" { t = \$2 } \$1 == \"floor\" { f = \$2 } END { exit !(f > 0 && f < 0.2 * t) }'"
check "the CPU and workers rows, one per scheduler: busy sync/async, overhead, workers, at once, switches, blocked waits" \
	sh -c "[ \$(grep -cE '^chain-100 +(6\\.12|new)( +[0-9.]+){2} +-?[0-9.]+( +[0-9.]+){4}$' '$r/table.txt') -eq 2 ]"
check "the instrumentation row: bare, pmtrace, trace-cmd, both costs, BPF figures" \
	grep -qE '^chain-100( +[0-9.]+){3}( +[-+][0-9.]+%){2} \|( +[0-9.]+){4}$' "$r/table.txt"
check "the per-phase efficiency rows, one per scheduler" \
	sh -c "[ \$(grep -cE '^chain-100 +(6\\.12|new)( +[0-9.]+%){8}$' '$r/table.txt') -eq 2 ]"
check "the analysis-speed line" grep -qE '^# critpath: [0-9]+ records \([0-9]+ files of chain-100\) analysed in [0-9.]+ s' "$r/table.txt"
check "run.txt names kernel release, series hash, QEMU and clock" \
	sh -c "grep -q '^kernel_release=6.12' '$r/run.txt' && grep -qE '^series_sha256=[0-9a-f]{64}$' '$r/run.txt' && grep -q '^qemu=QEMU' '$r/run.txt' && grep -q '^clock.chain-100=virtual$' '$r/run.txt'"
check "records, per-phase table and figure are kept" \
	sh -c "[ -s '$r/chain-100/sync-1.jsonl' ] && [ -s '$r/chain-100/async-1.jsonl' ] && [ -s '$r/chain-100/legacy-1.jsonl' ] && [ -s '$r/chain-100/table-6.12.txt' ] && [ -s '$r/chain-100/bpf-stats.txt' ] && grep -q '^resume ' '$r/chain-100/table.txt' && file '$r/chain-100/phases.png' | grep -q PNG"
f=$r/chain-100/flame
check "flame graphs: folded stacks and HTML of each mode and view, PNGs of sync and async callbacks" \
	sh -c "for m in sync async 6.12; do [ -s '$f'/\$m-callbacks.folded ] && [ -s '$f'/\$m-callbacks.html ] || exit 1; done
		file '$f/sync-callbacks.png' '$f/async-callbacks.png' | grep -c 'PNG image' | grep -qx 2"
check "the callbacks view has the chain's 100 devices in resume" \
	[ "$(grep -c '^resume;d[0-9]* [0-9]*$' "$f/async-callbacks.folded")" -eq 100 ]
check "waits: 6.12's async blocks each chain device on its neighbour in resume (99 pairs), the series' never" \
	sh -c "[ \$(grep -c '^resume;d[0-9]*;d[0-9]* ' '$f/6.12-waits.folded') -eq 99 ] &&
		! grep -q '^[a-z_]*;d[0-9]*;d[0-9]* ' '$f/async-waits.folded'"
check "kernel stacks of both async modes: folded, the series' with samples in its async worker (dpm_async_run)" \
	sh -c "[ -s '$r/chain-100/kstacks-6.12.folded' ] && grep -q '^[a-z_]*;.*;dpm_async_run;' '$r/chain-100/kstacks-async.folded'"
check "the kernel-stack flame graphs: HTML of both, PNG of the series'" \
	sh -c "[ -s '$f/kstacks-async.html' ] && [ -s '$f/kstacks-6.12.html' ] && file '$f/kstacks-async.png' | grep -q PNG"
t=$r/chain-100/timeline
"$TOP/tests/validate-json.py" "$TOP/plots/trace-event.schema.json" "$t/sync.trace.json" "$t/async.trace.json" \
	"$t/6.12.trace.json" > "$w.schema.log" 2>&1
ok $? "the trace-event JSON of each mode validates against plots/trace-event.schema.json"
sed 's/^/# /' "$w.schema.log"
check "the series' async: a resume slice per chain device, each on a worker thread's track" \
	[ "$(jq '[.traceEvents[] | select(.ph == "X" and .cat == "resume" and (.name | test("^d[0-9]+$")) and .args.async == 1)] | length' "$t/async.trace.json")" -eq 100 ]
check "the per-device timelines: gantt.png and gantt-6.12.png, gantt.svg naming scenario, kernel and clock" \
	sh -c "file '$t/gantt.png' '$t/gantt-6.12.png' | grep -c 'PNG image' | grep -qx 2 &&
		grep -q 'chain-100, kernel 6.12[^,]*, clock virtual' '$t/gantt.svg'"
check "the runtime PM latency rows: chains of 1 and 10, sync and queued, 3 rounds, p50 p99 max floor per-dev" \
	sh -c "[ \$(grep -cE '^ +(1|10) (sync |queued) +3( +[0-9.]+){4} +-?[0-9.]+$' '$r/table.txt') -eq 4 ]"
check "no latency below its floor: p50 >= (N + 1) x 100 us (the resume callbacks' sleeps)" \
	awk '$2 ~ /^(sync|queued)$/ && NF == 8 { n++; if ($4 < $7 || $7 != ($1 + 1) * 100) bad++ } END { exit !(n == 4 && !bad) }' "$r/table.txt"
check "the stack line: the deepest kernel stack per chain (1 and 10), deeper for 10, bytes per supplier" \
	grep -qE '^# kernel stack of a sync resume \(stack tracer, deepest\): N=1 [0-9]+ B, N=10 [0-9]+ B; [1-9][0-9]* B per supplier: a 16 KiB stack runs out near N=[0-9]+$' "$r/table.txt"
check "the battery rows: 0 and 5 sync devices; sync: never in a worker, async: in one" \
	sh -c "[ \$(grep -cE '^ +(0|5) \\| +[0-9.]+ +0 +[0-9.]+ \\| +[0-9.]+ +1 +[0-9.]+ \\| +[-+][0-9.]+%$' '$r/table.txt') -eq 2 ]"
check "the battery's resume callback evaluated _STA (>= 4 ms: its modelled EC read) in every row" \
	awk -F'|' '$1 ~ /^ +[0-9]+ $/ && NF == 4 { n++; split($2, a, " "); split($3, b, " "); if (a[1] >= 4 && b[1] >= 4) g++ } END { exit !(n == 2 && g == 2) }' "$r/table.txt"
check "the PCI rows: the NVMe controller's suspend (D0 -> D3hot) and resume (D3hot -> D0), 4 each, no error" \
	sh -c "[ \$(grep -cE '^[0-9a-f:.]+ +runtime_(suspend|resume) +4 +0( +[0-9.]+){2}$' '$r/table.txt') -eq 2 ]"
check "each at least the PCI core's 10 ms d3hot_delay" \
	awk '$2 ~ /^runtime_(suspend|resume)$/ && NF == 6 { n++; if ($5 >= 10000) g++ } END { exit !(n == 2 && g == 2) }' "$r/table.txt"
tap_done
