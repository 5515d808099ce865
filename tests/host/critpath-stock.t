#!/bin/sh
# bench/critpath on records of a kernel without the series' events
# (tests/mkrecords.sh STOCK=1, as pmtrace writes them there: format 4,
# "absent", device records that are callbacks alone, none for a device
# whose callback did not run): T(sync), T(async), graph bound, efficiency
# and the critical path still come out, through devices without a record;
# blocked waits and queue delay say n/a, never 0; such records are refused
# when they claim part of a group, carry a value the begin record calls
# absent, or are mixed with records of the series' events.
. "$(dirname "$0")/../lib.sh"
tap_plan 20
d=$TOP/tests/data/critpath
mk=$TOP/tests/mkrecords.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/critpath" >/dev/null
cp=$w/critpath
# is WHAT GOT WANT: GOT = WANT (diagnostic on failure)
is() {
	[ "$2" = "$3" ] && return 0
	echo "# $1: want '$3', got '$2'" >&2
	return 1
}

# chain a <- b <- c; b has no resume callback (no record in resume): c's
# dependency is a, through b
STOCK=1 "$mk" "$d/chain.txt" sync 2 > "$w/sync.jsonl" <<'SPEC'
phase resume 1000 1600
resume a 0 0 1000 100 1100
resume c 0 0 1300 300 1600
phase suspend 2000 2600
suspend c 0 0 2000 300 2300
suspend b 0 0 2300 200 2500
suspend a 0 0 2500 100 2600
SPEC
STOCK=1 "$mk" "$d/chain.txt" async 2 > "$w/async.jsonl" <<'SPEC'
phase resume 1000 1700
resume a 0 0 1020 100 1120
resume c 0 0 1380 300 1680
phase suspend 2000 2600
suspend c 0 0 2000 300 2300
suspend b 0 0 2300 200 2500
suspend a 0 0 2500 100 2600
SPEC
check "the begin record lists what is absent" \
	contains "$w/async.jsonl" '"absent":["queued","start","queue_ns","wait_ns","waits","outcome","uncalled","rpm_callback","rpm_request"]'
"$cp" -s "$w/sum" "$d/chain.txt" "$w/sync.jsonl" "$w/async.jsonl" > "$w/out" 2> "$w/err"
ok $? "records without dpm_device events are analysed"
sed 's/^/# /' "$w/out" "$w/err"
check "resume: T(sync) 0.6, T(async) 0.7, graph 0.4 (a + c; b without a callback weighs 0), 57.1 %" \
	is resume "$(row "$w/out" resume)" "resume 0.600 0.700 0.86x 0.400 0.000 0.400 57.1% 0"
check "suspend: every device called, bound 0.6" \
	is suspend "$(row "$w/out" suspend)" "suspend 0.600 0.600 1.00x 0.600 0.000 0.600 100.0% 0"
check "resume's critical path: c held by a through b (wake-up 0.26), queue and blocked waits n/a" \
	is "resume work" "$(wrow "$w/out" resume)" \
	"resume 0.000 0.000 0.000 1.0 1.0 0 n/a | 2 0.400 0.400 n/a 0.260 0.040"
check "the header says what the records lack" \
	contains "$w/out" "no dpm_device events (a kernel without the series)"
check "the summary says blocked=n/a and events=stock" \
	sh -c 'grep -q " blocked=n/a " "$1" && grep -q " events=stock$" "$1"' sh "$w/sum"

# the ordering check through a device without a record: c before a was done
STOCK=1 "$mk" "$d/chain.txt" async 2 > "$w/order.jsonl" <<'SPEC'
phase resume 1000 1700
resume a 0 0 1020 300 1320
resume c 0 0 1300 300 1600
SPEC
"$cp" "$d/chain.txt" "$w/sync.jsonl" "$w/order.jsonl" > "$w/order.out" 2> "$w/order.err"
ok $? "a stock run with an ordering violation is analysed"
check "c's callback before a was done is a violation (b between them has no record)" \
	contains "$w/order.err" "resume: 'c' began its callback 0.020 ms before 'a' was done"

