#!/bin/sh
# bench/run-bench.sh refuses bad settings before it boots anything: the
# cause named, exit non-zero, no results directory made.
. "$(dirname "$0")/../lib.sh"
tap_plan 20
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# refused DESCRIPTION MESSAGE VAR=VALUE...: run-bench with those settings
refused() {
	_r_desc=$1 _r_msg=$2
	shift 2
	env "$@" "$TOP/bench/run-bench.sh" "$w/results" > "$w/out" 2>&1
	ok $((! $?)) "$_r_desc: refused"
	if grep -qF -- "$_r_msg" "$w/out" && [ ! -e "$w/results" ]; then
		ok 0 "$_r_desc: says '$_r_msg', makes nothing"
	else
		sed 's/^/# /' "$w/out"
		ok 1 "$_r_desc: says '$_r_msg', makes nothing"
	fi
}
refused "an unknown scenario" "unknown scenario 'dag-7' (bench/scenarios: chain-100 " SCENARIOS="dag-100 dag-7"
refused "an unknown scenario given as SCENARIO (one)" "unknown scenario 'dag-7'" SCENARIO=dag-7
refused "SCENARIO and SCENARIOS both" "SCENARIO and SCENARIOS both set" SCENARIO=dag-100 SCENARIOS=dag-100
refused "a scenario file that does not exist" "scenario file $w/none.txt not found" SCENARIOS="$w/none.txt"
cp "$TOP/bench/scenarios/dag-100.txt" "$w/dag-100.txt"
refused "two scenarios of one name" "two scenarios named dag-100" SCENARIOS="dag-100 $w/dag-100.txt"
refused "REPS 0" "REPS must be a positive number, got '0'" REPS=0
refused "REPS not a number" "REPS must be a positive number, got 'three'" REPS=three
refused "JOBS not a number" "JOBS must be a positive number, got '-1'" JOBS=-1
refused "an empty scenario list" "SCENARIOS is empty" SCENARIOS=" "
refused "SCENARIOS= set to nothing (not the default eight)" "SCENARIOS is empty" SCENARIOS=
tap_done
