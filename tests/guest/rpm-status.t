#!/bin/sh
# run-tests: parallel
# Runtime PM: pm_runtime_barrier(), disable/enable with requests pending,
# set_active/set_suspended's parent/child rules; checked in the rpm events.
. "$(dirname "$0")/../lib.sh"
tap_plan 39
w=$BUILD/test-guest/rpm-status
pmsynth_guest rpm-status "$w"
ok $GUEST_STATUS "rpm-status runs to the end"
guest_checks "$w"
tap_done
