#!/bin/sh
# own-kernel.sh - get your own kernel ready for the lab: check its .config
# against lab/kernel-required.config and build pmsynth.ko for it.
#
# Usage: own-kernel.sh KSRC OUTDIR
#
# KSRC is the kernel's build directory (where "make" left .config and
# Module.symvers: the O= directory, or the source tree, or a distribution's
# /lib/modules/RELEASE/build).  pmsynth's sources are copied to OUTDIR and
# built there with "make -C KSRC M=OUTDIR"; nothing is written to KSRC.
# A missing option, or a KSRC that is not a configured kernel build, is
# refused with its name before anything is built.  The serial console
# needs at least two 8250 ports (results leave over the second).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "own-kernel: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: own-kernel.sh KSRC OUTDIR"
ksrc=$1 out=$2
[ -n "$ksrc" ] || die "set KSRC=<your kernel's build directory> (where its .config is)"
[ -d "$ksrc" ] || die "KSRC $ksrc is not a directory (your kernel's build directory, with .config and Module.symvers)"
[ -f "$ksrc/.config" ] || die "KSRC $ksrc has no .config: not a configured kernel build directory (set KSRC=)"
[ -f "$ksrc/Makefile" ] || die "KSRC $ksrc has no Makefile: not a kernel build directory (set KSRC=)"

missing=
while read -r want why; do
	case $want in ''|\#*) continue;; esac
	opt=${want%%=*} val=${want#*=}
	have=$(sed -n "s/^$opt=//p" "$ksrc/.config")
	[ "$have" = "$val" ] || missing="$missing
  $opt=$val (${have:-not set}): $why"
done < "$here/kernel-required.config"
uarts=$(sed -n 's/^CONFIG_SERIAL_8250_RUNTIME_UARTS=//p' "$ksrc/.config")
[ "${uarts:-0}" -ge 2 ] 2>/dev/null || missing="$missing
  CONFIG_SERIAL_8250_RUNTIME_UARTS>=2 (${uarts:-not set}): the results channel on ttyS1"
[ -z "$missing" ] || die "$ksrc/.config lacks what the lab needs (lab/kernel-required.config):$missing"
[ -f "$ksrc/Module.symvers" ] ||
	die "KSRC $ksrc has no Module.symvers: build the kernel there first (make modules_prepare is not enough for pmsynth's symbols)"

mkdir -p "$out"
cp -p "$here"/pmsynth/Kbuild "$here"/pmsynth/*.c "$here"/pmsynth/*.h "$out/"
make -C "$ksrc" -s M="$(cd "$out" && pwd)" modules ||
	die "pmsynth does not build against $ksrc (log above)"
echo "own-kernel: $out/pmsynth.ko built for $(cat "$ksrc/include/config/kernel.release" 2>/dev/null || echo "$ksrc")"
