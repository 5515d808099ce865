# tests/lib-machine.sh - "Measure your own machine" in a guest (the
# machine job, bench/measure-machine.sh) and the host's analysis of what
# it brought back; sourced after tests/lib.sh by tests/guest/machine.t
# and stock-*.t.

# machine_guest KERNEL OUT [PMTRACE_ARGS]: boot KERNEL (a bzImage) with the
# machine job, pmtrace (built against the lab kernel's BTF), the import
# tools and the bpftrace tools; results in OUT; sets GUEST_STATUS.
machine_guest() {
	_m_k=$1 _m_out=$2
	shift 2
	mkdir -p "$(dirname "$_m_out")"
	rm -rf "$_m_out"
	KERNEL=$_m_k EXTRA="$BUILD/bpf/pmtrace $BUILD/tools/sysfs2scen $TOP/bench/sysfs-list.sh $TOP/bench/measure-machine.sh $(echo "$TOP"/tracepoints/*.bt)" \
		guest machine "$_m_out" virtual 1 "$@"
}

# stock_or_skip VERSION N REASON: unless build/obj-VERSION-stock has a
# bzImage, N checks skipped with REASON, and the file ends there
stock_or_skip() {
	[ -f "$BUILD/obj-$1-stock/arch/x86/boot/bzImage" ] && return 0
	_s_i=0
	while [ $_s_i -lt "$2" ]; do
		skip "stock $1 check $((_s_i + 1))" "build/obj-$1-stock not built ($3)"
		_s_i=$((_s_i + 1))
	done
	tap_done
}

# machine_checks OUT KIND: the checks of one machine run, KIND series (the
# kernel has the series' events) or stock (it has not)
machine_checks() {
	_m=$1/machine _kind=$2
	check "the guest measured itself (exit 0)" [ "$GUEST_STATUS" -eq 0 ]
	check "sysfs2scen imported the guest's devices (and left out those without power/)" sh -c \
		'grep -q "devices without power/" "$1/import.log" && [ "$(grep -cv "^[#@]" "$1/machine.txt")" -ge 50 ]' sh "$_m"
	for f in sync-1 async-1; do
		check "$f: records complete, nothing dropped" sh -c \
			'tail -1 "$1" | grep -q "^{\"type\":\"end\",\"records\":[0-9]*,\"dropped\":0}$"' sh "$_m/$f.jsonl"
	done
	check "the async run has devices run by async workers, the sync run none" sh -c \
		'grep -q "\"type\":\"device\".*\"async\":1" "$1/async-1.jsonl" &&
		 ! grep -q "\"type\":\"device\".*\"async\":1" "$1/sync-1.jsonl"' sh "$_m"
	"$BUILD/tools/critpath" -s "$_m/summary.txt" "$_m/machine.txt" "$_m/sync-1.jsonl" \
		"$_m/async-1.jsonl" > "$_m/critpath.txt" 2> "$_m/critpath.err"
	ok $? "critpath analyses the guest's own transition against its own graph"
	sed 's/^/# /' "$_m/critpath.txt" "$_m/critpath.err"
	check "T(sync), T(async), graph bound and efficiency come out as numbers" sh -c \
		'grep -Eq "t_sync=[0-9]+\.[0-9]{3} t_async=[0-9]+\.[0-9]{3} speedup=[0-9.]+ graph=[0-9]+\.[0-9]{3}" "$1" &&
		 grep -Eq " bound=[0-9]+\.[0-9]{3} efficiency=[0-9]+\.[0-9] " "$1"' sh "$_m/summary.txt"
	if [ "$_kind" = stock ]; then
		check "the kernel has no dpm_device or rpm events" sh -c \
			'! grep -q dpm_device "$1/events.txt" && grep -q device_pm_callback_start "$1/events.txt"' sh "$1"
		check "pmtrace says once which events are missing and what the records lose" sh -c \
			'[ "$(grep -c "this kernel has no power:dpm_device_\* events (the pmlab series. patch 0001) (missing: dpm_device_queued dpm_device_start dpm_device_end dpm_device_wait_start dpm_device_wait_end): device records are the callbacks alone" "$1")" -eq 1 ] &&
			 [ "$(grep -c "this kernel has no rpm:rpm_callback_\*/rpm_request_\* events .*: no rpm_callback or rpm_request records" "$1")" -eq 1 ]' sh "$_m/async-1.jsonl.log"
		check "the begin record lists the absent fields, device records hold null there" sh -c \
			'head -1 "$1" | grep -q "\"absent\":\[\"queued\",\"start\",\"queue_ns\",\"wait_ns\",\"waits\",\"outcome\",\"uncalled\",\"rpm_callback\",\"rpm_request\"\]" &&
			 grep -q "\"type\":\"device\".*\"queued\":null" "$1" &&
			 ! grep "\"type\":\"device\"" "$1" | grep -v -q "\"queued\":null"' sh "$_m/async-1.jsonl"
		check "critpath: blocked waits and queue delay n/a, never 0" sh -c \
			'grep -q " blocked=n/a .* events=stock$" "$1" &&
			 awk "\$1 == \"all\" && /\|/ { exit !(\$8 == \"n/a\" && \$13 == \"n/a\") }" "$2"' sh "$_m/summary.txt" "$_m/critpath.txt"
		check "slowest-devices.bt (power:* events of any kernel) runs" sh -c \
			'[ "$(cat "$1/bt/slowest-devices.status")" = 0 ] && grep -q "@" "$1/bt/slowest-devices.out"' sh "$1"
		for t in queue-delay callback-hist sync-devices wait-chains rpm-latency; do
			check "$t.bt (the series' events) says what is missing and fails" sh -c \
				'[ "$(cat "$1/bt/$2.status")" != 0 ] && grep -Eq "tracepoint not found: (power:dpm_device|rpm:rpm)_" "$1/bt/$2.err"' sh "$1" "$t"
		done
	else
		check "the begin record lists nothing absent" sh -c \
			'head -1 "$1" | grep -q "\"absent\":\[\]"' sh "$_m/async-1.jsonl"
		check "critpath: blocked waits and queue delay measured (events=series)" sh -c \
			'grep -Eq " blocked=[0-9]+ .* events=series$" "$1"' sh "$_m/summary.txt"
	fi
	TOOLS=$BUILD/tools "$TOP/bench/figures.sh" "$_m" "$_m/machine.txt" "guest machine, $_kind kernel" \
		> "$_m/figures.log" 2>&1
	ok $? "figures.sh draws the guest's timeline and flame graphs"
	check "the timeline (gantt.png, trace-event JSON) and the callback flame graph are there" sh -c \
		'[ -s "$1/timeline/gantt.png" ] && [ -s "$1/timeline/async.trace.json" ] && [ -s "$1/flame/async-callbacks.html" ]' sh "$_m"
}
