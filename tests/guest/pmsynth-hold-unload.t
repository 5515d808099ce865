#!/bin/sh
# run-tests: parallel
# Concurrent "hold" writes while pmsynth unloads and loads its population
# (tree-100, 20 rounds): no deadlock between an attribute write and the
# unload that waits for it, and the holds balance afterwards.
. "$(dirname "$0")/../lib.sh"
tap_plan 5
w=$BUILD/test-guest/pmsynth-hold-unload
TIMEOUT=300 pmsynth_guest pmsynth-hold-unload "$w" bench/scenarios/tree-100.txt -- tree-100.txt 20
ok $GUEST_STATUS "pmsynth-hold-unload runs to the end (no hung guest)"
guest_checks "$w"
tap_done
