#!/bin/sh
# run-tests: parallel
# Results written before and after a full suspend/resume cycle (mem +
# pm_test core: every phase incl. late and noirq) reach the host.
. "$(dirname "$0")/../lib.sh"
tap_plan 5
w=$BUILD/test-guest/survive
mkdir -p "$(dirname "$w")"
guest survive "$w"
ok $GUEST_STATUS "survive job exits 0"
check "file written before suspend arrives" contains "$w/before.txt" "written before suspend"
check "file written after resume arrives" contains "$w/after.txt" "written after resume"
check "the guest really entered deep suspend" contains "$w/pm-dmesg.txt" "PM: suspend entry (deep)"
check "and came back" contains "$w/pm-dmesg.txt" "PM: suspend exit"
tap_done
