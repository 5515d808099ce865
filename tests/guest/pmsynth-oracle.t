#!/bin/sh
# run-tests: parallel
# The ordering oracle reports the violations its self-test provokes (sync
# and async), and none when the dependency is a real pm_link.
. "$(dirname "$0")/../lib.sh"
tap_plan 12
w=$BUILD/test-guest/pmsynth-selftest
pmsynth_guest pmsynth-selftest "$w"
ok $GUEST_STATUS "pmsynth-selftest runs to the end"
guest_checks "$w"
tap_done
