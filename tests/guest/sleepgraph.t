#!/bin/sh
# run-tests: parallel
# bpf/pmtrace against the kernel's own suspend/resume analyser,
# tools/power/pm-graph/sleepgraph.py, run on the host (offline) over the
# ftrace capture of the same transition: trace-cmd's report, in the tracefs
# text layout sleepgraph parses, with the stamp line sleepgraph writes.
# sleepgraph's per-device times (-devdump) come from the same
# device_pm_callback_start/end events but print with 1 us resolution.
# Tolerance: at least 90 % within 5 us, 99 % within 100 us, mean under 3 us.
. "$(dirname "$0")/../lib.sh"
tap_plan 9
w=$BUILD/test-guest/sleepgraph
sg=$BUILD/linux/tools/power/pm-graph/sleepgraph.py
pmsynth_guest pmtrace "$w" bench/scenarios/dag-100.txt build/bpf/pmtrace -- dag-100.txt
ok $GUEST_STATUS "pmtrace and trace-cmd record the same transition"

kernel=$(cat "$BUILD/obj/include/config/kernel.release")
{
	echo "# tracer: nop"
	echo "# suspend-$(date -u +%m%d%y-%H%M%S) pmlab mem $kernel"
	# "task-pid [cpu] ts: event:   args" -> "task-pid [cpu] ..... ts: event: args"
	sed -n 's/^\( *[^ ].*-[0-9]* *\[[0-9]*\]\) \( *[0-9.]*: [a-z_]*:\) */\1 ..... \2 /p' "$w/trace-cmd.txt"
} > "$w/ftrace.txt"
/usr/bin/python3 "$sg" -ftrace "$w/ftrace.txt" -devdump -verbose -o "$w/sleepgraph.html" > "$w/sleepgraph.txt" 2>&1
ok $? "sleepgraph.py analyses the capture"
check "sleepgraph drew its HTML timeline of the transition (sleepgraph.html: the synthetic devices in it)" \
	sh -c "grep -q '<html' '$w/sleepgraph.html' && grep -q 'id=\"timeline\"\|class=\"timeline\"' '$w/sleepgraph.html' && grep -q '>d50<\|\"d50\"\| d50 ' '$w/sleepgraph.html'"
check "sleepgraph found the transition's eight device phases" \
	[ "$(grep -cE '^ *(suspend_prepare|suspend|suspend_late|suspend_noirq|resume_noirq|resume_early|resume|resume_complete): [0-9.]+ - [0-9.]+ \([0-9]+ devices\)' "$w/sleepgraph.txt")" -eq 8 ]

# sleepgraph: "device phase us" of the synthetic devices, its phase names ours
awk '/^ *[a-z_]+: [0-9.]+ - [0-9.]+ \([0-9]+ devices\)/ {
		phase = $1; sub(/:$/, "", phase)
		sub(/^suspend_prepare$/, "prepare", phase); sub(/^resume_complete$/, "complete", phase)
		next
	}
	$1 ~ /^[0-9]+\)$/ && $2 ~ /^d[0-9]+$/ && NF == 6 { printf "%s/%s %.3f\n", $2, phase, ($6 - $4) * 1e6 }' \
	"$w/sleepgraph.txt" | sort > "$w/sleepgraph.keyed"
sed -n 's/.*"type":"device","device":"\(d[0-9]*\)","phase":"\([^"]*\)".*"callback_ns":\([0-9]*\).*/\1 \2 \3/p' \
	"$w/records.jsonl" | awk '{ printf "%s/%s %.3f\n", $1, $2, $3 / 1000 }' | sort > "$w/pmtrace.keyed"
join -j1 "$w/pmtrace.keyed" "$w/sleepgraph.keyed" > "$w/joined.txt"
check "sleepgraph has all 800 callbacks of the 100 synthetic devices ($(wc -l < "$w/sleepgraph.keyed"))" \
	[ "$(wc -l < "$w/sleepgraph.keyed")" -eq 800 ]
check "and each is one of pmtrace's ($(wc -l < "$w/joined.txt") joined)" [ "$(wc -l < "$w/joined.txt")" -eq 800 ]
agreement "$w/joined.txt" > "$w/agreement.txt"
set -- $(cat "$w/agreement.txt")
echo "# $1 callbacks in both, |pmtrace - sleepgraph|: mean $3 us, $4 % within 5 us, $5 % within 100 us, max $2 us"
check "at least 90 % agree within 5 us ($4 %)" awk -v p="$4" 'BEGIN { exit !(p >= 90) }'
check "at least 99 % agree within 100 us ($5 %, max $2 us)" awk -v p="$5" 'BEGIN { exit !(p >= 99) }'
check "mean disagreement under 3 us ($3 us)" awk -v m="$3" 'BEGIN { exit !(m < 3) }'
tap_done
