#!/bin/sh
# run-tests: parallel
# A 500-device scenario with pm_links loads, every link shows in
# /sys/class/devlink, and a full transition (all phases) runs with 0
# oracle violations, sync and on both async schedulers (6.12's, the series').
. "$(dirname "$0")/../lib.sh"
tap_plan 16
w=$BUILD/test-guest/pmsynth-cycle
pmsynth_guest pmsynth-cycle "$w" bench/scenarios/dag-500.txt -- dag-500.txt
ok $GUEST_STATUS "pmsynth-cycle dag-500 runs to the end"
guest_checks "$w"
tap_done
