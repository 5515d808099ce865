#!/bin/sh
# run-tests: parallel
# Runtime PM: a resume arriving during a suspend, deferred (asynchronous) or
# waiting (synchronous), then resuming; checked in the rpm events.
. "$(dirname "$0")/../lib.sh"
tap_plan 17
w=$BUILD/test-guest/rpm-deferred
pmsynth_guest rpm-deferred "$w"
ok $GUEST_STATUS "rpm-deferred runs to the end"
guest_checks "$w"
tap_done
