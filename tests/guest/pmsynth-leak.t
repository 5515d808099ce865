#!/bin/sh
# run-tests: parallel
# insmod, load a scenario, rmmod, 100 times: every device and link goes
# away and slab usage returns to the start.
. "$(dirname "$0")/../lib.sh"
tap_plan 7
w=$BUILD/test-guest/pmsynth-leak
pmsynth_guest pmsynth-leak "$w" bench/scenarios/dag-100.txt -- dag-100.txt 100
ok $GUEST_STATUS "pmsynth-leak runs to the end"
guest_checks "$w"
check "slab figures recorded" contains "$w/slab.txt" "slab objects:"
tap_done
