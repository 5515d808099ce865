#!/bin/sh
# bench/pmtune on hand-made records of small graphs with known answers
# (tests/mkrecords.sh; only the suspend phase has work): a slow leaf on
# the critical path is the first flip to async; a device marked
# deps=unknown is never flipped to async unless --unsafe; when the CPU
# work async adds exceeds what it saves, devices go back to sync; the
# model predicts the sync transition exactly; the script, the summary and
# the refusals.
. "$(dirname "$0")/../lib.sh"
tap_plan 21
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
t=$BUILD/tools
mk() { "$TOP/tests/mkrecords.sh" "$@"; }

# root with a slow leaf (1000 us) and three quick children (100 us); suspend
# walks the children first: leaf, s1, s2, s3, root.  The sync run: 1400 us,
# 200 us of it CPU work.  The all-async run: root's callback 50 us after
# leaf was done (10 us of it its own: a hand-off h of 50 us), and BUSY us
# of CPU work.
scen() {	# scen FILE DEFAULT_ASYNC [LEAF_FLAGS]
	printf '@defaults async=%s\nroot\nleaf parent=root%s\ns1 parent=root\ns2 parent=root\ns3 parent=root\n' \
		"$2" "${3:-}" > "$w/$1"
}
sync_spec() {
	printf 'phase suspend 0 1400\ncpu suspend 1200 200,0\n'
	printf 'suspend leaf 0 0 5 1000 1010\nsuspend s1 0 1010 1015 100 1120\n'
	printf 'suspend s2 0 1120 1125 100 1230\nsuspend s3 0 1230 1235 100 1340\n'
	printf 'suspend root 0 1340 1345 40 1390\n'
}
async_spec() {	# async_spec BUSY_US
	# a phase as long as its CPU work, at least 1200 us (virtual clock)
	len=$(( $1 > 1200 ? $1 : 1200 ))
	printf 'phase suspend 0 %s\ncpu suspend %s %s,0\n' "$len" $((len - $1)) "$1"
	printf 'suspend leaf 1 2 5 1000 1010\nsuspend s1 1 2 5 100 110\n'
	printf 'suspend s2 1 2 5 100 110\nsuspend s3 1 2 5 100 110\n'
	printf 'suspend root 1 1060 1070 40 1115\n'
}
# the times above start at 0: records start at 1 us, so all move by 100 us
shift_us() {
	awk '$1 == "phase" { $3 += 100; $4 += 100 }
	     $1 == "suspend" { if ($3) $3 += 100; $4 += 100; $5 += 100; $7 += 100 } { print }'
}
records() {	# records SCENARIO BUSY_US: sync and all-async records of it
	sync_spec | shift_us | mk "$w/$1" sync 2 > "$w/$1.sync.jsonl"
	async_spec "$2" | shift_us | mk "$w/$1" async 2 > "$w/$1.async.jsonl"
}
run() {	# run NAME SCENARIO [OPTIONS]: pmtune, $w/NAME.out/.err/.rc
	n=$1 s=$2
	shift 2
	"$t/pmtune" "$@" "$w/$s" "$w/$s.sync.jsonl" "$w/$s.async.jsonl" > "$w/$n.out" 2> "$w/$n.err"
	echo $? > "$w/$n.rc"
}
flip() { sed -n "/^# the best set/,\$p" "$w/$1.out" | awk -v k="$2" '$1 == k { print $2, $3 }'; }
pred() { awk -v s="$2" '$1 == s && NF == 3 { print $3 }' "$w/$1.out"; }

scen all-sync.txt 0
records all-sync.txt 300
run slow all-sync.txt --script "$w/slow.sh" --summary "$w/slow.sum"
check "pmtune runs on a sync and an all-async transition" [ "$(cat "$w/slow.rc")" = 0 ]
check "the model: c = 20 us, h = 50 us in suspend" \
	sh -c "grep -Eq '^suspend +20\\.0 +[0-9.]+ +50\\.0 ' '$w/slow.out'"
check "the sync transition is predicted exactly (1.400 ms, error +0.0 %)" \
	sh -c "grep -Eq '^all-sync.txt.sync.jsonl +all-sync +0 +1\\.400 +1\\.400 +\\+0\\.0%' '$w/slow.out'"
