#!/bin/sh
# Each bad scenario is refused with its line and cause; nothing is created;
# the loaded population stays.  A fault the PM core would retry forever
# (-EAGAIN in prepare, always) is refused, in a scenario and as a control
# command; once is accepted and the transition completes.
. "$(dirname "$0")/../lib.sh"
tap_plan 105
w=$BUILD/test-guest/pmsynth-badinput
pmsynth_guest pmsynth-badinput "$w"
ok $GUEST_STATUS "pmsynth-badinput runs to the end"
guest_checks "$w"
tap_done
