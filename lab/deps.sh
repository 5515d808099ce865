#!/bin/sh
# deps.sh - install the Debian packages pmlab needs (idempotent).
#
# Quick when everything is present (one dpkg-query); otherwise installs
# what is missing with apt-get, as root.  A package that cannot be
# installed stops with its name.
set -eu

PACKAGES="linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev
dwarves cpio xz-utils git patch file qemu-system-x86 bpftrace libbpf-dev
bpftool clang llvm trace-cmd gnuplot-nox busybox-static kmod
device-tree-compiler libfdt-dev libjson-c-dev jq python3 python3-ply python3-git pkg-config
libclang-rt-14-dev expect acpica-tools"

# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PACKAGES 2>/dev/null |
	awk '$2 == "installed" { print $1 }' || true)
missing=
for p in $PACKAGES; do
	echo "$installed" | grep -qx "$p" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing; run 'make deps' as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || { echo "deps: apt-get update failed" >&2; exit 1; }
for p in $missing; do
	apt-get install -y -q --no-install-recommends "$p" >/tmp/pmlab-deps.log 2>&1 || {
		echo "deps: cannot install package $p (apt-get log: /tmp/pmlab-deps.log)" >&2
		exit 1
	}
done
echo "deps: done"