check "the slow leaf on the critical path is the first flip, to async" [ "$(flip slow 1)" = "leaf async" ]
check "and the only one: the rest gain less than the threshold" [ -z "$(flip slow 2)" ]
# leaf async: done at 50 + 1000 + a; root waits for it, 50 us of hand-off
check "predicted with it: 1.169 ms (leaf 1.059 + h 0.050 + root's slot 0.050 + tail 0.010)" \
	[ "$(pred slow best)" = 1.169 ]
check "the script enables the leaf's power/async under /sys/devices/pmsynth" \
	sh -c "grep -qx 'echo enabled > /sys/devices/pmsynth/root/leaf/power/async' '$w/slow.sh' && [ \$(grep -c '^echo' '$w/slow.sh') -eq 1 ]"
check "the summary has a line per set and per records file" \
	sh -c "grep -qx 'set=best async=1 predicted=1.169' '$w/slow.sum' && [ \$(grep -c '^run=' '$w/slow.sum') -eq 2 ]"

scen unsafe.txt 0 " deps=unknown"
records unsafe.txt 300
run unsafe unsafe.txt
check "a leaf with deps=unknown is not flipped to async" sh -c "! sed -n '/^# the best set/,\$p' '$w/unsafe.out' | grep -q ' leaf '"
check "a quick sibling is, instead (s1 first)" [ "$(flip unsafe 1)" = "s1 async" ]
run unsafe-ok unsafe.txt --unsafe
check "with --unsafe the leaf is the first flip again" [ "$(flip unsafe-ok 1)" = "leaf async" ]

# every device async as-is, and async costing 300 us of CPU work each:
# the CPU floor (200 + 5 x 300 us) bounds suspend, so flips go back to sync
scen all-async.txt 1
records all-async.txt 1700
run costly all-async.txt
check "as-is (all async) is floor-bound: 1.700 ms predicted" [ "$(pred costly as-is)" = 1.700 ]
check "the first flip is back to sync" [ "$(flip costly 1 | cut -d' ' -f2)" = sync ]
check "floor-bound, the best set is root and the leaf sync: 1.100 ms (the sync runs' 200 us + 3 x 300 us)" \
	[ "$(flip costly 1)/$(flip costly 2)/$(flip costly 3)/$(pred costly best)" = "root sync/leaf sync//1.100" ]
check "the best set is predicted faster than all-async" \
	awk -v b="$(pred costly best)" -v a="$(pred costly all-async)" 'BEGIN { exit !(b < a) }'
check "no flip of the best set makes the prediction worse" sh -c \
	"sed -n '/^# the best set/,\$p' '$w/costly.out' | awk 'NR > 2 { if (p && \$NF > p) bad = 1; p = \$NF } END { exit bad }'"

# refusals
"$t/pmtune" "$w/all-sync.txt" "$w/all-sync.txt.sync.jsonl" > "$w/nosync.out" 2>&1
check "no async transition: refused, naming the cause" contains "$w/nosync.out" \
	"need sync and async transitions, got 1 sync and 0 async"
"$t/pmtune" "$w/unsafe.txt" "$w/all-sync.txt.sync.jsonl" "$w/all-sync.txt.async.jsonl" > "$w/other.out" 2>&1
check "another scenario's records: refused" contains "$w/other.out" "recorded with scenario 'all-sync'"
sync_spec | shift_us | mk "$w/all-sync.txt" async 2 | sed 's/"async":1/"async":0/g' > "$w/noasync.jsonl"
"$t/pmtune" "$w/all-sync.txt" "$w/all-sync.txt.sync.jsonl" "$w/noasync.jsonl" > "$w/noasync.out" 2>&1
check "an async transition without async devices cannot calibrate: refused" contains "$w/noasync.out" \
	"an async one with async devices"
"$t/pmtune" --within x "$w/all-sync.txt" "$w/all-sync.txt.sync.jsonl" > "$w/bad.out" 2>&1
check "a bad option value names the option" contains "$w/bad.out" "--within wants a number 0..1000, got 'x'"
"$t/pmtune" --script /nonexistent/dir/x.sh "$w/all-sync.txt" "$w/all-sync.txt.sync.jsonl" \
	"$w/all-sync.txt.async.jsonl" > "$w/noscript.out" 2>&1
check "an unwritable script path fails (exit 1)" [ $? -eq 1 ]
tap_done
