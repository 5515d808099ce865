#!/bin/sh
# Bad input to the lab is refused with one clear line, non-zero, nothing made.
. "$(dirname "$0")/../lib.sh"
tap_plan 14
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

"$TOP/lab/run-guest.sh" no-such-job "$w/out" > "$w/log" 2>&1
ok $((! $?)) "an unknown guest job fails"
check "the message names it and lists the real ones" \
	contains "$w/log" "unknown guest job 'no-such-job' (lab/jobs:"
check "no result directory is made for it" test ! -e "$w/out"

CLOCK=wallclock "$TOP/lab/run-guest.sh" smoke "$w/out" > "$w/log" 2>&1
check "a bad CLOCK is named" contains "$w/log" "CLOCK must be virtual or real, got 'wallclock'"

SMP=zero "$TOP/lab/run-guest.sh" smoke "$w/out" > "$w/log" 2>&1
check "a bad SMP is named" contains "$w/log" "SMP must be a positive number, got 'zero'"

MACHINE=isapc "$TOP/lab/run-guest.sh" smoke "$w/out" > "$w/log" 2>&1
check "a bad MACHINE is named" contains "$w/log" "MACHINE must be pc or q35, got 'isapc'"
DEVICES='nvme,serial=a e1000;reboot' "$TOP/lab/run-guest.sh" smoke "$w/out" > "$w/log" 2>&1
check "a DEVICES spec with a shell character is named" \
	contains "$w/log" "DEVICES: 'e1000;reboot' has a character other than letters, digits and _ . , = : -"
DEVICES=',driver=nvme' "$TOP/lab/run-guest.sh" smoke "$w/out" > "$w/log" 2>&1
check "a DEVICES spec without a model name is named" \
	contains "$w/log" "DEVICES: ',driver=nvme' is not a QEMU device spec (a model name, then ,key=value)"
check "no result directory is made for them" test ! -e "$w/out"

printf 'CONFIG_PMLAB_NO_SUCH_OPTION=y\n' > "$w/bad.config"
"$TOP/lab/kernel-config.sh" "$BUILD/linux" "$w/obj" "$TOP/lab/kernel.config" "$w/bad.config" > "$w/log" 2>&1
ok $((! $?)) "a fragment option Kconfig drops fails the config step"
check "the message names the option" contains "$w/log" "CONFIG_PMLAB_NO_SUCH_OPTION (wanted: y"
check "no .config is produced" test ! -e "$w/obj/.config"
# an older tree (make kernel LINUX=6.1): what its Kconfig lacks is named, left out
ALLOW_UNKNOWN=1 "$TOP/lab/kernel-config.sh" "$BUILD/linux" "$w/obj" "$TOP/lab/kernel.config" "$w/bad.config" > "$w/log" 2>&1
ok $? "ALLOW_UNKNOWN=1: an option the tree's Kconfig does not define does not fail the config step"
check "it is named as left out, and the .config made" sh -c \
	'grep -q "not in this kernel.s Kconfig, left out: CONFIG_PMLAB_NO_SUCH_OPTION" "$1" && [ -s "$2" ]' sh "$w/log" "$w/obj/.config"
tap_done
