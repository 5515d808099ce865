#!/bin/sh
# run-tests: parallel
# The guest boots the lab kernel, has its tools, and reports its settings.
. "$(dirname "$0")/../lib.sh"
tap_plan 6
w=$BUILD/test-guest/smoke
mkdir -p "$(dirname "$w")"
guest smoke "$w"
ok $GUEST_STATUS "smoke job exits 0"
check "console log saved next to the results" contains "$w/console.log" "pmlab: job smoke starting"
check "run.txt records the clock" contains "$w/run.txt" "clock=virtual"
check "the accelerator used is printed" contains "$w.log" "accel tcg"
check "bpftrace runs in the guest" contains "$w/tools.txt" "bpftrace v"
check "guest runs the lab kernel" contains "$w/uname.txt" "$(cat "$BUILD/obj/include/config/kernel.release")"
tap_done
