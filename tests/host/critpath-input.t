#!/bin/sh
# bench/critpath (records.c, the records reader) under hostile input, built
# with ASan and UBSan (a finding aborts the tool and fails the check): each
# damaged records file is refused with FILE:LINE, the record, the field and
# the cause, exit non-zero and no summary written; inputs that used to hang,
# crash or go quadratic (many names, long names, many duplicates) run.
. "$(dirname "$0")/../lib.sh"
tap_plan 35
d=$TOP/tests/data/critpath
mk=$TOP/tests/mkrecords.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/critpath" >/dev/null
cp=$w/critpath

"$mk" "$d/chain.txt" sync 2 > "$w/sync.jsonl" <<'SPEC'
phase resume 1000 1600
resume a 0 1000 1000 100 1100
resume b 0 1100 1100 200 1300
resume c 0 1300 1300 300 1600
SPEC
"$mk" "$d/chain.txt" async 2 > "$w/async.jsonl" <<'SPEC'
phase resume 1000 1700
resume a 1005 1010 1020 100 1130
resume b 1005 1010 1150 200 1360 a
resume c 1005 1010 1380 300 1690 b
SPEC
"$cp" "$d/chain.txt" "$w/sync.jsonl" "$w/async.jsonl" > "$w/out" 2>&1
ok $? "the undamaged records analyse"

# line FILE DEVICE PHASE: the line number of DEVICE's PHASE record
line() { grep -n "\"device\":\"$2\",\"phase\":\"$3\"" "$1" | cut -d: -f1; }
# damage NAME SED: async.jsonl edited by SED into NAME.jsonl
damage() { sed "$2" "$w/async.jsonl" > "$w/$1.jsonl"; }
# refused NAME MESSAGE: NAME.jsonl refused, MESSAGE said, no summary
refused() {
	rm -f "$w/r.sum"
	timeout 120 "$cp" -s "$w/r.sum" "$d/chain.txt" "$w/sync.jsonl" "$w/$1.jsonl" > "$w/r.out" 2>&1
	_r_rc=$?
	if [ "$_r_rc" -ne 0 ] && [ "$_r_rc" -lt 128 ] && grep -qF -- "$2" "$w/r.out" &&
	   [ ! -e "$w/r.sum" ]; then
		ok 0 "$1: refused, '$2'"
	else
		sed 's/^/# /' "$w/r.out" | head -20
		ok 1 "$1: refused (exit $_r_rc, want '$2', no summary)"
	fi
}
b=$(line "$w/async.jsonl" b resume)

damage junk "${b}s/}\$/} {\"type\":\"device\"}/"
refused junk "junk.jsonl:$b: text after the record's JSON object (column"
damage huge-int "${b}s/\"end\":1360000/\"end\":99999999999999999999/"
refused huge-int "huge-int.jsonl:$b: device record: field 'end' = 18446744073709551615: out of range"
damage negative "${b}s/\"start\":1010000/\"start\":-5/"
refused negative "negative.jsonl:$b: device record: field 'start' = -5: out of range"
damage int-max "${b}s/\"callback_ns\":200000/\"callback_ns\":9223372036854775000/"
refused int-max "int-max.jsonl:$b: device record: field 'callback_ns' = 9223372036854775000: out of range"
damage over-cap "${b}s/\"nvcsw\":0/\"nvcsw\":1152921504606846977/"
refused over-cap "over-cap.jsonl:$b: device record: field 'nvcsw' = 1152921504606846977: out of range (0..1152921504606846976)"
damage long-callback "${b}s/\"callback_ns\":200000/\"callback_ns\":900000/"
refused long-callback \
	"long-callback.jsonl:$b: device record: field 'callback_ns' = 900000: longer than the device's window"
