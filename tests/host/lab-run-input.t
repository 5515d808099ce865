#!/bin/sh
# make guest / run / shell and your own kernel refuse what cannot work
# before anything boots: one line naming the cause, exit non-zero, no
# results directory made.
. "$(dirname "$0")/../lib.sh"
tap_plan 32
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
lr=$TOP/lab/lab-run.sh
# the Makefile's files, as make guest/run/shell pass them
files="$TOP/lab/pmsynth/pmsynth.ko"

# refused DESCRIPTION MESSAGE COMMAND...: COMMAND fails, says MESSAGE
# (a line of its output), and leaves $w/results unmade
refused() {
	_r_desc=$1 _r_msg=$2
	shift 2
	"$@" > "$w/out" 2>&1
	ok $((! $?)) "$_r_desc: refused"
	if grep -qF -- "$_r_msg" "$w/out" && [ ! -e "$w/results" ]; then
		ok 0 "$_r_desc: says '$_r_msg', makes nothing"
	else
		sed 's/^/# /' "$w/out"
		ok 1 "$_r_desc: says '$_r_msg', makes nothing"
	fi
}
lab() { env LAB_FILES="$files" "$@"; }

refused "make run with neither CMD nor SCRIPT" "make run: set CMD='command line' or SCRIPT=file" \
	lab "$lr" run '' "$w/results"
refused "make run with both" "make run: CMD and SCRIPT both set; give one" \
	lab CMD=true SCRIPT=/etc/hostname "$lr" run '' "$w/results"
refused "a SCRIPT that is not a file" "SCRIPT $w/no.sh is not a readable file" \
	lab SCRIPT="$w/no.sh" "$lr" run '' "$w/results"
refused "an unknown SCENARIO" "unknown scenario 'dag-7' (bench/scenarios: chain-100 " \
	lab SCENARIO=dag-7 CMD=true "$lr" run '' "$w/results"
refused "an empty SCENARIO" "SCENARIO is empty" lab SCENARIO= CMD=true "$lr" run '' "$w/results"
refused "a scenario the host's reader (pmsynth's parser) refuses" \
	"scenario $TOP/tests/data/bad-scenarios/cycle.txt refused: " \
	lab SCENARIO="$TOP/tests/data/bad-scenarios/cycle.txt" CMD=true "$lr" run '' "$w/results"
refused "make guest without JOB" "make guest: set JOB=<name> (make list shows the guest jobs)" \
	lab "$lr" job '' "$w/results"
refused "a job missing a required argument" "JOB=profile takes ARGS=\"SCENARIO PM_ASYNC\" (got \"dag-100.txt\"" \
	lab "$lr" job profile "$w/results"
# the list starts with the first job of lab/jobs, whatever it is
first=$(cd "$TOP/lab/jobs" && ls *.sh | head -1 | sed 's/\.sh$//')
refused "an unknown job: the real ones, fixtures apart" "unknown guest job 'nojob' (lab/jobs: $first " \
	lab "$lr" job nojob "$w/results"
check "... and the fixtures named apart" contains "$w/out" "; test fixtures: exit-code hang; make list describes them)"
refused "a job that needs a scenario with SCENARIO=none" "JOB=tracepoints needs a scenario (SCENARIO=none given)" \
	lab SCENARIO=none "$lr" job tracepoints "$w/results"

# your own kernel: its build directory checked before anything is built
ok_cfg=$TOP/build/obj/.config
mkdir -p "$w/k1" "$w/k2" "$w/k3"
refused "KSRC without .config" "KSRC $w/k1 has no .config: not a configured kernel build directory" \
	"$TOP/lab/own-kernel.sh" "$w/k1" "$w/results"
grep -v '^CONFIG_PM_SLEEP_DEBUG=\|^CONFIG_DEBUG_INFO_BTF=' "$ok_cfg" > "$w/k2/.config"
: > "$w/k2/Makefile"
refused "a .config without PM_SLEEP_DEBUG and BTF" "lacks what the lab needs (lab/kernel-required.config):" \
	"$TOP/lab/own-kernel.sh" "$w/k2" "$w/results"
check "... naming each option and what needs it" sh -c \
	"grep -q 'CONFIG_PM_SLEEP_DEBUG=y (not set): /sys/power/pm_test' '$w/out' && grep -q 'CONFIG_DEBUG_INFO_BTF=y (not set): BTF' '$w/out'"
cp "$ok_cfg" "$w/k3/.config"
: > "$w/k3/Makefile"
refused "a configured tree never built" "KSRC $w/k3 has no Module.symvers: build the kernel there first" \
	"$TOP/lab/own-kernel.sh" "$w/k3" "$w/results"
refused "make guest KERNEL= a file that is not there" "own-kernel: KERNEL=$w/none/bzImage is not a file" \
	make -s -C "$TOP" guest JOB=smoke KERNEL="$w/none/bzImage"
refused "make bench with your KERNEL" "make bench works on the lab kernel (the series); KERNEL=$w/bzImage is for make guest, run and shell" \
	make -s -C "$TOP" bench KERNEL="$w/bzImage"
tap_done
