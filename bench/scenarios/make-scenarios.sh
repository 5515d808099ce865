#!/bin/sh
# make-scenarios.sh - (re)write the shipped scenarios of this folder.
#
# Usage: make-scenarios.sh TOOLDIR KERNEL_TREE OUTDIR [--machine]
#
# Generated shapes come from scengen; board scenarios from the arm64 device
# trees of KERNEL_TREE (dt2scen reads each .dts: cpp and dtc as the
# kernel's build runs them).  --machine also re-imports this machine's sysfs into
# machine-<hostname>.txt (not reproducible elsewhere, so not part of the
# reproducibility test).  Everything is seeded: the same inputs give the
# same files, byte for byte.
set -eu
die() { echo "make-scenarios: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: make-scenarios.sh TOOLDIR KERNEL_TREE OUTDIR [--machine]"
tools=$1 tree=$2 out=$3
mkdir -p "$out"

gen() {	# gen NAME ARGS...
	name=$1
	shift
	"$tools/scengen" "$@" > "$out/$name.txt.tmp" && mv "$out/$name.txt.tmp" "$out/$name.txt"
}
gen tree-100 tree -n 100 --fanout 4
gen tree-500 tree -n 500 --fanout 4
gen tree-1000 tree -n 1000 --fanout 4
gen chain-100 chain -n 100
gen star-500 star -n 500
gen dag-100 dag -n 100 --links 1.5 --seed 100
gen dag-500 dag -n 500 --links 1.5 --seed 500
gen dag-1000 dag -n 1000 --links 1.5 --seed 1000
gen dag-1000-spin dag -n 1000 --links 1.5 --seed 1000 --defaults "mode=all:spin lat=system:100"

# Boards: name, then the dts under arch/arm64/boot/dts.
while read -r name dts; do
	src=$tree/arch/arm64/boot/dts/$dts
	[ -f "$src" ] || die "$src not found"
	# dt2scen runs cpp and dtc itself, as the kernel's build does; each
	# board twice: every device async, and async as 6.12 makes it
	for v in all-async realistic; do
		f=$name
		opt=--all-async
		[ $v = all-async ] || { f=$name-$v; opt=; }
		# shellcheck disable=SC2086
		"$tools/dt2scen" $opt --kernel-tree "$tree" \
			--source "arch/arm64/boot/dts/$dts (linux-source-6.12)" \
			"$src" > "$out/$f.txt.tmp" 2>/dev/null ||
			die "dt2scen failed on $dts"
		mv "$out/$f.txt.tmp" "$out/$f.txt"
	done
done <<'BOARDS'
dt-gs101-oriole exynos/google/gs101-oriole.dts
dt-sdm845-db845c qcom/sdm845-db845c.dts
dt-rk3588-rock-5b rockchip/rk3588-rock-5b.dts
dt-imx8mp-evk freescale/imx8mp-evk.dts
dt-sm8550-qrd qcom/sm8550-qrd.dts
BOARDS

if [ "${4:-}" = --machine ]; then
	w=$(mktemp -d)
	"$(dirname "$0")/../sysfs-list.sh" "$w" > /dev/null
	"$tools/sysfs2scen" --source "sysfs of $(hostname) ($(uname -r), $(date -u +%Y-%m-%d))" \
		"$w/devices.txt" "$w/links.txt" > "$out/machine-$(hostname).txt"
	rm -rf "$w"
fi
