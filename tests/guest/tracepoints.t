#!/bin/sh
# run-tests: parallel
# The dpm_device events of the series, on a transition of 100 synthetic
# devices of which every 5th is synchronous: one start and done event per
# device per phase, queued for async devices only, none in prepare and
# complete; every wait names a real parent, child, supplier or consumer
# with the right relation (with 6.12's scheduling, pm_async=2, whose workers
# wait), and no synthetic device waits with the series'; nothing fires
# while the events are disabled.
. "$(dirname "$0")/../lib.sh"
tap_plan 40
w=$BUILD/test-guest/tracepoints
scen=$TOP/bench/scenarios/dag-100.txt
pmsynth_guest tracepoints "$w" bench/scenarios/dag-100.txt -- dag-100.txt 5
ok $GUEST_STATUS "tracepoints job runs to the end"
n=$(wc -l < "$w/devices.txt")
s=$(wc -l < "$w/sync-devices.txt")
check "100 synthetic devices, 20 of them synchronous ($n, $s)" sh -c "[ $n -eq 100 ] && [ $s -eq 20 ]"

# events of synthetic devices: "EVENT DEVICE PHASE ASYNC OUTCOME ERR"
awk 'NR == FNR { ours[$1] = 1; next }
	/ dpm_device_(queued|start|end): / {
		ev = $0; sub(/^.*: dpm_device_/, "", ev); split(ev, f, /[: ]+/)
		if (!(f[2] in ours)) next
		ph = ""; as = "-"; out = "-"; err = "-"
		for (i = 3; f[i] != ""; i++) {
			if (f[i] ~ /^phase=/) ph = substr(f[i], 7)
			else if (f[i] ~ /^async=/) as = substr(f[i], 7)
			else if (f[i] ~ /^err=/) err = substr(f[i], 5)
			else if (f[i] ~ /^(called|no_callback|skipped_)/) out = f[i]
		}
		print f[1], f[2], ph, as, out, err
	}' "$w/devices.txt" "$w/events.trace" > "$w/ours.txt"
for ph in suspend suspend_late suspend_noirq resume_noirq resume_early resume; do
	for ev in start end; do
		c=$(awk -v e=$ev -v p=$ph '$1 == e && $3 == p' "$w/ours.txt" | wc -l)
		check "$ph: $ev fired once per device ($c of $n)" [ "$c" -eq "$n" ]
	done
	# queued means queued: async devices only, once each (6.12's order
	# fired it for sync devices too, at their list position)
	q=$(awk -v p=$ph '$1 == "queued" && $3 == p' "$w/ours.txt" | wc -l)
	qs=$(awk -v p=$ph '$1 == "queued" && $3 == p { print $2 }' "$w/ours.txt" | grep -cxFf "$w/sync-devices.txt")
	check "$ph: queued once per async device, never for a sync one ($q of $((n - s)), $qs sync)" \
		sh -c "[ $q -eq $((n - s)) ] && [ $qs -eq 0 ]"
	a=$(awk -v p=$ph '$1 == "start" && $3 == p && $4 == 1' "$w/ours.txt" | wc -l)
	check "$ph: $((n - s)) devices begun in async workers ($a)" [ "$a" -eq $((n - s)) ]
done
c=$(grep -cE ' dpm_device_[a-z_]+: .* phase=(prepare|complete) ' "$w/events.trace")
check "prepare and complete fire no dpm_device event (device_pm_callback_* cover them; $c)" [ "$c" -eq 0 ]
c=$(awk '$1 == "end" && !($5 == "called" && $6 == 0)' "$w/ours.txt" | wc -l)
check "every end of a pmsynth device says its callback was called, err=0 ($c others)" [ "$c" -eq 0 ]

# The guest's own devices: many are left runtime-suspended by
# direct_complete; each such device (named once in a phase) must say so in
# every later phase, not look like a callback that ran.
set -- $(awk '/ dpm_device_end: / { x = $0; sub(/.*dpm_device_end: /, "", x); split(x, f, " ")
		ph = substr(f[2], 7); seen[ph, f[1]]++; out[ph, f[1]] = f[5]; names[f[1]] = 1 }
	END {
		split("suspend_late suspend_noirq resume_noirq resume_early resume", P, " ")
		for (d in names) {
			if (seen["suspend", d] != 1 || out["suspend", d] != "skipped_direct_complete") continue
			dc++
			for (i = 1; i <= 5; i++) if (seen[P[i], d] == 1) {
				n++; if (out[P[i], d] != "skipped_direct_complete") bad++
			}
		}
		printf "%d %d %d\n", dc, n, bad }' "$w/events.trace")
