#!/bin/sh
# run-tests: parallel
# Every bpftrace tool in tracepoints/ and the trace-cmd recipe, run in the
# guest on synthetic devices: the output holds what the tool promises.
. "$(dirname "$0")/../lib.sh"
tap_plan 20
w=$BUILD/test-guest/oneliners
pmsynth_guest oneliners "$w" bench/scenarios/dag-100.txt tracepoints/slowest-devices.bt \
	tracepoints/wait-chains.bt tracepoints/queue-delay.bt tracepoints/rpm-latency.bt \
	tracepoints/sync-devices.bt tracepoints/callback-hist.bt -- dag-100.txt
ok $GUEST_STATUS "oneliners job runs to the end"

# slowest-devices: @callback_us[phase, device]: us; dag-100 suspend and
# resume callbacks sleep 1000 us +-50%
# bpftrace prints the map sorted by value: the slowest come last
grep '^@callback_us\[' "$w/slowest-devices.txt" | tail -n 20 > "$w/slowest-20.txt"
# (an async noirq callback of 100 us can be held up past 1 ms when many
# sleep at once on the shared clock: most, not all, are suspend/resume)
n=$(grep -cE '^@callback_us\[(suspend|resume), d[0-9]+\]: [0-9]+$' "$w/slowest-20.txt")
check "slowest-devices: at least 15 of the 20 slowest are suspend/resume callbacks of pmsynth devices ($n)" \
	[ "$n" -ge 15 ]
out=$(grep -E '^@callback_us\[(suspend|resume), ' "$w/slowest-20.txt" | awk -F': ' '$2 < 500 || $2 > 2500' | wc -l)
check "slowest-devices: their times match the scenario's 1000 us +-50% ($out outside)" [ "$out" -eq 0 ]

# wait-chains: @wait_us[device, relation, other]: us
check "wait-chains: waits are listed with their relation" \
	grep -qE '^@wait_us\[d[0-9]+, (parent|child|supplier|consumer), d[0-9]+\]: [0-9]+$' "$w/wait-chains.txt"
bad=$(grep -E '^@wait_us\[d[0-9]+, [a-z]+, d[0-9]+\]' "$w/wait-chains.txt" | sed 's/^@wait_us\[\([^,]*\), \([a-z]*\), \([^]]*\)\].*/\1 \2 \3/' |
	while read -r d rel o; do
		case $rel in
		parent)	grep -qE "^$d .*parent=$o( |\$)" "$TOP/bench/scenarios/dag-100.txt";;
		child)	grep -qE "^$o .*parent=$d( |\$)" "$TOP/bench/scenarios/dag-100.txt";;
		supplier) grep -qE "^$d .*masters=([^ ]*,)?$o(,| |\$)" "$TOP/bench/scenarios/dag-100.txt";;
		consumer) grep -qE "^$o .*masters=([^ ]*,)?$d(,| |\$)" "$TOP/bench/scenarios/dag-100.txt";;
		*) false;;
		esac || echo "$d $rel $o"
	done | wc -l)
check "wait-chains: every pair of pmsynth devices is a real relation of the scenario ($bad wrong)" [ "$bad" -eq 0 ]

missing=
for p in suspend suspend_late suspend_noirq resume_noirq resume_early resume; do
	grep -qx "@queue_delay_us\[$p\]: *" "$w/queue-delay.txt" || missing="$missing $p"
done
check "queue-delay: a histogram of async devices for every async phase${missing:+ (missing:$missing)}" \
	[ -z "$missing" ]
check "queue-delay: with buckets" grep -qE '^\[[0-9]+' "$w/queue-delay.txt"
# every async device is queued and begun once per phase: a count of 99
# (d7 is synchronous) per phase, and the guest's own async devices, split
# between the histogram (buckets "[N, M)", or "[N]" for one value) and the
# workers that began before the queued event arrived
n=$(awk '/^@queue_delay_us\[suspend\]/ { on = 1; next } /^@/ { on = 0 }
	on && /^\[/ { sub(/^\[[^])]*[])] */, ""); split($0, f, " "); s += f[1] }
	/^@began_first\[suspend\]: / { s += $2 } END { print s + 0 }' "$w/queue-delay.txt")
check "queue-delay: the 99 async pmsynth devices of suspend and no sync one, all counted ($n)" \
	[ "$n" -ge 99 ]
missing=
for p in prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete; do
	grep -qx "@callback_us\[$p\]: *" "$w/callback-hist.txt" || missing="$missing $p"
done
check "callback-hist: a histogram for every dpm phase${missing:+ (missing:$missing)}" [ -z "$missing" ]
n=$(sed -n 's/^@async_callbacks\[suspend\]: \([0-9]*\)$/\1/p' "$w/callback-hist.txt")
check "callback-hist: at least the 99 async pmsynth suspend callbacks ran in workers (${n:-none})" \
	[ "${n:-0}" -ge 99 ]
check "callback-hist: prepare runs sync only" \
	sh -c "grep -q '^@sync_callbacks\[prepare\]: [0-9]' '$w/callback-hist.txt' && ! grep -q '^@async_callbacks\[prepare\]' '$w/callback-hist.txt'"
check "sync-devices: d7, made synchronous, spent its ~1000 us suspend callback on the phase's thread" \
	sh -c "grep -E '^@sync_us\[suspend, d7\]: [0-9]+$' '$w/sync-devices.txt' | awk -F': ' '\$2 >= 500' | grep -q ."
check "sync-devices: and held back the devices that depend on it (blocked waits on d7)" \
	grep -qE '^@held_back_us\[[a-z_]+, d7\]: [0-9]+$' "$w/sync-devices.txt"
check "sync-devices: async pmsynth devices are not listed" \
	sh -c "! grep -qE '^@(sync|held_back)_us\[[a-z_]+, d8\]' '$w/sync-devices.txt'"
check "trace-cmd report shows dpm_device waits" grep -q 'dpm_device_wait_start:' "$w/trace-cmd-report.txt"
check "trace-cmd report shows device callbacks" grep -q 'device_pm_callback_end:' "$w/trace-cmd-report.txt"

# rpm-latency: held/released resume with a 3000 us callback
check "rpm-latency: runtime_resume of held, by pmsynth's callback, takes its 3000 us" \
	sh -c "grep -E '^@callback_us\[held, runtime_resume, pmsynth_runtime_resume\]: [0-9]+' '$w/rpm-latency.txt' | awk -F': ' '\$2 >= 3000 && \$2 < 4000' | grep -q ."
check "rpm-latency: runtime_idle callbacks are timed too" \
	grep -qE '^@callback_us\[(held|released|hub), runtime_idle, pmsynth_runtime_idle\]: [0-9]+$' "$w/rpm-latency.txt"
check "rpm-latency: request latency histogram" grep -q '^@request_latency_us:' "$w/rpm-latency.txt"
check "rpm-latency: cancelled requests are counted apart" \
	grep -qE '^@cancelled\[released, (none|resume|idle|suspend|autosuspend)\]: [1-9][0-9]*$' "$w/rpm-latency.txt"
tap_done
