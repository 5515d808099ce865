#!/bin/sh
# bench/sweep.sh and bench/sweep-point.sh refuse bad settings before they
# boot anything: the cause named, exit non-zero, nothing made.
. "$(dirname "$0")/../lib.sh"
tap_plan 14
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# refused DESCRIPTION MESSAGE COMMAND...: COMMAND fails, says MESSAGE, makes no $w/out
refused() {
	_d=$1 _m=$2
	shift 2
	"$@" > "$w/log" 2>&1
	ok $((! $?)) "$_d: refused"
	if grep -qF -- "$_m" "$w/log" && [ ! -e "$w/out" ]; then
		ok 0 "$_d: says '$_m', makes nothing"
	else
		sed 's/^/# /' "$w/log"
		ok 1 "$_d: says '$_m', makes nothing"
	fi
}
sw=$TOP/bench/sweep.sh
refused "a shape scengen does not sweep" "SWEEP_SHAPES: 'star' is not tree or dag" \
	env SWEEP_SHAPES="tree star" "$sw" "$w/out"
refused "a device count past pmsynth's 4096" "SWEEP_DEVICES, SWEEP_AT, SWEEP_SPIN: '5000' is not a device count 1..4096" \
	env SWEEP_DEVICES="100 5000" "$sw" "$w/out"
refused "a vCPU count of 0" "SWEEP_CPUS: '0' is not a vCPU count 1..16" env SWEEP_CPUS="0 2" "$sw" "$w/out"
refused "JOBS not a number" "JOBS must be a positive number, got 'two'" env JOBS=two "$sw" "$w/out"
sp=$TOP/bench/sweep-point.sh
refused "a point of an unknown shape" "SHAPE must be tree, dag or spin, got 'ring'" "$sp" "$w/out" ring 10 2
refused "a point of 0 devices" "DEVICES must be a number 1..4096, got '0'" "$sp" "$w/out" tree 0 2
refused "a point of 17 vCPUs" "CPUS must be a number 1..16, got '17'" "$sp" "$w/out" tree 10 17
tap_done
