#!/bin/sh
# run-tests: parallel
# Every shipped scenario, sync and on both async schedulers (6.12's,
# pm_async=2, and the series', pm_async=1): the transition succeeds, the
# pmsynth oracle sees no ordering violation, every device ends active, and
# the trace's own ordering check (critpath over pmtrace's records) finds
# none either.
. "$(dirname "$0")/../lib.sh"
scens=$(cd "$TOP/bench/scenarios" && ls *.txt)
n=$(echo $scens | wc -w)
tap_plan $((1 + n * 9 + n * 2))
w=$BUILD/test-guest/scenarios
files=$(for s in $scens; do echo "bench/scenarios/$s"; done)
# shellcheck disable=SC2086
TIMEOUT=${TIMEOUT:-1800} pmsynth_guest scenarios "$w" $files build/bpf/pmtrace -- $scens
ok $GUEST_STATUS "the scenarios job runs to the end"
guest_checks "$w"
for s in $scens; do
	name=${s%.txt}
	for m in legacy async; do
		if grep -q '^# pmsynth scenario imported by sysfs2scen' "$TOP/bench/scenarios/$s"; then
			skip "$name $m: critpath's trace ordering check" \
				"an import of the guest's own devices: its names are the guest's too, ambiguous in the trace (the oracle checked it)"
			continue
		fi
		"$TOP/build/tools/critpath" -s "$w/$name-$m.summary" "$TOP/bench/scenarios/$s" \
			"$w/$name/sync-1.jsonl" "$w/$name/$m-1.jsonl" > "$w/$name-$m.table" 2> "$w/$name-$m.err"
		v=$(tr ' ' '\n' < "$w/$name-$m.summary" 2>/dev/null | sed -n 's/^violations=//p')
		check "$name $m: critpath finds 0 ordering violations in the trace (${v:-no summary: $(tail -1 "$w/$name-$m.err")})" \
			[ "${v:-x}" = 0 ]
	done
done
tap_done
