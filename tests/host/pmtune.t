#!/bin/sh
# bench/pmtune on hand-made records of small graphs with known answers
# (tests/mkrecords.sh; only the suspend phase has work): a slow leaf on
# the critical path is the first flip to async; a device marked
# deps=unknown is never flipped to async unless --unsafe; when the CPU
# work async adds exceeds what it saves, devices go back to sync; the
# model predicts the sync transition exactly; the script, the summary and
# the refusals.
. "$(dirname "$0")/../lib.sh"
tap_plan 24
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
check "the model: c = 20 us, h = 50 us, h0 = 1 us in suspend" \
	sh -c "grep -Eq '^suspend +20\\.0 +[0-9.]+ +50\\.0 +1\\.0 ' '$w/slow.out'"
check "the sync transition is predicted exactly (1.400 ms, error +0.0 %)" \
	sh -c "grep -Eq '^all-sync.txt.sync.jsonl +all-sync +0 +1\\.400 +1\\.400 +\\+0\\.0%' '$w/slow.out'"
check "the slow leaf on the critical path is the first flip, to async" [ "$(flip slow 1)" = "leaf async" ]
check "and the only one: the rest gain less than the threshold" [ -z "$(flip slow 2)" ]
# leaf async: it starts h0 = 1 us into the phase (its record: queued at 1,
# callback at 5, 3 us its own), done at 1 + 1000 + a (9.4); root waits
# for it: + h 50 + its slot 50, then the tail 10
check "predicted with it: 1.120 ms (leaf 1.010 + h 0.050 + root's slot 0.050 + tail 0.010)" \
	[ "$(pred slow best)" = 1.120 ]
expected="echo enabled > '/sys/devices/pmsynth'/'root'/'leaf'/power/async"
check "the script enables the leaf's power/async under /sys/devices/pmsynth, quoted" \
	sh -c 'grep -qxF "$1" "$2" && [ $(grep -c "^echo" "$2") -eq 1 ]' sh "$expected" "$w/slow.sh"
check "the summary has a line per set and per records file" \
	sh -c "grep -qx 'set=best async=1 predicted=1.120' '$w/slow.sum' && [ \$(grep -c '^run=' '$w/slow.sum') -eq 2 ]"

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

# 6.12's scheduling (legacy): r1 async, its child c1 async, big sync
# between them in the walk (c1, big, r1): r1 is queued only when the walk
# gets past big, 1000 us after c1 was done.  The hand-off h counts from
# that queueing (1 us), not from c1's end (1001 us: the walk twice).
printf 'r1\nbig\nc1 parent=r1\n' > "$w/legacy.txt"
printf 'phase suspend 0 1040\nsuspend c1 0 0 2 5 10\nsuspend big 0 10 10 1000 1010\nsuspend r1 0 1010 1012 10 1030\n' |
	shift_us | mk "$w/legacy.txt" sync 2 > "$w/legacy.sync.jsonl"
printf 'phase suspend 0 1040\nasync big 0\nsuspend c1 1 1 2 5 10\nsuspend big 0 10 10 1000 1010\nsuspend r1 1010 1011 1015 10 1027\n' |
	shift_us | mk "$w/legacy.txt" legacy 2 > "$w/legacy.async.jsonl"
"$t/pmtune" "$w/legacy.txt" "$w/legacy.sync.jsonl" "$w/legacy.async.jsonl" > "$w/legacy.out" 2>&1
check "6.12's scheduling: h counts from the device's queueing (1.0 us, not 1001)" \
	sh -c "grep -q \"6.12's scheduling\" '$w/legacy.out' && grep -Eq '^suspend +[0-9.]+ +[0-9.]+ +1\\.0 ' '$w/legacy.out'"
check "and its own transition is predicted within 5 %" \
	awk '$1 == "legacy.async.jsonl" { e = $6; sub(/%/, "", e); e += 0; ok = e < 5 && e > -5 } END { exit !ok }' "$w/legacy.out"

# outputs whole or not at all
"$t/pmtune" --summary "$w/keep.sum" --script /nonexistent/dir/x.sh "$w/all-sync.txt" \
	"$w/all-sync.txt.sync.jsonl" "$w/all-sync.txt.async.jsonl" > /dev/null 2>&1
check "a script that cannot be written: no summary left behind either" \
	sh -c "[ ! -e '$w/keep.sum' ] && [ ! -e '$w/keep.sum.tmp' ]"

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
