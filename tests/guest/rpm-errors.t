#!/bin/sh
# run-tests: parallel
# Runtime PM callback errors: -EBUSY/-EAGAIN leave a device active, other
# errors block it until cleared; checked in the rpm events.
. "$(dirname "$0")/../lib.sh"
tap_plan 32
w=$BUILD/test-guest/rpm-errors
pmsynth_guest rpm-errors "$w"
ok $GUEST_STATUS "rpm-errors runs to the end"
guest_checks "$w"
tap_done
