#!/bin/sh
# bench/phase-times under hostile input: every bad trace is refused with the
# file, the line and the cause (and nothing on stdout); a table overflows
# into an error naming its limit; valid oddities are read right.  Built
# under ASan/UBSan: any memory error aborts the tool and fails its check.
. "$(dirname "$0")/../lib.sh"
tap_plan 29
d=$TOP/tests/data
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"	# run-tests.sh's log_path kept
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/phase-times" >/dev/null
pt=$w/phase-times

# ev PID TS EVENT PAYLOAD: one tracefs line
ev() { printf '              sh-%s      [000] .....   %s: %s: %s\n' "$@"; }
# phase TS NAME begin|end
phase() { ev 70 "$1" suspend_resume "$2 $3"; }
cb_start() { ev "$1" "$2" device_pm_callback_start "drv $3, parent: none, bus[suspend]"; }
cb_end() { ev "$1" "$2" device_pm_callback_end "drv $3, err=0"; }

# refused DESCRIPTION MESSAGE ARG...: phase-times ARG... fails, prints
# MESSAGE on stderr and nothing on stdout.
refused() {
	_desc=$1 _msg=$2
	shift 2
	"$pt" "$@" > "$w/out" 2> "$w/err"
	_rc=$?
	if [ $_rc -ne 0 ] && [ ! -s "$w/out" ] && contains "$w/err" "$_msg"; then
		ok 0 "$_desc"
	else
		echo "# exit $_rc, stdout $(wc -c < "$w/out") bytes" >&2
		ok 1 "$_desc"
	fi
}

# --- no phase: an empty table is not a mean of 0 ---
refused "a set without a file is refused" "'x=,': expected LABEL=FILE[,FILE...]" "x=,"
ev 70 1.000000 sched_switch "prev_comm=sh" > "$w/none.trace"
refused "a trace without a phase is refused" \
	"none.trace: no phase found (no power:suspend_resume begin/end pair)" "x=$w/none.trace"
phase 1.000000 "foo[1]" middle > "$w/middle.trace"
refused "a suspend_resume event neither begin nor end is refused" \
	"middle.trace:1: suspend_resume: expected 'begin' or 'end' after ACTION[N], got 'foo[1] middle'" \
	"x=$w/middle.trace"

# --- phases out of order ---
{ phase 100.010000 "dpm_suspend[2]" begin; phase 100.002000 "dpm_suspend[2]" end; } > "$w/back.trace"
refused "a phase ending before it begins is refused" \
	"back.trace:2: dpm_suspend[2] ends at 100.002000 before it begins at 100.010000 (line 1)" \
	"x=$w/back.trace"
{ phase 100.000000 "dpm_suspend[2]" begin; phase 100.002000 "dpm_suspend[2]" begin
  phase 100.004000 "dpm_suspend[2]" end; } > "$w/twice.trace"
refused "a second begin of an open phase is refused" \
	"twice.trace:2: dpm_suspend[2] begins again at 100.002000 while open since 100.000000 (line 1)" \
	"x=$w/twice.trace"
{ phase 100.000000 "dpm_suspend[2]" begin; cb_start 20 100.003000 dev0
  cb_end 20 100.001000 dev0; phase 100.004000 "dpm_suspend[2]" end; } > "$w/cbback.trace"
refused "a device callback ending before it starts is refused" \
	"cbback.trace:3: dev0: callback ends at 100.001000 before it starts at 100.003000" \
	"x=$w/cbback.trace"
{ phase 100.000000 "dpm_suspend[2]" begin; cb_start 20 100.001000 dev0
  cb_start 20 100.002000 dev0; cb_end 20 100.003000 dev0
  phase 100.004000 "dpm_suspend[2]" end; } > "$w/cbtwice.trace"
refused "a device callback starting twice in one thread is refused" \
	"cbtwice.trace:3: dev0: callback starts again at 100.002000 in pid 20 while open since 100.001000" \
	"x=$w/cbtwice.trace"

