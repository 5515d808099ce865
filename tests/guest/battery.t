#!/bin/sh
# The ACPI battery of seed 006 in the guest (lab/acpi/battery.asl as an
# SSDT): 6.12's battery driver binds and reads it; with the series' patch it
# opts in to async suspend/resume, so pmtrace's records show it handled by
# an async worker (queued, then run) in suspend and resume, and
# synchronously (never queued) once its power/async says disabled, as
# without the patch; each resume re-reads the battery (_BIF and _BST, each
# sleeping 10 ms: a callback of at least 20 ms).  A file that is not a
# compiled table given as ACPI_TABLES is refused before booting.
. "$(dirname "$0")/../lib.sh"
tap_plan 16
w=$BUILD/test-guest/battery
mkdir -p "$BUILD/test-guest"
EXTRA="$TOP/lab/pmsynth/pmsynth.ko $BUILD/bpf/pmtrace" guest battery "$w" 1 0 3
ok $GUEST_STATUS "battery runs to the end (1 transition per mode, 0 and 3 sync devices)"
guest_checks "$w"
check "the guest had the SSDT (run.txt names it: the job's acpi-tables line)" \
	grep -q '^acpi_tables=.*/build/acpi/battery.aml' "$w/run.txt"

# bat FILE PHASE: "async queued callback_ns" of the battery's PHASE record
bat() {
	jq -r --arg p "$2" 'select(.type == "device" and .device == "PNP0C0A:00" and .phase == $p) |
		"\(.async) \(if .queued > 0 then 1 else 0 end) \(.callback_ns)"' "$1"
}
for n in 0 3; do
	check "$n sync devices, patch (power/async enabled): resume in an async worker, queued first" \
		[ "$(bat "$w/battery-$n-async-1.jsonl" resume | cut -d' ' -f1,2)" = "1 1" ]
	check "$n sync devices, power/async disabled (6.12): resume on the phase's thread, never queued" \
		[ "$(bat "$w/battery-$n-sync-1.jsonl" resume | cut -d' ' -f1,2)" = "0 0" ]
done
check "suspend too: async with the patch, sync without" \
	[ "$(bat "$w/battery-0-async-1.jsonl" suspend | cut -d' ' -f1) $(bat "$w/battery-0-sync-1.jsonl" suspend | cut -d' ' -f1)" = "1 0" ]
check "each resume re-read the battery: callbacks of at least 20 ms (_BIF + _BST)" \
	sh -c "cat '$w'/battery-*-*-1.jsonl | jq -r 'select(.type == \"device\" and .device == \"PNP0C0A:00\" and .phase == \"resume\") | .callback_ns' |
		awk '\$1 >= 20000000 { k++ } END { exit !(k == 4 && NR == 4) }'"
check "the kernel timed every device phase of each transition (kernel-*.txt)" \
	sh -c "[ \$(cat '$w'/kernel-*-*-1.txt | grep -c '^resume ') -eq 4 ]"

ACPI_TABLES=$TOP/README.md guest battery "$w-none" 1 0 2>/dev/null
check "ACPI_TABLES naming a non-table: refused before booting, by name" \
	sh -c "[ $GUEST_STATUS -ne 0 ] && grep -q 'README.md is not a compiled SSDT' '$w-none.log' && [ ! -d '$w-none' ]"
tap_done
