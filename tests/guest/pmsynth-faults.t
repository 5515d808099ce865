#!/bin/sh
# run-tests: parallel
# A failure injected in each system-sleep phase, async (the series'
# scheduling and 6.12's) and sync:
# suspend-side ones abort the transition, resume-side ones are reported;
# every device ends active (its own state checked by the oracle), 0
# violations, every device's runtime status, usage count and active
# children are back to what they were, and the next transition succeeds.
. "$(dirname "$0")/../lib.sh"
tap_plan 169
w=$BUILD/test-guest/pmsynth-faults
pmsynth_guest pmsynth-faults "$w" bench/scenarios/dag-100.txt -- dag-100.txt d50
ok $GUEST_STATUS "pmsynth-faults runs to the end"
guest_checks "$w"
tap_done
