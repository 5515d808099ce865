#!/bin/sh
# run-tests: parallel
# bpf/pmtrace against trace-cmd on the same transition (both on
# CLOCK_MONOTONIC): one record per device per phase, and per-device callback
# durations that agree with trace-cmd's power:device_pm_callback_start/end.
# Tolerance: at least 90 % within 5 us, 99 % within 100 us, mean under
# 2 us.  The two probes of one tracepoint run one after the other; an
# interrupt between them is what makes the few large ones (under TCG with
# -icount shift=0 a nanosecond is an instruction, and an hrtimer interrupt
# waking dozens of sleeping callbacks at once is measured in 100 us).
# Then the runs that must not look complete (interrupted, phase keys or
# events over a limit) and a device name of 63 characters (the job's
# "failures" part).
. "$(dirname "$0")/../lib.sh"
tap_plan 38
w=$BUILD/test-guest/pmtrace
pmsynth_guest pmtrace "$w" bench/scenarios/dag-100.txt build/bpf/pmtrace -- dag-100.txt failures
ok $GUEST_STATUS "pmtrace records a transition under trace-cmd"
check "pmtrace reports no dropped event" sh -c "! grep -q dropped '$w/pmtrace.log'"

# pmtrace: "device phase callback_us" for records with a callback
sed -n 's/.*"type":"device","device":"\([^"]*\)","phase":"\([^"]*\)".*"callback_ns":\([0-9]*\).*/\1 \2 \3/p' \
	"$w/records.jsonl" | awk '$3 > 0 { printf "%s %s %.3f\n", $1, $2, $3 / 1000 }' | sort > "$w/bpf.txt"
# trace-cmd: the same from device_pm_callback_start/end, phase from
# suspend_resume brackets
awk '{
	for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
	task = $(i - 1); pid = task; sub(/.*-/, "", pid)
	ts = $(i + 1); sub(/:$/, "", ts); ev = $(i + 2); sub(/:$/, "", ev)
	if (ev == "suspend_resume") {
		a = $(i + 3); sub(/\[.*/, "", a)
		if ($(i + 4) == "begin" && a ~ /^dpm_/) phase = substr(a, 5)
		next
	}
	if (ev != "device_pm_callback_start" && ev != "device_pm_callback_end") next
	line = $0; sub(/.*device_pm_callback_(start|end): /, "", line); sub(/,.*/, "", line)
	n = split(line, f, " "); dev = f[n]
	if (ev ~ /start$/) { start[pid, dev] = ts; next }
	if ((pid, dev) in start) {
		printf "%s %s %.3f\n", dev, phase, (ts - start[pid, dev]) * 1e6
		delete start[pid, dev]
	}
}' "$w/trace-cmd.txt" | sort > "$w/tracecmd.txt"

awk '{ print $1 "/" $2, $3 }' "$w/bpf.txt" | sort > "$w/bpf.keyed"
awk '{ print $1 "/" $2, $3 }' "$w/tracecmd.txt" | sort > "$w/tracecmd.keyed"
join -j1 "$w/bpf.keyed" "$w/tracecmd.keyed" > "$w/joined.txt"
ours=$(grep -c '^d[0-9]*/' "$w/joined.txt")
check "all 800 callbacks of the 100 synthetic devices are in both ($ours)" [ "$ours" -eq 800 ]
agreement "$w/joined.txt" > "$w/agreement.txt"
set -- $(cat "$w/agreement.txt")
echo "# $1 callbacks in both, |pmtrace - trace-cmd|: mean $3 us, $4 % within 5 us, $5 % within 100 us, max $2 us"
check "at least 90 % of callback durations agree within 5 us ($4 %)" awk -v p="$4" 'BEGIN { exit !(p >= 90) }'
check "at least 99 % agree within 100 us ($5 %, max $2 us)" awk -v p="$5" 'BEGIN { exit !(p >= 99) }'
check "mean disagreement under 2 us ($3 us)" awk -v m="$3" 'BEGIN { exit !(m < 2) }'
check "trace-cmd saw the same device callbacks as pmtrace" \
	[ "$(wc -l < "$w/bpf.txt")" -eq "$(wc -l < "$w/tracecmd.txt")" ]