# --- malformed fields ---
for ts in nan inf 1e3 0x10 -1.5 12345678901234567.5; do
	{ phase 100.000000 "dpm_suspend[2]" begin; phase "$ts" "dpm_suspend[2]" end; } > "$w/ts.trace"
	refused "timestamp '$ts' is refused" \
		"ts.trace:2: timestamp: expected SECONDS.MICROSECONDS of at most 16 digits, got '$ts'" \
		"x=$w/ts.trace"
done
{ phase 100.000000 "dpm_suspend[2]" begin
  echo "              sh      [000] .....   100.001000: suspend_resume: dpm_suspend[2] end"; } \
	> "$w/nopid.trace"
refused "a line without TASK-PID is refused" \
	"nopid.trace:2: pid: no TASK-PID of at most 2147483647 before the CPU field" "x=$w/nopid.trace"
{ cat "$d/phases-a.trace"; echo "this is not a trace line"; } > "$w/junk.trace"
refused "a line that is not a trace event is refused" \
	"junk.trace:17: not a trace event line (no ' [CPU] ' field): 'this is not a trace line'" \
	"x=$w/junk.trace"
{ head -n 8 "$d/phases-a.trace"; echo "CPU:1 [LOST 12 EVENTS]"; tail -n +9 "$d/phases-a.trace"; } \
	> "$w/lost.trace"
refused "a trace that lost events is refused" \
	"lost.trace:9: the trace lost events (ring buffer overrun): its times would be wrong" \
	"x=$w/lost.trace"
printf '\177ELF\002\001\001\000\000\000\n' > "$w/elf.trace"
refused "a binary file is refused" "elf.trace:1: NUL byte at column 8: not a text trace" \
	"x=$w/elf.trace"
{ phase 100.000000 "dpm_suspend[2]" begin; ev 20 100.001000 device_pm_callback_start "drv dev0"
  phase 100.004000 "dpm_suspend[2]" end; } > "$w/cbbad.trace"
refused "a callback payload without ', parent: ' is refused" \
	"cbbad.trace:2: device_pm_callback_start: expected 'DRIVER DEVICE, parent: ...', got 'drv dev0'" \
	"x=$w/cbbad.trace"

# --- the files of a set must repeat one transition ---
{ phase 100.000000 "dpm_suspend[2]" begin; phase 100.001000 "dpm_suspend[2]" end
  phase 100.002000 "dpm_suspend[2]" begin; phase 100.003000 "dpm_suspend[2]" end; } > "$w/two.trace"
{ phase 100.000000 "dpm_resume[16]" begin; phase 100.001000 "dpm_resume[16]" end
  phase 100.002000 "dpm_resume[16]" begin; phase 100.003000 "dpm_resume[16]" end; } > "$w/other.trace"
refused "files of a set with different phases are refused" \
	"other.trace: dpm_suspend[2] ends 0 times here but 2 times in the first file of its set" \
	"x=$w/two.trace,$w/other.trace"

# --- names and tables at their limits ---
n95=$(printf '%095d' 0 | tr 0 n)
{ phase 100.000000 "dpm_suspend[2]" begin; cb_start 20 100.001000 "$n95"
  cb_end 20 100.003000 "$n95"; phase 100.004000 "dpm_suspend[2]" end; } > "$w/dev95.trace"
"$pt" "x=$w/dev95.trace" > "$w/out" 2>&1
check "a device name of 95 characters is read whole" \
	sh -c "grep -E '^  dpm_suspend\[2\] +$n95 +2\.000$' '$w/out' >/dev/null"
sed "s/$n95/${n95}n/" "$w/dev95.trace" > "$w/dev96.trace"
refused "a device name of 96 characters is refused, naming the limit" \
	"dev96.trace:2: device_pm_callback_start: device name of 96 characters ('nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...'): longer than the limit of 95 (PP_NAME_LEN)" \
	"x=$w/dev96.trace"
