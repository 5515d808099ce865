#!/bin/sh
# run-tests: parallel
# A hung guest is killed at its timeout, QEMU included; no results are
# presented.
. "$(dirname "$0")/../lib.sh"
tap_plan 6
w=$BUILD/test-guest/hang
mkdir -p "$(dirname "$w")"
to=${HANG_TIMEOUT:-45}
start=$(date +%s)
TIMEOUT=$to guest hang "$w"
took=$(($(date +%s) - start))
check "a hung guest fails the run" [ "$GUEST_STATUS" -ne 0 ]
check "the message says it timed out and was killed" contains "$w.log" "guest timed out after ${to}s and was killed"
check "the run ended at its timeout, not later (${took}s for ${to}s)" [ "$took" -lt $((to + 20)) ]
check "no results directory is presented" test ! -e "$w"
# QEMU itself is gone, not only the shell that started it (a leaked idle
# guest spins a host core through virtual time for as long as it lives)
sleep 2
no_qemu_left() { ! pgrep -f "file:$(realpath "$(dirname "$w")")/hang.tmp/console.log" > /dev/null; }
check "no QEMU of the hung guest is left running" no_qemu_left
check "the console log is kept for diagnosis" contains "$w.failed/console.log" "job hang starting"
tap_done