check "phase records for every dpm phase" \
	sh -c "for p in dpm_prepare dpm_suspend dpm_suspend_late dpm_suspend_noirq dpm_resume_noirq dpm_resume_early dpm_resume dpm_complete; do grep -q \"\\\"type\\\":\\\"phase\\\",\\\"name\\\":\\\"\$p\\\"\" '$w/records.jsonl' || exit 1; done"
check "waits are attributed to the device waited for (6.12's scheduling, pm_async=2, whose workers wait)" \
	grep -q '"waits":\[{"on":"d[0-9]*","relation":"\(parent\|child\|supplier\|consumer\)","ns":[0-9]*}' "$w/records.jsonl"
check "async devices ran in async workers" grep -q '"device":"d[0-9]*","phase":"suspend","event":2,"async":1' "$w/records.jsonl"
n=$(grep -c '"device":"d[0-9]*","phase":"\(suspend\|resume\)",.*"outcome":"called"}$' "$w/records.jsonl")
check "device records of suspend and resume say what the PM core did: 200 of pmsynth's called ($n)" [ "$n" -eq 200 ]
n=$(grep -c '"device":"d[0-9]*","phase":"\(prepare\|complete\)",.*"callback_ns":[1-9]' "$w/records.jsonl")
check "prepare and complete, without dpm_device events, have their 200 records from the callbacks ($n)" [ "$n" -eq 200 ]
check "the first record names the format" \
	sh -c "head -1 '$w/records.jsonl' | grep -q '^{\"type\":\"begin\",\"format\":\"pmtrace-records-4\"'"
n=$(($(wc -l < "$w/records.jsonl") - 2))
check "the last record counts the $n records between" \
	sh -c "tail -1 '$w/records.jsonl' | grep -qx '{\"type\":\"end\",\"records\":$n,\"dropped\":0}'"
check "pmtrace -m without '=' exits non-zero ($(cat "$w/badarg.status" 2>/dev/null))" \
	sh -c "[ -s '$w/badarg.status' ] && [ \"\$(cat '$w/badarg.status')\" -ne 0 ]"
check "and names the cause, writing no records file" \
	sh -c "grep -q \"pmtrace: -m wants KEY=VALUE, got 'novalue'\" '$w/badarg.txt' && [ ! -e '$w/badarg.jsonl' ]"

# last FILE: the last line of FILE
last() { tail -n 1 "$1" 2>/dev/null; }
# records FILE: the lines between the first and the last
records() { echo $(($(wc -l 2>/dev/null < "$1" || echo 0) - 2)); }
status() { cat "$w/$1.status" 2>/dev/null; }

long=$(cat "$w/long-name.txt" 2>/dev/null)
n=$(grep -c "\"type\":\"device\",\"device\":\"$long\",\"phase\":\"suspend\"" "$w/long.jsonl")
check "a device name of ${#long} characters is whole in its record ($n suspend records)" \
	[ "${#long}" -eq 63 -a "$n" = 1 ]
check "that run exits 0 ($(status long)) and its last record counts no dropped event" \
	[ "$(status long)" = 0 -a "$(last "$w/long.jsonl")" = \
		"{\"type\":\"end\",\"records\":$(records "$w/long.jsonl"),\"dropped\":0}" ]

check "with --max-phase-keys 4 pmtrace exits 1 ($(status small))" [ "$(status small)" = 1 ]
check "and says how many phase events it dropped, and why" \
	grep -Eq '^pmtrace: [1-9][0-9]* phase events dropped: more than 4 distinct steps \(--max-phase-keys\)$' \
	"$w/small.log"
d=$(sed -n 's/^pmtrace: \([0-9]*\) events dropped: records incomplete$/\1/p' "$w/small.log")
check "the end record counts the $d dropped events" \
	[ -n "$d" -a "$(last "$w/small.jsonl")" = \
		"{\"type\":\"end\",\"records\":$(records "$w/small.jsonl"),\"dropped\":$d}" ]

why='reading the ring buffers failed: error -105 (No buffer space available), --max-events reached'
check "with --max-events 10 the failed ring buffer read ends pmtrace with 1 ($(status capped))" \
	[ "$(status capped)" = 1 ]
