#!/bin/sh
# Each bad scenario is refused with its line and cause; nothing is created;
# the loaded population stays.
. "$(dirname "$0")/../lib.sh"
tap_plan 65
w=$BUILD/test-guest/pmsynth-badinput
pmsynth_guest pmsynth-badinput "$w"
ok $GUEST_STATUS "pmsynth-badinput runs to the end"
guest_checks "$w"
tap_done
