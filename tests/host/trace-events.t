#!/bin/sh
# bench/trace-events (ASan/UBSan): a hand-made async transition of the
# chain a <- b <- c as Chrome trace-event JSON, validated against
# plots/trace-event.schema.json (the subset Perfetto and chrome://tracing
# read), then its content: a track per thread named by tid, plus the
# phases and queued tracks; a slice per device record with its callback,
# queue and blocked time; a flow arrow per blocked wait, from inside the
# slice waited for to the waiter's; times in us from the first phase.
# Bad input refused by cause, printing nothing.
. "$(dirname "$0")/../lib.sh"
tap_plan 17
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/trace-events" >/dev/null
te=$w/trace-events
# resume: a in worker 101, b and c in worker 102, queued at 1005 us;
# b blocked 10 us on a, c 20 us on b
"$TOP/tests/mkrecords.sh" "$TOP/tests/data/critpath/chain.txt" async 2 > "$w/async.jsonl" <<'S'
phase resume 1000 1700
resume a 1005 1010 1020 100 1130
resume b 1005 1010 1150 200 1360 a:10
resume c 1005 1020 1380 300 1690 b:20
worker resume a 101 1
worker resume b 102 1
worker resume c 102 1
S
"$te" "$w/async.jsonl" > "$w/t.json" 2> "$w/err"
ok $? "trace-events converts the transition"
"$TOP/tests/validate-json.py" "$TOP/plots/trace-event.schema.json" "$w/t.json" > "$w/schema.log" 2>&1
ok $? "it validates against the trace-event schema"
sed 's/^/# /' "$w/schema.log"
# the validator itself: a slice without its duration is caught
jq '.traceEvents |= map(if .ph == "X" and .name == "b" then del(.dur) else . end)' "$w/t.json" > "$w/nodur.json"
"$TOP/tests/validate-json.py" "$TOP/plots/trace-event.schema.json" "$w/nodur.json" > "$w/schema.log" 2>&1
st=$?
check "a slice without 'dur' fails the schema" sh -c "[ $st -eq 1 ] && grep -q \"'dur' is a required property\" '$w/schema.log'"
q() { jq -c "$1" "$w/t.json"; }
check "the process is named by scenario and mode" \
	[ "$(q '[.traceEvents[] | select(.ph == "M" and .name == "process_name") | .args.name]')" = '["chain, async"]' ]
check "tracks: phases, queued, and one per thread (1: the other phases' filler records; 101, 102), named" \
	[ "$(q '[.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .args.name] | sort')" = \
		'["phases","queued for a worker","thread 1","thread 101","thread 102"]' ]
check "the resume phase: a 700 us slice on the phases track, at 999 us (prepare, the origin, at 1 us)" \
	[ "$(q '[.traceEvents[] | select(.ph == "X" and .cat == "phase" and .name == "resume") | [.ts, .dur]]')" = '[[999,700]]' ]
check "b's slice: thread 102, from its start (1009 us) to its end (1359), callback 200 us, blocked 10, queued 5" \
	[ "$(q '[.traceEvents[] | select(.ph == "X" and .cat == "resume" and .name == "b") | [.tid, .ts, .dur, .args.callback_ns, .args.blocked_ns, .args.queue_ns, .args.async]]')" = \
		'[[102,1009,350,200000,10000,5000,1]]' ]
check "queued for a worker: an async slice per device, its own id, from its queueing to its start (c until 1019)" \
	[ "$(q '[.traceEvents[] | select(.cat == "queued") | [.ph, .name, .id, .ts]] | sort')" = \
		'[["b","a",1,1004],["b","b",2,1004],["b","c",3,1004],["e","a",1,1009],["e","b",2,1009],["e","c",3,1019]]' ]
check "two flow arrows, ids paired, s at the end of the device waited for, f in the waiter's slice then" \
	[ "$(q '[.traceEvents[] | select(.ph == "s" or .ph == "f") | [.ph, .id, .tid, .ts]] | sort')" = \
		'[["f",1,102,1128.999],["f",2,102,1358.999],["s",1,101,1128.999],["s",2,102,1358.999]]' ]
check "no arrow ends before it starts" \
	[ "$(q '[.traceEvents[] | select(.ph == "s" or .ph == "f")] | group_by(.id) | map(select(.[0].ph == "s" and .[1].ph == "f" and .[1].ts < .[0].ts or .[0].ph == "f" and .[0].ts < .[1].ts)) | length')" = 0 ]
check "each f binds to its enclosing slice (bp e) and names the device waited for" \
	[ "$(q '[.traceEvents[] | select(.ph == "f") | [.bp, .args.on]]')" = '[["e","a"],["e","b"]]' ]
check "the metadata names the clock and the source" \
	[ "$(q '[.metadata.clock, .metadata.mode]')" = '["virtual","async"]' ]

refused() { tool_refuses "$w" "$te" "$@"; }	# refused DESCRIPTION MESSAGE-ERE ARGS...
refused "two records files" "one records file" "$w/async.jsonl" "$w/async.jsonl"
rpm_records runtime 1 sync > "$w/rpm.jsonl" <<'S'
cb d resume 1 2
S
refused "a runtime PM recording" "a runtime PM recording has no device phases" "$w/rpm.jsonl"
refused "not records" "not a JSON object" "$TOP/README.md"
refused "no file" "no records file given"
"$te" "$w/async.jsonl" > /dev/full 2> "$w/err"
check "a full disk: exit 1, saying so" sh -c "[ $? -eq 1 ] && grep -q 'writing the JSON failed' '$w/err'"
tap_done
