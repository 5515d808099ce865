# battery REPS SYNC_DEVICES...: the ACPI battery (PNP0C0A, from the SSDT
# lab/acpi/battery.asl, which run-guest.sh adds for this job), resumed
# asynchronously (the series' opt-in, seed 006) and synchronously (its
# power/async written "disabled": what 6.12 does), REPS transitions each
# with pm_async=1, alternating, every one recorded by pmtrace:
# battery-S-MODE-N.jsonl (MODE async or sync) and the kernel's own device
# phase times, kernel-S-MODE-N.txt ("PHASE MSECS", pm_debug_messages),
# for each S of SYNC_DEVICES: with S > 0, pmsynth adds S synchronous
# devices after the battery in dpm_list, each resume callback sleeping
# 1 ms (the stretch of synchronous work a laptop's platform and ACPI
# devices make); S = 0: the guest's own devices only.  Then the battery
# driver is unbound and bound again, so its power supply BAT0 (a child,
# synchronous) is registered anew at the end of dpm_list: on a laptop the
# ACPI device comes from the namespace scan and the power supply from the
# driver's probe, with the PCI, USB, ... devices in between; here they
# would be ~0.2 ms apart and the phase's thread would wait for the
# battery at BAT0 whether it is async or not.
# Checks (checks.txt): the driver bound the battery and reads it through
# sysfs; the opt-in is on; the power/async switch works.
#
# summary: the ACPI battery resumed async (the series) and sync (6.12), recorded by pmtrace
# acpi-tables: battery.aml
. /pmlab/pmlib.sh
[ $# -ge 2 ] || fail "usage: battery.sh REPS SYNC_DEVICES..."
reps=$1
shift
case $reps in ''|*[!0-9]*|0) fail "REPS must be a positive number, got '$reps'";; esac
for s in "$@"; do
	case $s in ''|*[!0-9]*) fail "SYNC_DEVICES must be numbers, got '$s'";; esac
	[ "$s" -le 4096 ] || fail "SYNC_DEVICES: $s, pmsynth takes at most 4096"
done
[ -x /pmlab/pmtrace ] || fail "no /pmlab/pmtrace"
bat=/sys/bus/acpi/devices/PNP0C0A:00
[ -e $bat ] || fail "no ACPI battery PNP0C0A:00: the SSDT was not passed (ACPI_TABLES=build/acpi/battery.aml)"
ps=/sys/class/power_supply/BAT0
pm_setup
echo 1 > /sys/power/pm_debug_messages || fail "no /sys/power/pm_debug_messages"

teq "the battery driver is bound to PNP0C0A:00" battery \
	"$(basename "$(readlink $bat/driver 2>/dev/null)")"
teq "power_supply BAT0: a present, discharging Li-ion battery" "Battery 1 Discharging Li-ion" \
	"$(cat $ps/type $ps/present $ps/status $ps/technology 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
teq "BAT0 reports _BIF and _BST's figures (uAh, uA)" "6000000 5900000 4096000 1280000 PMLAB-BAT0" \
	"$(cat $ps/charge_full_design $ps/charge_full $ps/charge_now $ps/current_now \
	$ps/model_name 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
teq "the battery opts in to async suspend/resume (the series' patch)" enabled \
	"$(cat $bat/power/async)"

echo "echo 1 > /sys/power/pm_async && echo mem > /sys/power/state" > /tmp/cycle.sh
for nsync in "$@"; do
	if [ "$nsync" -gt 0 ]; then
		pmsynth_insmod
		{
			echo "@defaults lat=resume:1000 async=0"
			i=1
			while [ "$i" -le "$nsync" ]; do echo "sync$i"; i=$((i + 1)); done
		} > "sync-$nsync.txt"
		pmsynth_load "sync-$nsync.txt" || fail "sync-$nsync.txt refused"
	elif [ -d $PMSYNTH ]; then
		pmsynth_ctl unload || fail "pmsynth refused unload"
	fi
	echo PNP0C0A:00 > /sys/bus/acpi/drivers/battery/unbind || fail "cannot unbind the battery"
	echo PNP0C0A:00 > /sys/bus/acpi/drivers/battery/bind || fail "cannot bind the battery again"
	[ -e $ps ] && [ "$(cat $bat/power/async)" = enabled ] ||
		fail "after binding again: no $ps, or power/async $(cat $bat/power/async)"
	pm_cycle 1 || fail "warm-up transition failed"
	i=1
	while [ "$i" -le "$reps" ]; do
		for mode in async sync; do
			case $mode in async) echo enabled;; *) echo disabled;; esac > $bat/power/async
			f=battery-$nsync-$mode-$i
			dmesg -c > /dev/null
			/pmlab/pmtrace -o "$f.jsonl" -m "scenario=sync-$nsync" -m "mode=async" \
				-m "battery=$mode" -m "sync_devices=$nsync" -m "cpus=$(nproc)" \
				-m "transition=$i" -c 'sh /tmp/cycle.sh' 2> "$f.log" ||
				fail "$f: transition under pmtrace failed: $(tail -2 "$f.log")"
			kernel_times "kernel-$nsync-$mode-$i.txt"
		done
		i=$((i + 1))
	done
done
teq "power/async switches back to enabled" enabled "$(echo enabled > $bat/power/async; cat $bat/power/async)"
teq "the battery still reads after $(($# * (2 * reps + 1))) transitions" "1 Discharging" \
	"$(cat $ps/present $ps/status | tr '\n' ' ' | sed 's/ $//')"
echo "reps=$reps sync_devices=$*" > battery.txt
