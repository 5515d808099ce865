#!/bin/sh
# The ordering oracle reports the violation its self-test provokes, and
# none when the dependency is a real pm_link.
. "$(dirname "$0")/../lib.sh"
tap_plan 6
w=$BUILD/test-guest/pmsynth-selftest
pmsynth_guest pmsynth-selftest "$w"
ok $GUEST_STATUS "pmsynth-selftest runs to the end"
guest_checks "$w"
tap_done
