#!/bin/sh
# bench/rpm-latency (make bench's runtime PM latency row) on hand-made
# records of mode runtime, built with ASan and UBSan: known latencies per
# round (sync from the first supplier callback, queued from the leaf's
# queued request), nearest-rank percentiles, the floor and the per-device
# overhead; the chain's suspend callbacks and other devices ignored; a
# round that did not resume every supplier, a transition recording, bad
# metadata and a queued file without requests refused by file and cause,
# with nothing printed.
. "$(dirname "$0")/../lib.sh"
tap_plan 13
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/rpm-latency" >/dev/null
rl=$w/rpm-latency

# three sync rounds through s1 <- s2 <- leaf, latencies 320, 330 and 400 us,
# the chain suspending in between (suspend and idle callbacks: ignored)
rpm_records runtime 2 sync > "$w/sync.jsonl" <<'S'
cb s1 resume 1000 1100
cb s2 resume 1110 1210
cb leaf resume 1220 1320
cb leaf idle 1330 1331
cb leaf suspend 1340 1440
cb s2 suspend 1450 1550
cb s1 suspend 1560 1660
cb s1 resume 2000 2100
cb s2 resume 2115 2215
cb leaf resume 2230 2330
cb leaf suspend 2340 2440
cb s2 suspend 2450 2550
cb s1 suspend 2560 2660
cb s1 resume 3000 3100
cb s2 resume 3150 3250
cb leaf resume 3300 3400
cb other resume 3300 3500
S
# two queued rounds through s1 <- leaf: 260 and 280 us from the request
rpm_records runtime 1 queued > "$w/queued.jsonl" <<'S'
req leaf resume queued 1000
req leaf resume run 1040
cb s1 resume 1050 1150
cb leaf resume 1160 1260
cb leaf suspend 1300 1400
cb s1 suspend 1410 1510
req leaf resume queued 2000
req leaf resume run 2050
cb s1 resume 2060 2160
cb leaf resume 2180 2280
S
"$rl" "$w/sync.jsonl" "$w/queued.jsonl" > "$w/out" 2> "$w/err"
ok $? "the records analyse"
sed 's/^/# /' "$w/out" "$w/err"
row() { awk -v s="$1" -v r="$2" '$1 == s && $2 == r' "$w/out"; }
check "the sync row: 2 suppliers, 3 rounds, p50 330, p99 400, max 400 us" \
	[ "$(row 2 sync | awk '{ print $3, $4, $5, $6 }')" = "3 330.0 400.0 400.0" ]
check "the queued row: 1 supplier, 2 rounds, p50 260, p99 and max 280 us (from the request)" \
	[ "$(row 1 queued | awk '{ print $3, $4, $5, $6 }')" = "2 260.0 280.0 280.0" ]
check "the header names the start points and the columns" \
	sh -c "grep -q '^# .*sync from the first' '$w/out' && grep -qE '^suppliers request +rounds +p50 +p99 +max$' '$w/out'"
"$rl" --callback-us 100 "$w/sync.jsonl" > "$w/out2" 2>&1
check "--callback-us: floor 300 us (3 resume callbacks of 100), 10 us per device at p50" \
	[ "$(awk '$1 == 2 { print $7, $8 }' "$w/out2")" = "300.0 10.0" ]

# refused NAME MESSAGE [OPTIONS]: NAME.jsonl refused, MESSAGE said, nothing printed
refused() {
	_f=$1 _m=$2
	shift 2
	"$rl" "$@" "$w/sync.jsonl" "$w/$_f.jsonl" > "$w/r.out" 2> "$w/r.err"
	_rc=$?
	if [ "$_rc" -eq 1 ] && grep -qF -- "$_m" "$w/r.err" && [ ! -s "$w/r.out" ]; then
		return 0
	fi
	echo "# exit $_rc, stdout $(wc -c < "$w/r.out") bytes, stderr:" >&2
	sed 's/^/#   /' "$w/r.err" >&2
	return 1
}
# the second round lacks s2's resume: the chain was not all suspended
sed '/"s2".*"start":2115000/d; s/"records":17/"records":16/' "$w/sync.jsonl" > "$w/short.jsonl"
check "a round that resumed 1 of 2 suppliers: refused with its line and round" \
	refused short "short.jsonl:10: round 2 resumed 1 suppliers, the chain has 2"
sed 's/"mode":"runtime"/"mode":"async"/' "$w/sync.jsonl" > "$w/async.jsonl"
check "a system transition's recording (mode async): refused, not a whole transition" \
	refused async "async.jsonl: no dpm_prepare phase record: not a whole transition"
sed 's/"suppliers":"2"/"suppliers":"two"/' "$w/sync.jsonl" > "$w/nsup.jsonl"
check "suppliers not a number: refused by the meta key" \
	refused nsup "nsup.jsonl: meta 'suppliers' = two: want a number"
sed 's/"request":"sync"/"request":"later"/' "$w/sync.jsonl" > "$w/nreq.jsonl"
check "request neither sync nor queued: refused" \
	refused nreq "nreq.jsonl: meta 'request' = later: want sync or queued"
sed '/"rpm_request"/d; s/"records":10/"records":6/' "$w/queued.jsonl" > "$w/noreq.jsonl"
check "a queued recording without the leaf's request: refused" \
	refused noreq "noreq.jsonl:3: round 1: no queued resume request of the leaf"
sed 's/"callback":"runtime_resume"/"callback":"runtime_wake"/' "$w/sync.jsonl" > "$w/kind.jsonl"
check "an unknown callback kind: refused by the records reader, with the field" \
	refused kind "kind.jsonl:2: rpm_callback record: field 'callback' = \"runtime_wake\": not one pmtrace writes"
check "no device of the leaf's name: refused" \
	refused sync "no runtime resume of 'gpu' recorded" -d gpu
"$rl" --callback-us -5 "$w/sync.jsonl" > "$w/r.out" 2> "$w/r.err"
check "--callback-us -5: refused before reading" \
	sh -c "[ $? -ne 0 ] && grep -q 'callback-us -5: want microseconds' '$w/r.err' && [ ! -s '$w/r.out' ]"
tap_done
