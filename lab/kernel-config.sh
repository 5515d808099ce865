#!/bin/sh
# kernel-config.sh - produce the lab kernel's .config.
#
# Usage: kernel-config.sh TREE OBJDIR FRAGMENT...
#
# Starts from "make tinyconfig" (ARCH=x86_64), merges each FRAGMENT in order
# with scripts/kconfig/merge_config.sh, resolves with olddefconfig, then
# checks that every option a fragment names has the value it asked for: an
# option that Kconfig silently dropped (missing dependency, typo) stops here
# with its name instead of producing a kernel without it (ALLOW_UNKNOWN=1:
# one the tree's Kconfig does not define at all is named and left out).
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
# With ALLOW_UNKNOWN=1 (an older tree than the fragments were written
# for: make kernel LINUX=6.1), an option this tree's Kconfig does not
# define is left out, said once; one it defines but could not set is an
# error either way (and without ALLOW_UNKNOWN a name Kconfig does not know
# is a typo: an error).
unknown=
if [ -n "$bad" ] && [ "${ALLOW_UNKNOWN:-}" = 1 ]; then
	defined=$(find "$tree" -name 'Kconfig*' -exec sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\2/p' {} + | sort -u)
	bad=$(echo "$bad" | while IFS= read -r line; do
		opt=${line%% *}
		if echo "$defined" | grep -qx "${opt#CONFIG_}"; then
			echo "$line"
		else
			echo "UNKNOWN $opt"
		fi
	done)
	unknown=$(echo "$bad" | sed -n 's/^UNKNOWN //p' | tr '\n' ' ')
	bad=$(echo "$bad" | grep -v '^UNKNOWN ' || true)
fi
[ -z "$unknown" ] || echo "kernel-config: not in this kernel's Kconfig, left out: $unknown" >&2
[ -z "$bad" ] || die "options not set as requested by $*:
$bad"

if ! cmp -s "$scratch/.config" "$obj/.config"; then
	cp "$scratch/.config" "$obj/.config"
	echo "kernel-config: $obj/.config updated"
fi
rm -rf "$scratch"
