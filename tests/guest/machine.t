#!/bin/sh
# run-tests: parallel
# "Measure your own machine" on the lab kernel (the series): the guest's
# own devices imported from sysfs, one sync and one async transition
# recorded by pmtrace, analysed by critpath against that graph (every
# PM-managed device recorded in every phase: same-named devices told
# apart by their parents) and drawn by figures.sh.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-machine.sh"
tap_plan 11
machine_guest "$BUILD/obj/arch/x86/boot/bzImage" "$BUILD/test-guest/machine"
machine_checks "$BUILD/test-guest/machine" series
tap_done
