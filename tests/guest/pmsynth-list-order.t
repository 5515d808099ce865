#!/bin/sh
# run-tests: parallel
# A dependency known only to dpm_list order (no device link): what sync,
# 6.12's and the series' async scheduling each do with it (see the job's
# header and Documentation/power/suspend-async.rst), and that a device link
# fixes it on all three.
. "$(dirname "$0")/../lib.sh"
tap_plan 11
w=$BUILD/test-guest/pmsynth-list-order
pmsynth_guest pmsynth-list-order "$w"
ok $GUEST_STATUS "pmsynth-list-order runs to the end"
guest_checks "$w"
tap_done
