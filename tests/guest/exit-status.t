#!/bin/sh
# run-tests: parallel
# A guest job's exit status is the host command's exit status.
. "$(dirname "$0")/../lib.sh"
tap_plan 4
w=$BUILD/test-guest/exit-code
mkdir -p "$(dirname "$w")"
guest exit-code "$w" 7
check "job exit 7 reaches the host as 7" [ "$GUEST_STATUS" -eq 7 ]
check "its results still reach the host" contains "$w/exit-code.txt" "exiting with 7"
check "the status file says 7" contains "$w/status" "7"
check "the host prints the exit" contains "$w.log" "exit-code: exit 7"
tap_done
