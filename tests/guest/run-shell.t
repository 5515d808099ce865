#!/bin/sh
# make run, make shell and your own kernel, through make as a user types
# them: make run streams the guest's output while the guest still runs,
# has the lab's setup (pm_test core, the scenario's devices), saves
# /results and returns the command's status; make shell is a real
# terminal session (Ctrl-C interrupts the command in the guest, not the
# shell; exit N is make's status); KERNEL= (command line or environment)
# boots your kernel with pmsynth built for it from KSRC, and does not build
# the lab kernel; SCRIPT= runs a script file of yours.
. "$(dirname "$0")/../lib.sh"
tap_plan 17
w=$BUILD/test-guest/run-shell
rm -rf "$w"
mkdir -p "$w"

# make run: the reader stamps whether QEMU is still running when each
# line arrives; the command prints a mark, then works on in the guest
cmd='echo mark-$((6 * 7)); cat /sys/power/pm_test; ls /sys/bus/pmsynth/devices | wc -l; sh /pmlab/suspend.sh && echo transition-ok; i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; echo kept > /results/mine.txt; exit 3'
(cd "$TOP" && make -s run CMD="$cmd" SCENARIO=tree-100; echo "make-status $?") < /dev/null 2>&1 |
	while IFS= read -r line; do
		if pgrep -f "pmlab-run\.[^ ]*/initrd.cpio" > /dev/null; then s=running; else s=ended; fi
		printf '%s %s\n' "$s" "$line"
	done > "$w/run.out"
sed 's/^/# /' "$w/run.out" | tail -12
check "make run's output shows the command's own work (mark-42: computed in the guest)" grep -q ' mark-42$' "$w/run.out"
check "... and arrives while the guest is still running (live, not after)" grep -q '^running mark-42$' "$w/run.out"
check "pm_test is core" grep -q '\[core\]' "$w/run.out"
check "the scenario's 100 devices are loaded" grep -q '^[a-z]* 100$' "$w/run.out"
check "a transition runs and returns" grep -q ' transition-ok$' "$w/run.out"
check "make run's status is the command's (3)" grep -q ' make-status [1-9]' "$w/run.out"
check "run-guest names the command's exit status" grep -q 'run-guest: run: exit 3 after' "$w/run.out"
check "what the command wrote in /results is in results/run/latest" \
	[ "$(cat "$TOP/results/run/latest/mine.txt" 2>/dev/null)" = kept ]

# make shell through its console: Ctrl-C interrupts a command, exit 5
printf '%s\n' 'cat /sys/power/pm_test' 'sleep 1000' '^C' 'echo typed > /results/typed.txt' 'exit 5' > "$w/shell.lines"
(cd "$TOP" && expect "$TOP/tests/lib/shell-session.exp" "$w/shell.log" "make -s shell SCENARIO=none" "$w/shell.lines") \
	> "$w/shell.status" 2>&1 < /dev/null
sed 's/^/# /' "$w/shell.status"
check "make shell gives a prompt and runs a typed command (status 0)" grep -qx 'LINE-STATUS 1 0' "$w/shell.status"
check "... whose output is on the terminal" sh -c "tr -d '\r' < '$w/shell.log' | grep -q '\[core\]'"
check "Ctrl-C interrupts the command in the guest and the shell goes on (status 130)" \
	grep -qx 'LINE-STATUS 3 130' "$w/shell.status"
check "exit 5 ends the session with make's status non-zero" sh -c "grep -q '^COMMAND-STATUS [1-9]' '$w/shell.status' &&
	tr -d '\r' < '$w/shell.log' | grep -q 'run-guest: shell: exit 5 after'"
check "what was written in the shell is in results/shell/latest" \
	[ "$(cat "$TOP/results/shell/latest/typed.txt" 2>/dev/null)" = typed ]

# your own kernel: the debug kernel's build directory as KSRC (derived)
dk=build/obj-debug/arch/x86/boot/bzImage
(cd "$TOP" && make -n run KERNEL=$dk CMD=true) > "$w/own-n.txt" 2>&1
check "make run KERNEL=... does not build the lab kernel (make -n: no bzImage build)" \
	sh -c "! grep -q 'bzImage modules\|kernel: building' '$w/own-n.txt' && grep -q 'own-kernel.sh' '$w/own-n.txt'"
(cd "$TOP" && KERNEL=$dk make -n run CMD=true) > "$w/own-env-n.txt" 2>&1
check "... nor does KERNEL=... from the environment" \
	sh -c "! grep -q 'bzImage modules\|kernel: building' '$w/own-env-n.txt' && grep -q 'own-kernel.sh' '$w/own-env-n.txt'"
printf '%s\n' 'uname -v' 'ls /sys/bus/pmsynth/devices | wc -l' 'echo "from-script $(basename "$0")"' > "$w/own.sh"
(cd "$TOP" && KERNEL=$dk make -s run SCRIPT="$w/own.sh") > "$w/own.out" 2>&1 < /dev/null
ok $? "KERNEL=<the debug kernel> make run SCRIPT=own.sh runs the script"
uts=$(sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$TOP/build/obj-debug/include/generated/utsversion.h")
check "... on that kernel (its version string) with pmsynth built for it (100 devices), the script's own lines" \
	sh -c "grep -qF '$uts' '$w/own.out' && grep -q '^100\$' '$w/own.out' && grep -q '^from-script ' '$w/own.out' && modinfo -F vermagic '$TOP/build/pmsynth-own/pmsynth.ko' |
		grep -q \"^\$(cat '$TOP/build/obj-debug/include/config/kernel.release') \""
tap_done
