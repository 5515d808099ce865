# lib.sh - TAP helpers for pmlab tests (sourced by tests/*/*.t).
#
# Each test file prints TAP version 13: "1..N" then "ok K - what" or
# "not ok K - what" per check; "# SKIP reason" marks a check not run (it is
# never counted as passed).  tests/run-tests.sh collects the files.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$TOP/build
T_N=0
T_FAILED=0
echo "TAP version 13"

tap_plan() { echo "1..$1"; }

# ok STATUS DESCRIPTION: pass when STATUS is 0.
ok() {
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAILED=$((T_FAILED + 1))
	fi
}

# check DESCRIPTION COMMAND...: run COMMAND, pass when it exits 0.
check() {
	_c_desc=$1
	shift
	if "$@"; then ok 0 "$_c_desc"; else ok 1 "$_c_desc"; fi
}

# contains FILE STRING: FILE contains STRING (diagnostic on failure).
contains() {
	if grep -qF -- "$2" "$1" 2>/dev/null; then
		return 0
	fi
	echo "# '$2' not found in $1:" >&2
	sed 's/^/#   /' "$1" 2>/dev/null | tail -5 >&2
	return 1
}

skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }

tap_done() { exit "$T_FAILED"; }

# guest JOB OUTDIR [ARG...]: run a guest job (lab/jobs), output to OUTDIR.log;
# sets GUEST_STATUS.
guest() {
	_g_job=$1 _g_out=$2
	shift 2
	GUEST_STATUS=0
	"$TOP/lab/run-guest.sh" "$_g_job" "$_g_out" "$@" > "$_g_out.log" 2>&1 || GUEST_STATUS=$?
	sed 's/^/# /' "$_g_out.log"
}

# guest_checks DIR: re-emit the guest's own checks ($DIR/checks.txt, written
# by tcheck/teq in lab/guest/pmlib.sh) as numbered TAP lines.
guest_checks() {
	if [ ! -f "$1/checks.txt" ]; then
		ok 1 "guest checks were written ($1/checks.txt)"
		return
	fi
	while IFS= read -r line; do
		case $line in
		"ok - "*)	ok 0 "${line#ok - }";;
		"not ok - "*)	ok 1 "${line#not ok - }";;
		esac
	done < "$1/checks.txt"
}

# pmsynth_guest JOB OUTDIR [FILES] -- [ARG...]: run a guest job
# with the pmsynth module and FILES (paths relative to the project) in
# /pmlab.  The module is built by "make check" before the tests run.
pmsynth_guest() {
	_p_job=$1 _p_out=$2
	shift 2
	_p_extra="$TOP/lab/pmsynth/pmsynth.ko"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_p_extra="$_p_extra $TOP/$1"
		shift
	done
	[ $# -eq 0 ] || shift
	mkdir -p "$(dirname "$_p_out")"
	EXTRA=$_p_extra guest "$_p_job" "$_p_out" "$@"
}

# agreement FILE: FILE has "KEY A B" lines (two tools' durations, us);
# prints "N MAX MEAN PCT5 PCT100": how many, the largest and the mean
# |A - B|, and the percentages within 5 us and within 100 us.
agreement() {
	awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > max) max = d; s += d; n++
			if (d <= 5) close5++; if (d <= 100) close100++ }
		END { if (!n) n = 1; printf "%d %.3f %.3f %.1f %.1f\n", n, max, s / n, 100 * close5 / n, 100 * close100 / n }' "$1"
}

# rpm_records MODE SUPPLIERS REQUEST < SPEC > RECORDS: hand-made pmtrace
# records of mode MODE (meta suppliers, request); SPEC lines, times in us:
#   cb DEVICE resume|suspend|idle START END [RET]
#   req DEVICE REQUEST queued|run TS
rpm_records() {
	awk -v mode="$1" -v sup="$2" -v req="$3" '
	BEGIN { printf "{\"type\":\"begin\",\"format\":\"pmtrace-records-3\",\"meta\":{\"scenario\":\"chain-%s\",\"devices\":\"%d\",\"links\":\"%s\",\"mode\":\"%s\",\"cpus\":\"2\",\"clock\":\"virtual\",\"suppliers\":\"%s\",\"request\":\"%s\"}}\n", sup, sup + 1, sup, mode, sup, req }
	$1 == "cb" { printf "{\"type\":\"rpm_callback\",\"device\":\"%s\",\"callback\":\"runtime_%s\",\"function\":\"pmsynth_rpm\",\"forced\":0,\"start\":%d,\"end\":%d,\"ret\":%d,\"cpu\":0}\n", $2, $3, $4 * 1000, $5 * 1000, $6 + 0; n++ }
	$1 == "req" { printf "{\"type\":\"rpm_request\",\"device\":\"%s\",\"request\":\"%s\",\"what\":\"%s\",\"ts\":%d}\n", $2, $3, $4, $5 * 1000; n++ }
	END { printf "{\"type\":\"end\",\"records\":%d,\"dropped\":0}\n", n }'
}

# tool_refuses DIR TOOL DESCRIPTION MESSAGE-ERE ARGS...: a check that TOOL
# ARGS exits non-zero, prints nothing on stdout and says MESSAGE-ERE on
# stderr (DIR/out, DIR/err keep both)
tool_refuses() {
	_t_dir=$1 _t_tool=$2 _t_desc=$3 _t_msg=$4
	shift 4
	"$_t_tool" "$@" > "$_t_dir/out" 2> "$_t_dir/err"
	check "$_t_desc" sh -c '[ "$1" -ne 0 ] && [ ! -s "$2" ] && grep -Eq -e "$3" "$4"' \
		sh "$?" "$_t_dir/out" "$_t_msg" "$_t_dir/err"
}

# row FILE PHASE: PHASE's row of critpath's first table (times and
# bounds), fields one space apart; wrow: of its second (CPU work, workers,
# the async critical path)
row() { awk -v p="$2" '/^$/ { exit } $1 == p { $1 = $1; print }' "$1"; }
wrow() { awk -v p="$2" '$1 == "work" { on = 1 } on && $1 == p { $1 = $1; print }' "$1"; }
