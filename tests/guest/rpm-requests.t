#!/bin/sh
# run-tests: parallel
# Runtime PM requests: queued through pm_wq, suspend timers, autosuspend
# delay changes while a timer is pending, checked in the rpm events.
. "$(dirname "$0")/../lib.sh"
tap_plan 36
w=$BUILD/test-guest/rpm-requests
pmsynth_guest rpm-requests "$w"
ok $GUEST_STATUS "rpm-requests runs to the end"
guest_checks "$w"
tap_done