check "and is reported" contains "$w/capped.log" "pmtrace: $why: records incomplete"
check "the records end incomplete, with the reason" \
	[ "$(last "$w/capped.jsonl")" = \
		"{\"type\":\"incomplete\",\"records\":$(records "$w/capped.jsonl"),\"dropped\":0,\"reason\":\"$why\"}" ]

echo "# pids used up for the tid check: $(cat "$w/tid-burn.txt" 2>/dev/null) (guest clock)"
set -- $(cat "$w/tid-pids.txt" 2>/dev/null) 0 0
check "two threads whose tids differ by 8192 ran runtime callbacks at once ($1, $2)" \
	[ $(($2 - $1)) -eq 8192 ]
# cb_ns DEVICE: the runtime_resume callback's end - start, or "no start"
cb_ns() {
	sed -n "s/.*\"type\":\"rpm_callback\",\"device\":\"$1\",\"callback\":\"runtime_resume\".*\"start\":\([0-9]*\),\"end\":\([0-9]*\),.*/\1 \2/p" \
		"$w/tid.jsonl" | awk '$1 > 0 { print $2 - $1; next } { print "no start" }'
}
r1=$(cb_ns r1)
r2=$(cb_ns r2)
check "pmtrace pairs each thread's callback with its own start: 1 s each ($r1, $r2 ns; exit $(status tid))" \
	sh -c "[ '$(status tid)' = 0 ] && [ '$r1' -ge 1000000000 ] && [ '$r2' -ge 1000000000 ]" 2>/dev/null

check "a failed fork ends pmtrace with 1 ($(status fork))" [ "$(status fork)" = 1 ]
check "naming the cause, and leaves no records file" \
	sh -c "grep -qx 'pmtrace: cannot run the command: fork: Resource temporarily unavailable' '$w/fork.log' &&
		[ ! -e '$w/fork.jsonl' ]"

check "SIGTERM to pmtrace while its command runs: exit 143 ($(status term))" [ "$(status term)" = 143 ]
check "the command got the SIGTERM" contains "$w/term-child.txt" TERM
check "pmtrace reaped the command and says so, and that it was interrupted" \
	sh -c "grep -qx 'pmtrace: interrupted by SIGTERM: records incomplete' '$w/term.log' &&
		grep -qx 'pmtrace: the command (pid $(cat "$w/term-child.pid" 2>/dev/null)) exited with status 3' '$w/term.log'"
check "the records end incomplete: interrupted by SIGTERM" \
	[ "$(last "$w/term.jsonl")" = \
		"{\"type\":\"incomplete\",\"records\":$(records "$w/term.jsonl"),\"dropped\":0,\"reason\":\"interrupted by SIGTERM\"}" ]

check "without a command, SIGINT (Ctrl-C) ends the recording normally: exit 0 ($(status sigint))" \
	[ "$(status sigint)" = 0 ]
check "the records are complete (an end record, nothing dropped) and hold the transition's devices" \
	sh -c "[ '$(last "$w/sigint.jsonl")' = '{\"type\":\"end\",\"records\":$(records "$w/sigint.jsonl"),\"dropped\":0}' ] &&
		grep -q '\"device\":\"r1\",\"phase\":\"suspend\"' '$w/sigint.jsonl'"
check "-v shows libbpf's messages ($(grep -c '^libbpf: ' "$w/sigint.log" 2>/dev/null) lines), and pmtrace's own count" \
	sh -c "[ \$(grep -c '^libbpf: ' '$w/sigint.log') -ge 5 ] && grep -q '^pmtrace: [0-9]* records\$' '$w/sigint.log'"
check "not root: the programs do not load, exit 1 ($(status unpriv))" [ "$(status unpriv)" = 1 ]
check "... said with libbpf's error and its first warning, and how to see the rest" \
	sh -c "grep -q '^pmtrace: cannot load the BPF programs: error -1 (Operation not permitted)\$' '$w/unpriv.log' &&
		[ \$(grep -c '^pmtrace: ' '$w/unpriv.log') -ge 3 ] &&
		grep -qx 'pmtrace: -v shows all of libbpf.s messages' '$w/unpriv.log'"
check "... and no records file is left" sh -c "[ -f '$w/unpriv.left' ] && [ ! -s '$w/unpriv.left' ]"
tap_done
