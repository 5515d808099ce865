# pmsynth-badinput: every bad scenario is refused with a message naming the
# line and the cause; nothing is created and the loaded population stays.
. /pmlab/pmlib.sh
pmsynth_insmod
printf 'a\nb parent=a\nc masters=a\n' > good.txt
pmsynth_load good.txt || fail "good.txt refused"
links0=$(ls /sys/class/devlink | grep -c '^pmsynth:')

bad() {	# bad NAME EXPECTED-MESSAGE: scenario text on stdin
	cat > "bad-$1.txt"
	if pmsynth_load "bad-$1.txt" 2>/dev/null; then
		echo "not ok - $1: refused (it was accepted)" >> "$RESULTS/checks.txt"
	else
		echo "ok - $1: refused" >> "$RESULTS/checks.txt"
	fi
	teq "$1: message" "$2" "$(pmsynth_value status error)"
	teq "$1: the old population stays" "a b c" "$(ls /sys/bus/pmsynth/devices | tr '\n' ' ' | sed 's/ $//')"
	teq "$1: no link created or lost" "$links0" "$(ls /sys/class/devlink | grep -c '^pmsynth:')"
}
printf 'x\ny lat=suspend\n' | bad malformed "line 2: lat: 'suspend' is not PHASE:VALUE"
printf 'x\ny bogus\n' | bad not-key-value "line 2: 'bogus' is not key=value"
printf 'x\ny colour=red\n' | bad unknown-key "line 2: unknown key 'colour'"
printf 'x\ny parent=nope\n' | bad unknown-parent "line 2: unknown parent 'nope' (a parent must be defined on an earlier line)"
printf 'x\ny masters=nope\n' | bad unknown-master "line 2: unknown master 'nope'"
printf 'x\ny\nx\n' | bad duplicate "line 3: duplicate device name 'x' (first on line 1)"
printf 'x masters=z\ny masters=x\nz masters=y\n' | bad cycle \
	"line 2: pm_link cycle: 'y' depends on 'x', which depends, directly or not, on 'y'"
printf 'p masters=c\nc parent=p\n' | bad parent-cycle \
	"line 2: pm_link cycle: 'c' depends on 'p', which depends, directly or not, on 'c'"
printf 'x\ny masters=y\n' | bad own-master "line 2: device 'y' is its own master"
printf 'x lat=suspend:2000000\n' | bad latency "line 1: latency '2000000' out of range (0..1000000 us)"
printf 'x fault=suspend:99999\n' | bad errno "line 1: fault errno '99999' out of range (1..4094)"
printf 'x autosuspend=-5\n' | bad autosuspend "line 1: autosuspend '-5' out of range (0..60000 ms, or off)"
printf 'x flags=smart_suspend\n' | bad flags-need-driver \
	"line 1: flags smart_suspend and may_skip_resume need driver=1 (the PM core skips driver callbacks only)"
printf 'x flags=bogus\n' | bad flags \
	"line 1: flags: unknown flag 'bogus' (no_direct_complete, smart_suspend, may_skip_resume, none)"
printf 'x direct_complete=2\n' | bad direct-complete "line 1: direct_complete: '2' is not 0 or 1"
printf 'x lat=nap:5\n' | bad phase "line 1: lat: unknown phase 'nap'"
printf 'x/y\n' | bad name "line 1: invalid device name 'x/y' (1..63 printable characters, none of / , =)"
seq 1 4097 | sed 's/^/d/' | bad too-many "line 4097: too many devices (at most 4096)"
printf '# nothing\n' | bad empty "no devices in the scenario"
# a fault the PM core would retry forever: dpm_prepare() repeats -EAGAIN
printf 'x fault=prepare:11\n' | bad eagain-prepare \
	"line 1: fault prepare:11 always: the PM core retries -EAGAIN in prepare forever (use once)"
if pmsynth_ctl fault a prepare 11 always 2>/dev/null; then r=accepted; else r=refused; fi
teq "control 'fault a prepare 11 always': refused" refused "$r"
teq "control 'fault a prepare 11 always': message" \
	"fault: a prepare 11 always: the PM core retries that forever" "$(pmsynth_value status error)"
# control commands with bad arguments: refused, the cause named
badctl() {	# badctl COMMAND EXPECTED-MESSAGE
	if pmsynth_ctl "$1" 2>/dev/null; then r=accepted; else r=refused; fi
	teq "control '$1': refused" refused "$r"
	teq "control '$1': message" "$2" "$(pmsynth_value status error)"
}
badctl "wait-for a a suspend" "wait-for: want DEV OTHER PHASE (two devices, a system-sleep phase) or DEV off"
badctl "wait-for a b runtime_idle" "wait-for: want DEV OTHER PHASE (two devices, a system-sleep phase) or DEV off"
badctl "fault a runtime_suspend wakeup once" \
	"fault: bad device 'a', phase 'runtime_suspend' or errno 'wakeup' (wakeup: system phases only)"
badctl "force-runtime a maybe" "force-runtime: want DEV on|off"
badctl "rpm-cancel nope" "rpm-cancel: no device 'nope'"
badctl "jitter-round -1" "jitter-round: '-1' is not a round (0 or more) or off"
badctl "unlink-in a nap" "unlink-in: want DEV PHASE (a system-sleep phase) or DEV off"
badctl "unregister-in a suspend a" \
	"unregister-in: want DEV PHASE OTHER (a system-sleep phase, OTHER registered and not DEV, its parent, child or master) or DEV off"
badctl "unregister-in a suspend nope" \
	"unregister-in: want DEV PHASE OTHER (a system-sleep phase, OTHER registered and not DEV, its parent, child or master) or DEV off"
if pmsynth_ctl fault a prepare 11 once 2>/dev/null; then r=accepted; else r=refused; fi
teq "control 'fault a prepare 11 once': accepted" accepted "$r"
pm_setup
pm_cycle 1
teq "a transition with -EAGAIN once in a's prepare completes" 0 $?
teq "a's prepare ran twice: the -EAGAIN, then the retry" 2 \
	"$(sed -n 's/^prepare //p' /sys/bus/pmsynth/devices/a/calls)"
printf 'x fault=prepare:11:once\n' > once.txt
pmsynth_load once.txt
teq "scenario fault=prepare:11:once: accepted" 0 $?
