#!/bin/sh
# run-tests: parallel
# pmtrace and the analysis on Linux 6.1, an older tree (Debian's
# linux-source-6.1; make kernel SERIES=none LINUX=6.1: build/obj-6.1-stock,
# the lab configuration): CO-RE across versions: pmtrace, built against the lab
# kernel's BTF, attaches what the kernel has, says once what it lacks;
# the records mark it absent; critpath gives T(sync), T(async), graph
# bound and efficiency of the guest's own devices, n/a for blocked waits
# and queue delay; the plots are drawn; the bpftrace tools that need the
# series' events fail naming them, slowest-devices.bt runs.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-machine.sh"
tap_plan 20
# make check does not build 6.1 yet: its guest hangs under TCG right after
# "Kernel command line" (issue 18's note); built by hand, this runs
stock_or_skip 6.1 20 "make kernel SERIES=none LINUX=6.1; make check leaves it out: its guest hangs at boot under TCG"
machine_guest "$BUILD/obj-6.1-stock/arch/x86/boot/bzImage" "$BUILD/test-guest/stock-6.1"
machine_checks "$BUILD/test-guest/stock-6.1" stock
check "the guest ran 6.1" grep -q '^6\.1\.' "$BUILD/test-guest/stock-6.1/kernel.txt"
tap_done
