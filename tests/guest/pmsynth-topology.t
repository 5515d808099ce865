#!/bin/sh
# run-tests: parallel
# Devices unregistered and pm_links deleted in the middle of each
# system-sleep phase, on both async schedulers: no hang, every remaining
# device ends active, 0 oracle violations; with the series' scheduling an
# unregistered device releases the devices waiting for it at once, and a
# count lost with a deleted link is recovered when the phase stalls.
. "$(dirname "$0")/../lib.sh"
tap_plan $((1 + 6 * 6 + 6 * 5 + 6 * 5 + 6 * 4))
w=$BUILD/test-guest/pmsynth-topology
pmsynth_guest pmsynth-topology "$w"
ok $GUEST_STATUS "pmsynth-topology runs to the end"
guest_checks "$w"
tap_done
