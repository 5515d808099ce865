#!/bin/sh
# deps.sh - install the Debian packages pmlab needs, and the npm packages
# of its HTML flame graphs (idempotent).
#
# Quick when everything is present (one dpkg-query, one cmp); otherwise
# installs what is missing with apt-get, as root, and the npm packages of
# plots/package-lock.json (exact versions and hashes) into build/node with
# npm ci.  A package that cannot be installed stops with its name.
#
# Usage: deps.sh [PACKAGE...]   (more packages: linux-source-6.1 for the
# stock 6.1 kernel)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

PACKAGES="linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev
dwarves cpio xz-utils git patch file qemu-system-x86 bpftrace libbpf-dev
bpftool clang llvm trace-cmd gnuplot-nox busybox-static kmod
device-tree-compiler libfdt-dev libjson-c-dev jq python3 python3-ply python3-git pkg-config
libclang-rt-14-dev expect acpica-tools chromium parallel python3-jsonschema $*"

# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PACKAGES 2>/dev/null |
	awk '$2 == "installed" { print $1 }' || true)
missing=
for p in $PACKAGES; do
	echo "$installed" | grep -qx "$p" || missing="$missing $p"
done
# npm comes with Node.js from some sources; Debian's is a package of its own
command -v npm >/dev/null 2>&1 || missing="$missing npm"

# node_modules: build/node, installed from plots/package-lock.json
node_modules() {
	nd=$top/build/node
	cmp -s "$top/plots/package-lock.json" "$nd/installed-lock.json" &&
		[ -d "$nd/node_modules" ] && return 0
	echo "deps: npm ci (plots/package-lock.json) into build/node"
	rm -rf "$nd"
	mkdir -p "$nd"
	cp "$top/plots/package.json" "$top/plots/package-lock.json" "$nd/"
	(cd "$nd" && npm ci --no-audit --no-fund --loglevel=error > "$nd/npm.log" 2>&1) || {
		echo "deps: npm ci failed (log: $nd/npm.log)" >&2
		exit 1
	}
	cp "$top/plots/package-lock.json" "$nd/installed-lock.json"
}
if [ -z "$missing" ]; then
	node_modules
	exit 0
fi

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
node_modules
echo "deps: done"