phase 100.000000 "${n95}[2]" begin > "$w/phase96.trace"
refused "a phase name beyond 95 characters is refused, naming the limit" \
	"phase96.trace:1: suspend_resume: phase name 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...' longer than the limit of 95 characters (PP_NAME_LEN)" \
	"x=$w/phase96.trace"
awk 'BEGIN { for (i = 0; i < 65; i++) {
	printf "  sh-70 [000] ..... 1.%06d: suspend_resume: p%d[0] begin\n", 2 * i, i
	printf "  sh-70 [000] ..... 1.%06d: suspend_resume: p%d[0] end\n", 2 * i + 1, i } }' \
	> "$w/phases65.trace"
refused "a 65th distinct phase is refused, naming the limit" \
	"phases65.trace:129: p64[0]: more than 64 distinct phases (PP_MAX_PHASES)" "x=$w/phases65.trace"
awk 'BEGIN { print "  sh-70 [000] ..... 1.000000: suspend_resume: dpm_suspend[2] begin"
	for (i = 0; i <= 4096; i++)
		printf "  kworker-20 [000] ..... 1.000001: device_pm_callback_start: drv d%d, parent: none, x[suspend]\n", i
	print "  sh-70 [000] ..... 1.000003: suspend_resume: dpm_suspend[2] end" }' > "$w/open4097.trace"
refused "a 4097th open device callback is refused, naming the limit" \
	"open4097.trace:4098: more than 4096 device callbacks open at once (PP_MAX_OPEN)" \
	"x=$w/open4097.trace"
awk 'BEGIN { print "  sh-70 [000] ..... 1.000000: suspend_resume: dpm_suspend[2] begin"
	for (i = 0; i <= 8192; i++) {
		printf "  kworker-20 [000] ..... 1.000001: device_pm_callback_start: drv d%d, parent: none, x[suspend]\n", i
		printf "  kworker-20 [000] ..... 1.000002: device_pm_callback_end: drv d%d, err=0\n", i }
	print "  sh-70 [000] ..... 1.000003: suspend_resume: dpm_suspend[2] end" }' > "$w/devs8193.trace"
refused "a 8193rd (device, phase) pair is refused, naming the limit" \
	"devs8193.trace:16387: d8192: more than 8192 (device, phase) pairs (PP_MAX_DEVS)" \
	"x=$w/devs8193.trace"
set --
for i in 1 2 3 4 5 6 7 8 9; do set -- "$@" "s$i=$d/phases-a.trace"; done
refused "a 9th set is refused, naming the limit" "more than 8 sets (MAX_SETS)" "$@"
refused "--top beyond an int is refused" "--top: expected 0..100, got '4294967297'" \
	--top 4294967297 "x=$d/phases-a.trace"

# --- valid oddities ---
{ phase 100.000000 "dpm_suspend[2]" begin; cb_start 20 100.001000 "soc:qcom,rpm"
  cb_end 20 100.004000 "soc:qcom,rpm"; phase 100.005000 "dpm_suspend[2]" end; } > "$w/comma.trace"
"$pt" "x=$w/comma.trace" > "$w/out" 2>&1
check "a device name with a comma is read whole (soc:qcom,rpm 3 ms)" \
	sh -c "grep -E '^  dpm_suspend\[2\] +soc:qcom,rpm +3\.000$' '$w/out' >/dev/null"
{ cat "$d/phases-b.trace"; phase 100.030000 "dpm_extra[2]" begin; phase 100.031000 "dpm_extra[2]" end; } \
	> "$w/extra.trace"
"$pt" "a=$d/phases-a.trace" "b=$w/extra.trace" > "$w/out" 2>&1
check "a phase only a later set has gets its row and counts in the sum" \
	sh -c "grep -E '^dpm_extra\[2\] +- +1\.000$' '$w/out' >/dev/null &&
		grep -E '^all dpm_\* phases +14\.000 +9\.000 +1\.56x$' '$w/out' >/dev/null"
tap_done
