#!/bin/sh
# run-tests: parallel
# Each bad scenario is refused with its line and cause; nothing is created;
# the loaded population stays.  The scenarios are the files of
# tests/data/bad-scenarios, which the host reader refuses with the same
# messages (tests/host/scenario-input.t).  A fault the PM core would retry
# forever (-EAGAIN in prepare, always) is refused, in a scenario and as a
# control command; once is accepted and the transition completes.
. "$(dirname "$0")/../lib.sh"
# four checks per bad-scenario file, 25 for the control commands and faults
nbad=$(wc -l < "$TOP/tests/data/bad-scenarios/expected")
tap_plan $((4 * nbad + 25))
w=$BUILD/test-guest/pmsynth-badinput
pmsynth_guest pmsynth-badinput "$w" tests/data/bad-scenarios
ok $GUEST_STATUS "pmsynth-badinput runs to the end"
guest_checks "$w"
tap_done
