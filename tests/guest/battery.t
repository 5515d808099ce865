#!/bin/sh
# run-tests: parallel
# The ACPI battery of seed 006 in the guest (lab/acpi/battery.asl as an
# SSDT): 6.12's battery driver binds and reads it; with the series' patch it
# opts in to async suspend/resume, so pmtrace's records show it handled by
# an async worker (queued, then run) in suspend and resume, and
# synchronously (never queued) once its power/async says disabled, as
# without the patch; each resume evaluates _STA (6.12 re-reads _BIF and
# _BST later, in a PM notifier), whose modelled EC read, AML Sleep (1), is
# a callback of at least one 4 ms jiffy.  A file that is not a
# compiled table given as ACPI_TABLES is refused before booting.
. "$(dirname "$0")/../lib.sh"
tap_plan 17
w=$BUILD/test-guest/battery
mkdir -p "$BUILD/test-guest"
EXTRA="$TOP/lab/pmsynth/pmsynth.ko $BUILD/bpf/pmtrace" guest battery "$w" 1 0 3
ok $GUEST_STATUS "battery runs to the end (1 transition per mode, 0 and 3 sync devices)"
guest_checks "$w"
check "the guest had the SSDT (run.txt names it: the job's acpi-tables line)" \
	grep -q '^acpi_tables=.*/build/acpi/battery.aml' "$w/run.txt"

# Two devices are named PNP0C0A:00: the ACPI device the battery driver
# binds (resume callback only) and the platform device ACPI enumeration
# makes for it (no driver: the platform bus's callbacks, never async).
# bat FILE PHASE: "async queued callback_ns outcome" of the PHASE record of
# the battery's ACPI device: in resume the one with the longer callback
# (the other's is the platform bus's no-op), in suspend the one without a
# callback.  twin FILE PHASE: the other one's "async queued".
pick() {
	jq -c --arg p "$2" 'select(.type == "device" and .device == "PNP0C0A:00" and .phase == $p)' "$1" |
		jq -rs "sort_by(.callback_ns) | $3 | \"\\(.async) \\(if .queued > 0 then 1 else 0 end) \\(.callback_ns) \\(.outcome)\""
}
bat() {
	case $2 in resume) pick "$1" resume '.[-1]';; *) pick "$1" "$2" 'map(select(.outcome == "no_callback"))[0]';; esac
}
twin() {
	case $2 in resume) pick "$1" resume '.[0]';; *) pick "$1" "$2" 'map(select(.outcome != "no_callback"))[0]';; esac
}
check "two PNP0C0A:00 devices in every phase record set (the ACPI device and its platform twin)" \
	[ "$(jq -c 'select(.type == "device" and .device == "PNP0C0A:00" and .phase == "resume")' \
		"$w/battery-0-async-1.jsonl" | wc -l)" -eq 2 ]
for n in 0 3; do
	check "$n sync devices, patch (power/async enabled): resume in an async worker, queued first; the twin sync" \
		[ "$(bat "$w/battery-$n-async-1.jsonl" resume | cut -d' ' -f1,2) $(twin "$w/battery-$n-async-1.jsonl" resume | cut -d' ' -f1,2)" = "1 1 0 0" ]
	check "$n sync devices, power/async disabled (6.12): resume on the phase's thread, never queued" \
		[ "$(bat "$w/battery-$n-sync-1.jsonl" resume | cut -d' ' -f1,2)" = "0 0" ]
done
check "suspend too (no callback there): async with the patch, sync without" \
	[ "$(bat "$w/battery-0-async-1.jsonl" suspend | cut -d' ' -f1,4) $(bat "$w/battery-0-sync-1.jsonl" suspend | cut -d' ' -f1,4)" = "1 no_callback 0 no_callback" ]
check "each resume evaluated _STA: its callbacks took at least 4 ms (Sleep (1): a jiffy), the twin's under 1 ms" \
	sh -c "for f in '$w'/battery-*-*-1.jsonl; do
			jq -c 'select(.type == \"device\" and .device == \"PNP0C0A:00\" and .phase == \"resume\")' \"\$f\" |
				jq -rs 'sort_by(.callback_ns) | \"\\(.[0].callback_ns) \\(.[-1].callback_ns)\"'
		done | awk '\$1 < 1000000 && \$2 >= 4000000 { k++ } END { exit !(k == 4 && NR == 4) }'"
check "the kernel timed every device phase of each transition (kernel-*.txt)" \
	sh -c "[ \$(cat '$w'/kernel-*-*-1.txt | grep -c '^resume ') -eq 4 ]"

ACPI_TABLES=$TOP/README.md guest battery "$w-none" 1 0 2>/dev/null
check "ACPI_TABLES naming a non-table: refused before booting, by name" \
	sh -c "[ $GUEST_STATUS -ne 0 ] && grep -q 'README.md is not a compiled SSDT' '$w-none.log' && [ ! -d '$w-none' ]"
tap_done
