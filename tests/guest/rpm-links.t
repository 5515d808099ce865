#!/bin/sh
# run-tests: parallel
# Runtime PM through pm_links: suppliers resume first and suspend after the
# last consumer, the supplier's usage counts its active consumers.
. "$(dirname "$0")/../lib.sh"
tap_plan 18
w=$BUILD/test-guest/rpm-links
pmsynth_guest rpm-links "$w"
ok $GUEST_STATUS "rpm-links runs to the end"
guest_checks "$w"
tap_done