check "direct_complete: guest devices skipped in suspend say so in the 5 phases after ($1 devices, $2 events, $3 otherwise)" \
	sh -c "[ ${1:-0} -gt 0 ] && [ ${2:-0} -ge $((5 * ${1:-0})) ] && [ ${3:-1} -eq 0 ]"

# waits: "WAITER waits for RELATION OTHER phase=..." checked against the
# scenario's parents and masters
awk 'NR == FNR {
		if ($0 ~ /^[#@]/ || NF == 0) next
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^parent=/) parent[$1] = substr($i, 8)
			if ($i ~ /^masters=/) {
				k = split(substr($i, 9), m, ",")
				for (j = 1; j <= k; j++) master[$1, m[j]] = 1
			}
		}
		known[$1] = 1; next
	}
	/ dpm_device_wait_start: / {
		x = $0; sub(/^.*dpm_device_wait_start: /, "", x); split(x, f, " ")
		d = f[1]; rel = f[4]; o = f[5]
		if (!(d in known)) next
		# devices without a parent in the scenario sit under the
		# module root device, /sys/devices/pmsynth
		ok = (rel == "parent" && (d in parent ? parent[d] == o : o == "pmsynth")) ||
		     (rel == "child" && parent[o] == d) ||
		     (rel == "supplier" && ((d, o) in master)) ||
		     (rel == "consumer" && ((o, d) in master))
		seen[rel]++
		if (!ok) { bad++; print "bad: " x > "/dev/stderr" }
		total++
	}
	END { printf "%d %d %d %d %d %d\n", total, bad, seen["parent"], seen["child"], seen["supplier"], seen["consumer"] }' \
	"$scen" "$w/events.trace" > "$w/waits.txt" 2> "$w/bad-waits.txt"
set -- $(cat "$w/waits.txt")
check "synthetic devices blocked on others ($1 waits)" [ "${1:-0}" -gt 0 ]
check "every wait names a real parent/child/supplier/consumer (${2:-?} wrong)" [ "${2:-1}" -eq 0 ]
check "waits on parents ($3), children ($4), suppliers ($5), consumers ($6) all seen" \
	sh -c "[ ${3:-0} -gt 0 ] && [ ${4:-0} -gt 0 ] && [ ${5:-0} -gt 0 ] && [ ${6:-0} -gt 0 ]"
ends=$(grep -c ' dpm_device_wait_end: ' "$w/events.trace")
begins=$(grep -c ' dpm_device_wait_start: ' "$w/events.trace")
check "every wait_begin has its wait_end ($begins, $ends)" [ "$begins" -eq "$ends" ]
n=$(grep -c 'dpm_device_wait_start: d[0-9]* waits for' "$w/events-series.trace")
check "with the series' scheduling no synthetic device waits: each starts once its dependencies are done ($n waits)" \
	sh -c "[ $n -eq 0 ] && grep -q 'dpm_device_end: d[0-9]' '$w/events-series.trace'"

check "with dpm_device events disabled, the transition was traced" grep -q 'suspend_resume: dpm_suspend' "$w/disabled.trace"
check "with dpm_device events disabled, none fired" sh -c "! grep -q dpm_device_ '$w/disabled.trace'"
check "their enable files all read 0" [ "$(cat "$w/disabled-enable.txt")" = 0 ]
check "dpm_device_wait_end enabled alone fires (it had been gated on wait_begin's switch)" \
	grep -q 'dpm_device_wait_end: d[0-9]* waits for' "$w/wait-end-only.trace"
check "and alone it is: no dpm_device_wait_start in that trace" \
	sh -c "! grep -q dpm_device_wait_start '$w/wait-end-only.trace'"
check "the oracle saw no violation meanwhile" grep -qx 'violations 0' "$w/oracle.txt"
tap_done