damage outside "${b}s/\"end\":1360000/\"end\":61360000000/"
refused outside "outside.jsonl:$b: device record of 'b': 1005000..61360000000 ns, outside its phase dpm_resume"
damage early-callback "${b}s/\"callback_start\":1150000/\"callback_start\":1009000/"
refused early-callback \
	"early-callback.jsonl:$b: device record: field 'callback_start' = 1009000: before the device's start 1010000"
damage late-queue "${b}s/\"queued\":1005000/\"queued\":1800000/"
refused late-queue "late-queue.jsonl:$b: device record of 'b': 1010000..1800000 ns, outside its phase dpm_resume"
damage string-start "${b}s/\"start\":1010000/\"start\":\"1010000\"/"
refused string-start "string-start.jsonl:$b: device record: field 'start' is a string, not an integer"
damage double-start "${b}s/\"start\":1010000/\"start\":1.01e6/"
refused double-start "double-start.jsonl:$b: device record: field 'start' is a double, not an integer"
damage no-tid "${b}s/\"tid\":1,//"
refused no-tid "no-tid.jsonl:$b: device record: field 'tid' missing"
damage bad-phase "${b}s/\"phase\":\"resume\"/\"phase\":\"nap\"/"
refused bad-phase "bad-phase.jsonl:$b: device record: field 'phase' = \"nap\": not a device phase"
damage bad-wait "${b}s/{\"on\":\"a\"/{\"on\":7/"
refused bad-wait "bad-wait.jsonl:$b: device record: field 'on' is a int, not a string"
damage bad-type "${b}s/\"type\":\"device\"/\"type\":\"dev\"/"
refused bad-type "bad-type.jsonl:$b: a record: field 'type' = \"dev\": not a record type of pmtrace"
damage bad-cpus '1s/"cpus":"2"/"cpus":"2x"/'
refused bad-cpus "bad-cpus.jsonl:1: begin record: field 'cpus' (in meta) = \"2x\": want a number"
ph=$(grep -n '"name":"dpm_resume",' "$w/async.jsonl" | cut -d: -f1)
damage reversed-phase "${ph}s/\"start\":1000000,\"end\":1700000/\"start\":1700000,\"end\":1000000/"
refused reversed-phase "reversed-phase.jsonl:$ph: phase record: field 'end' = 1000000: before the phase's start 1700000"
cp /bin/true "$w/elf.jsonl"
refused elf "elf.jsonl:1: a NUL byte: not a pmtrace records file"
head -c 64 /bin/true | tr -d '\n' > "$w/elf-head.jsonl"
refused elf-head "elf-head.jsonl:1: a NUL byte: not a pmtrace records file"
printf '{"type":"begin"}\0\n' > "$w/nul.jsonl"
refused nul "nul.jsonl:1: a NUL byte: not a pmtrace records file"
head -c 100 "$w/async.jsonl" > "$w/cut.jsonl"
refused cut "cut.jsonl:1: not a JSON object: not a pmtrace records file"
head -n 3 "$w/async.jsonl" > "$w/cut3.jsonl"
head -n 4 "$w/async.jsonl" | tail -n 1 | head -c 50 >> "$w/cut3.jsonl"
refused cut3 "cut3.jsonl:4: last line cut short: the file is truncated"
e=$(grep -n '"type":"end"' "$w/async.jsonl" | cut -d: -f1)
damage interrupted "${e}s/\"type\":\"end\"\(.*\)}\$/\"type\":\"incomplete\"\1,\"reason\":\"interrupted by SIGINT\"}/"
refused interrupted \
	"interrupted.jsonl:$e: pmtrace did not finish (interrupted by SIGINT): the records are incomplete"
damage dropped "${e}s/\"dropped\":0/\"dropped\":3/"
refused dropped "dropped.jsonl: pmtrace dropped 3 events: the records are incomplete"

