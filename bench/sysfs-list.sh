#!/bin/sh
# sysfs-list.sh - the two lists sysfs2scen reads, made on the machine to
# import (any user; it only reads sysfs), to copy and import anywhere.
#
# Usage: sysfs-list.sh OUTDIR [SYSFS]     (SYSFS default /sys)
# Writes OUTDIR/devices.txt: a device directory a line, then a tab and
# what sysfs2scen takes from it (subsystem=bus/NAME|class/NAME,
# async=enabled|disabled from power/async where the kernel shows it,
# pm=0|1 (whether it has power/: a device the PM core leaves out has
# none), of_node=0|1, waiting_for_supplier=0|1); OUTDIR/links.txt: "SUPPLIER
# CONSUMER" per /sys/class/devlink entry.  Then: sysfs2scen
# OUTDIR/devices.txt OUTDIR/links.txt > machine.txt
set -eu
die() { echo "sysfs-list: $*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: sysfs-list.sh OUTDIR [SYSFS]"
out=$1 sys=${2:-/sys}
[ -d "$sys/devices" ] || die "$sys/devices: not a sysfs (no devices directory)"
mkdir -p "$out"
# busybox find has no -printf: the uevent files' directories by sed
find "$sys/devices" -name uevent > "$out/uevents.tmp" || die "find $sys/devices failed"
sed 's,/uevent$,,' "$out/uevents.tmp" > "$out/dirs.tmp"
rm -f "$out/uevents.tmp"
[ -s "$out/dirs.tmp" ] || { rm -f "$out/dirs.tmp"; die "$sys/devices: no device (no uevent file)"; }
while read -r d; do
	a=
	if s=$(readlink "$d/subsystem" 2>/dev/null); then
		a="subsystem=$(basename "$(dirname "$s")")/$(basename "$s")"
	fi
	v=$(cat "$d/power/async" 2>/dev/null || true)
	case $v in enabled|disabled) a="$a async=$v";; esac
	if [ -d "$d/power" ]; then a="$a pm=1"; else a="$a pm=0"; fi
	if [ -e "$d/of_node" ]; then a="$a of_node=1"; else a="$a of_node=0"; fi
	v=$(cat "$d/waiting_for_supplier" 2>/dev/null || true)
	case $v in 0|1) a="$a waiting_for_supplier=$v";; esac
	printf '%s\t%s\n' "$d" "${a# }"
done < "$out/dirs.tmp" > "$out/devices.txt.tmp"
rm -f "$out/dirs.tmp"
for l in "$sys"/class/devlink/*; do
	[ -e "$l/supplier" ] || continue
	echo "$(readlink -f "$l/supplier") $(readlink -f "$l/consumer")"
done > "$out/links.txt.tmp"
mv "$out/devices.txt.tmp" "$out/devices.txt"
mv "$out/links.txt.tmp" "$out/links.txt"
echo "sysfs-list: $(wc -l < "$out/devices.txt") devices, $(wc -l < "$out/links.txt") device links in $out"
