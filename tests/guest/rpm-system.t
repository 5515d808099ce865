#!/bin/sh
# run-tests: parallel
# Runtime PM across a system transition: the core's usage reference, the
# phases run with runtime PM disabled, runtime-suspended and direct_complete devices.
. "$(dirname "$0")/../lib.sh"
tap_plan 18
w=$BUILD/test-guest/rpm-system
pmsynth_guest rpm-system "$w"
ok $GUEST_STATUS "rpm-system runs to the end"
guest_checks "$w"
tap_done