# add FILE N NAME...: N device records of each NAME (resume, inside the
# phase, no callback) before FILE's end record, the count bumped
add() {
	_a_f=$1 _a_n=$2
	shift 2
	awk -v n="$_a_n" -v names="$*" '
	/"type":"end"/ {
		k = split(names, nm, " ")
		for (j = 1; j <= k; j++)
			for (i = 0; i < n; i++)
				printf "{\"type\":\"device\",\"device\":\"%s\",\"phase\":\"resume\",\"async\":0,\"tid\":9,\"queued\":0,\"start\":1100000,\"callback_start\":0,\"callback_ns\":0,\"end\":1100000,\"waits\":[],\"nvcsw\":0,\"nivcsw\":0}\n", nm[j]
		match($0, /"records":[0-9]+/)
		c = substr($0, RSTART + 10, RLENGTH - 10) + n * k
		sub(/"records":[0-9]+/, "\"records\":" c)
	}
	{ print }' "$_a_f" > "$_a_f.new" && mv "$_a_f.new" "$_a_f"
}
# runs NAME: NAME.jsonl analysed (exit 0) within a generous guard (GUARD s, 120)
runs() {
	timeout "${GUARD:-120}" "$cp" "$d/chain.txt" "$w/sync.jsonl" "$w/$1.jsonl" > "$w/r.out" 2>&1
	_r_rc=$?
	[ "$_r_rc" -eq 0 ] || sed 's/^/# /' "$w/r.out" | tail -5
	ok "$_r_rc" "$1: analysed (exit $_r_rc)"
}
# the largest values a record may hold (2^60) summed and doubled without
# an overflow (UBSan would abort): b's two switch counts, a phase that
# ends at 2^60 ns
damage at-cap "${b}s/\"nvcsw\":0,\"nivcsw\":0/\"nvcsw\":1152921504606846976,\"nivcsw\":1152921504606846976/
${ph}s/\"end\":1700000/\"end\":1152921504606846976/"
runs at-cap
long=$(printf '%0300d' 0 | tr 0 x)
cp "$w/async.jsonl" "$w/long-dups.jsonl"
add "$w/long-dups.jsonl" 3 "$long"
runs long-dups
# 100,000 devices of one name: linear, well inside the 30 s guard under ASan; the old
# quadratic aliasing took 24 s for 20,000, about 10 minutes for these
cp "$w/async.jsonl" "$w/many-dups.jsonl"
add "$w/many-dups.jsonl" 100000 dup
GUARD=30 runs many-dups
# waits FILE N: FILE = async.jsonl with N more devices in b's waits
waits() {
	awk -v b="$b" -v n="$2" 'NR == b { i = index($0, "\"waits\":[")
		printf "%s", substr($0, 1, i + 8)
		for (k = 0; k < n; k++)
			printf "{\"on\":\"w%d\",\"relation\":\"parent\",\"ns\":1},", k
		print substr($0, i + 9); next } { print }' "$w/async.jsonl" > "$1"
}
# 70,000 distinct devices waited on (past the old table's 65,536)
waits "$w/many-waits.jsonl" 70000
check "many-waits: the record names 70,001 devices" \
	[ "$(grep -o '"on":' "$w/many-waits.jsonl" | wc -l)" -ge 70001 ]
runs many-waits
waits "$w/too-many-waits.jsonl" 1048576
refused too-many-waits "too-many-waits.jsonl:$b: device record: field 'waits' names more than 1048576 distinct devices"

# the scenario reader: pmsynth's parser, so its refusals (tests/data/bad-scenarios)
printf '' > "$w/empty.txt"
"$cp" --check "$w/empty.txt" > "$w/r.out" 2>&1
ok $((! $?)) "an empty scenario file: refused"
check "an empty scenario file: 'no devices in the scenario'" \
	contains "$w/r.out" "empty.txt: no devices in the scenario"
"$cp" --check "$d/chain.txt" > "$w/r.out" 2>&1
ok $? "--check: a good scenario is accepted"
check "--check: devices, pm_links and the sha256 said" \
	contains "$w/r.out" "chain.txt: 3 devices, 2 pm_links, sha256 $(sha256sum "$d/chain.txt" | cut -c1-64)"
tap_done
