#!/bin/sh
# run-tests: parallel
# PCI runtime PM with a real emulated device (seed 001; lab/jobs/pci-rpm.sh,
# lab/pci-runtime-pm.md): QEMU's NVMe controller, in this q35 guest only,
# under vfio-pci.  The guest's checks: power_state, runtime_status and
# power/control after each step (bound and idle: D3hot; a config read:
# still D3hot; opened by a user-space driver: D0, closed: D3hot; control
# on: D0, auto: D3hot; unbound: D0) and why runtime wake cannot be shown
# (no PME in the PM capability, not wakeup-capable).  The step markers
# are checked first, so that an empty step means no callback.  Here: the rpm:*
# events between the steps' trace markers give each step's callbacks, in
# order, all the PCI core's and all returning 0 (unbinding goes D0 ->
# D3hot -> D0: the driver core drops its reference before the bus's
# remove takes one, a long-standing order); pmtrace's records hold the same callbacks; and
# rpm-callbacks counts them (their times: make bench).
. "$(dirname "$0")/../lib.sh"
tap_plan 26
w=$BUILD/test-guest/pci-rpm
mkdir -p "$BUILD/test-guest"
EXTRA="$BUILD/bpf/pmtrace $BUILD/guest/vfio-hold" guest pci-rpm "$w"
ok $GUEST_STATUS "pci-rpm runs to the end"
guest_checks "$w"
check "the guest was q35 with the NVMe controller (run.txt: the job's qemu-machine and qemu-devices lines)" \
	sh -c "grep -qx 'machine=q35' '$w/run.txt' && grep -qx 'devices=nvme,serial=rpm0' '$w/run.txt'"
bdf=$(cat "$w/bdf.txt" 2>/dev/null)
echo "# the NVMe controller: ${bdf:-not found}"

# step STEP: the device's callbacks between "pmlab: STEP" and the next
# marker, as "kind kind ..." (suspend, resume, idle); the event's fields
# are found after its name (a task name may hold spaces)
step() {
	awk -v dev="$bdf" -v s="$1" '
		/tracing_mark_write: pmlab: / { on = ($NF == s); next }
		on && (i = index($0, " rpm_callback_start: " dev " ")) {
			split(substr($0, i + length(" rpm_callback_start: " dev " ")), f, " ")
			printf "%s%s", sep, f[1]; sep = " " }
		END { print "" }' "$w/rpm.trace"
}
for s in bind config open on auto unbind; do echo "# $s: $(step $s)"; done
check "the trace has each step's marker, in order" \
	sh -c "grep -o 'tracing_mark_write: pmlab: [a-z]*' '$w/rpm.trace' | awk '{ print \$3 }' | tr '\n' ' ' |
		grep -qx 'bind config open on auto unbind end '"
check "bind: the idle device is runtime-suspended (pm_wq: idle, then suspend)" [ "$(step bind)" = "idle suspend" ]
check "config read: no callback (config space answers in D3hot)" [ -z "$(step config)" ]
check "open: resumed for the user-space driver; on close, idle and suspend" \
	[ "$(step open)" = "resume idle suspend" ]
check "power/control on: resume" [ "$(step on)" = "resume" ]
check "power/control auto: idle, suspend" [ "$(step auto)" = "idle suspend" ]
check "unbind: resume, idle, suspend, then resume for the driver's remove" \
	[ "$(step unbind)" = "resume idle suspend resume" ]
check "every callback of the device is the PCI core's (pci_pm_runtime_*) and returned 0" \
	awk -v dev="$bdf" '(i = index($0, " rpm_callback_end: " dev " ")) { n++
		split(substr($0, i + length(" rpm_callback_end: " dev " ")), f, " ")
		if (f[2] !~ /^pci_pm_runtime_(idle|suspend|resume)$/ || $NF != "ret=0") bad++ }
		END { exit !(n == 12 && !bad) }' "$w/rpm.trace"

# pmtrace's records: the same callbacks, in the same order
kinds=$(jq -r --arg d "$bdf" 'select(.type == "rpm_callback" and .device == $d) | .callback' \
	"$w/pci-rpm.jsonl" 2>/dev/null | sed 's/^runtime_//' | tr '\n' ' ' | sed 's/ $//')
all=$(for s in bind config open on auto unbind; do step $s; done | tr '\n' ' ' | tr -s ' ' | sed 's/^ //; s/ $//')
echo "# records: $kinds"
check "pmtrace recorded the device's 12 callbacks in the trace's order" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ] && [ $(echo "$1" | wc -w) -eq 12 ]' sh "$kinds" "$all"
check "pmtrace recorded the PCI core's functions and each one's start before its end" \
	sh -c "[ \"\$(jq -r --arg d '$bdf' 'select(.type == \"rpm_callback\" and .device == \$d) |
		select((.function | test(\"^pci_pm_runtime_\")) and .start > 0 and .start < .end and .ret == 0)' \
		'$w/pci-rpm.jsonl' | jq -s length)\" = 12 ]"
"$BUILD/tools/rpm-callbacks" --device "$bdf" "$w/pci-rpm.jsonl" > "$w/callbacks.txt" 2>&1
ok $? "rpm-callbacks reads the records"
sed 's/^/# /' "$w/callbacks.txt"
check "rpm-callbacks: 4 suspends (D0 -> D3hot) and 4 resumes (D3hot -> D0), no error" \
	sh -c "awk '\$2 == \"runtime_suspend\" && \$3 == 4 && \$4 == 0 { s = 1 }
		\$2 == \"runtime_resume\" && \$3 == 4 && \$4 == 0 { r = 1 } END { exit !(s && r) }' '$w/callbacks.txt'"
tap_done
