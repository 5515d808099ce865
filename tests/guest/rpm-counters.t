#!/bin/sh
# run-tests: parallel
# Runtime PM's usage and child counters, ignore_children and idle
# notifications, checked in power/runtime_* and in the rpm events.
. "$(dirname "$0")/../lib.sh"
tap_plan 45
w=$BUILD/test-guest/rpm-counters
pmsynth_guest rpm-counters "$w"
ok $GUEST_STATUS "rpm-counters runs to the end"
guest_checks "$w"
tap_done
