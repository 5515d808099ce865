#!/bin/sh
# run-tests: parallel
# Runtime PM: a reference on a leaf resumes its parents and master first,
# dropping it autosuspends the subtree, counts stay balanced.
. "$(dirname "$0")/../lib.sh"
tap_plan 47
w=$BUILD/test-guest/pmsynth-runtime
pmsynth_guest pmsynth-runtime "$w"
ok $GUEST_STATUS "pmsynth-runtime runs to the end"
guest_checks "$w"
tap_done
