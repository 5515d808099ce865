# pmsynth-badinput: every bad scenario is refused with a message naming the
# line and the cause; nothing is created and the loaded population stays.
#
# summary: every bad scenario of tests/data/bad-scenarios refused by pmsynth with its cause
. /pmlab/pmlib.sh
pmsynth_insmod
printf 'a\nb parent=a\nc masters=a\n' > good.txt
pmsynth_load good.txt || fail "good.txt refused"
links0=$(ls /sys/class/devlink | grep -c '^pmsynth:')

# bad NAME EXPECTED-MESSAGE: /pmlab/bad-scenarios/NAME.txt is refused
bad() {
	if pmsynth_load "/pmlab/bad-scenarios/$1.txt" 2>/dev/null; then
		echo "not ok - $1: refused (it was accepted)" >> "$RESULTS/checks.txt"
	else
		echo "ok - $1: refused" >> "$RESULTS/checks.txt"
	fi
	teq "$1: message" "$2" "$(pmsynth_value status error)"
	teq "$1: the old population stays" "a b c" "$(ls /sys/bus/pmsynth/devices | tr '\n' ' ' | sed 's/ $//')"
	teq "$1: no link created or lost" "$links0" "$(ls /sys/class/devlink | grep -c '^pmsynth:')"
}
# the files and messages tests/host/scenario-input.t gives the host reader
# (critpath --check): pmsynth and the host tools refuse the same scenarios
tab=$(printf '\t')
while IFS="$tab" read -r name message; do
	bad "$name" "$message"
done < /pmlab/bad-scenarios/expected
# a fault the PM core would retry forever: dpm_prepare() repeats -EAGAIN
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
