#!/bin/sh
# kernel-config.sh - produce the lab kernel's .config.
#
# Usage: kernel-config.sh TREE OBJDIR FRAGMENT...
#
# Starts from "make tinyconfig" (ARCH=x86_64), merges each FRAGMENT in order
# with scripts/kconfig/merge_config.sh, resolves with olddefconfig, then
# checks that every option a fragment names has the value it asked for: an
# option that Kconfig silently dropped (missing dependency, typo) stops here
# with its name instead of producing a kernel without it.
#
# M= is cleared for every make here: "make module M=dir" exports M.
# The result is built in a scratch directory and copied to OBJDIR/.config
# only when it differs, so an unchanged fragment never triggers a rebuild.
set -eu

die() { echo "kernel-config: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: kernel-config.sh TREE OBJDIR FRAGMENT..."
tree=$(realpath "$1") obj=$2
shift 2
for f in "$@"; do
	[ -f "$f" ] || die "fragment $f not found"
done

scratch=$obj.cfg
rm -rf "$scratch"
mkdir -p "$scratch" "$obj"
scratch=$(realpath "$scratch")

make -s -C "$tree" O="$scratch" ARCH=x86_64 M= tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$scratch" \
	"$scratch/.config" "$@" >"$scratch/merge.log" 2>&1 ||
	die "merge_config.sh failed, see $scratch/merge.log"
make -s -C "$tree" O="$scratch" ARCH=x86_64 M= olddefconfig >/dev/null

# Check every requested value (later fragments override earlier ones).
bad=$(cat "$@" | awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { split($0, kv, "="); want[kv[1]] = $0; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "# " $2 " is not set" }
	END { for (k in want) print want[k] }' |
	while IFS= read -r line; do
		case $line in
		"# "*)	opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$scratch/.config" || echo "$opt (wanted: not set)";;
		*)	got=$(sed -n "s/^${line%%=*}=//p" "$scratch/.config")
			grep -qxF "$line" "$scratch/.config" ||
				echo "${line%%=*} (wanted: ${line#*=}, got: ${got:-not set})";;
		esac
	done)
[ -z "$bad" ] || die "options not set as requested by $*:
$bad"

if ! cmp -s "$scratch/.config" "$obj/.config"; then
	cp "$scratch/.config" "$obj/.config"
	echo "kernel-config: $obj/.config updated"
fi
rm -rf "$scratch"