# refused, the cause named
refused() {
	_r_name=$1 _r_msg=$2
	shift 2
	"$cp" "$@" > "$w/r.out" 2>&1
	_r_rc=$?
	if [ "$_r_rc" -ne 0 ] && grep -qF -- "$_r_msg" "$w/r.out"; then
		ok 0 "$_r_name: refused"
	else
		sed 's/^/# /' "$w/r.out"
		ok 1 "$_r_name: refused (exit $_r_rc, want '$_r_msg')"
	fi
}
"$mk" "$d/chain.txt" async 2 < /dev/null > "$w/series.jsonl"
refused "stock and series records mixed" "recorded with dpm_device events" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/series.jsonl"
sed '1s/"queued",//' "$w/async.jsonl" > "$w/part.jsonl"
refused "an absent list naming part of the dpm group" "names part of a group (6 of the 7" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/part.jsonl"
sed '2s/"queued":null/"queued":1020000/' "$w/async.jsonl" > "$w/value.jsonl"
refused "a value in a field the begin record calls absent" "field 'queued' = 1020000: the begin record lists it as absent" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/value.jsonl"
sed '1s/"uncalled"/"bogus"/' "$w/async.jsonl" > "$w/bogus.jsonl"
refused "an unknown name in absent" "entry 6 = \"bogus\": not a field or record pmtrace can lack" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/bogus.jsonl"
sed '2i {"type":"rpm_request","device":"a","request":"resume","what":"run","ts":1000000}' "$w/async.jsonl" |
	sed 's/"records":\([0-9]*\)/"records":X/' > "$w/rpm.jsonl"
refused "an rpm record in records that list rpm records as absent" "the begin record lists it as absent" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/rpm.jsonl"
sed '1s/"start",/"queued",/' "$w/async.jsonl" > "$w/dup.jsonl"
refused "an absent list naming an entry twice (and not start)" "entry 1 = \"queued\": listed twice" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/dup.jsonl"
sed '1s/,"absent":\[[^]]*\]//' "$w/async.jsonl" > "$w/noabsent.jsonl"
refused "a format 4 begin record without absent" "field 'absent' missing" \
	"$d/chain.txt" "$w/sync.jsonl" "$w/noabsent.jsonl"

# same-named devices of an imported machine, told apart by their parents
# whatever their order in the file: the first "a" record is a.2's (parent
# q, begun at 1.0 ms, after q was done); taken as the scenario's "a"
# (parent p, done at 1.3 ms) it would be an ordering violation
twins() {	# twins MODE OUT [PARENT-OF-THE-FIRST PARENT-OF-THE-SECOND]
	STOCK=1 "$mk" "$d/twins.txt" "$1" 2 <<'SPEC' |
phase resume 700 1600
resume q 0 0 800 100 900
resume p 0 0 1200 100 1300
resume a 0 0 1000 50 1050
resume a 0 0 1400 100 1500
SPEC
	awk -v p1="${3:-q}" -v p2="${4:-p}" '/"device":"a"/ { n++; sub(/"parent":null/, "\"parent\":\"" (n == 1 ? p1 : p2) "\"") } 1' > "$2"
}
twins sync "$w/tw-sync.jsonl"
twins async "$w/tw-async.jsonl"
"$cp" "$d/twins.txt" "$w/tw-sync.jsonl" "$w/tw-async.jsonl" > "$w/tw.out" 2> "$w/tw.err"
ok $? "records of same-named devices are analysed"
sed 's/^/# /' "$w/tw.err"
check "each went to the twin with its parent: no ordering violation, graph 0.1 (a after p)" \
	is resume "$(row "$w/tw.out" resume)" "resume 0.900 0.900 1.00x 0.200 0.000 0.200 22.2% 0"
twins async "$w/tw-none.jsonl" zzz p
refused "a twin whose parent no same-named device has (left on its name, then taken twice)" "'a' has one already (line" \
	"$d/twins.txt" "$w/tw-sync.jsonl" "$w/tw-none.jsonl"
twins async "$w/tw-both.jsonl" p p
refused "two records for one twin" "'a' has one already (line" \
	"$d/twins.txt" "$w/tw-sync.jsonl" "$w/tw-both.jsonl"
tap_done
