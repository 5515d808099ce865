#!/bin/sh
# run-tests: parallel
# The series' scheduler under the reliability kernel (make debug: lockdep,
# KASAN, DEBUG_ATOMIC_SLEEP, hung-task detection): the fault-injection run
# (every phase, pm_async=1), the topology changes (devices unregistered and
# links deleted mid-phase, pm_async=1) and a 500-device transition cycle
# (sync, 6.12's and the series' async), each with its own checks passing
# and no splat on the console.  The other modes' fault and topology runs
# are the lab kernel's (pmsynth-faults.t, pmsynth-topology.t): KASAN makes
# each transition several times slower.
. "$(dirname "$0")/../lib.sh"
DKERNEL=$TOP/build/obj-debug/arch/x86/boot/bzImage
DMOD=$TOP/build/pmsynth-debug/pmsynth.ko
tap_plan $((3 * 4 + 56 + 66 + 15))
# a splat: any of these on the console
SPLAT='BUG:|WARNING:|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|blocked for more than|Call Trace:|general protection fault|UBSAN:'
UTS=$(sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$TOP/build/obj-debug/include/generated/utsversion.h" 2>/dev/null)
for f in "$DKERNEL" "$DMOD"; do
	[ -f "$f" ] || { echo "Bail out! $f missing: make debug builds it"; exit 1; }
done
# debug_run JOB NAME FILES ARGS...: the job under the debug kernel, with
# the debug build of pmsynth and FILES (space separated) in /pmlab
debug_run() {
	_job=$1 _name=$2 _files=$3
	shift 3
	_w=$BUILD/test-guest/debug-$_name
	mkdir -p "$BUILD/test-guest"
	export KERNEL="$DKERNEL" EXTRA="$DMOD $_files" TIMEOUT="${TIMEOUT:-1500}"
	guest "$_job" "$_w" "$@"
	ok $GUEST_STATUS "debug kernel: $_name runs to the end"
	check "debug kernel: $_name booted the reliability kernel (its build's version string and lockdep's banner on the console; KASAN in its config)" \
		sh -c "[ -n '$UTS' ] && grep -qF '$UTS' '$_w/console.log' && grep -q 'Lock dependency validator' '$_w/console.log' && grep -qx 'CONFIG_KASAN=y' '$TOP/build/obj-debug/.config'"
	check "debug kernel: $_name: no splat on the console ($(grep -cE "$SPLAT" "$_w/console.log" 2>/dev/null) lines)" \
		sh -c "[ -s '$_w/console.log' ] && ! grep -qE '$SPLAT' '$_w/console.log'"
	check "debug kernel: $_name: the guest's checks ran" [ -s "$_w/checks.txt" ]
	guest_checks "$_w"
}
debug_run pmsynth-faults faults "$TOP/bench/scenarios/dag-100.txt" dag-100.txt d50 1
debug_run pmsynth-topology topology "" 1
debug_run pmsynth-cycle cycle-dag-500 "$TOP/bench/scenarios/dag-500.txt" dag-500.txt
tap_done
