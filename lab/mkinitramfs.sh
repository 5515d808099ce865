#!/bin/sh
# mkinitramfs.sh - build the guest's base initramfs (newc cpio, uncompressed).
#
# Usage: mkinitramfs.sh OUT.cpio GUESTDIR [EXTRA_BINARY...]
# With LEAN=1: busybox, the init and its library only (make soak's guests:
# 2 MB instead of 204, so a boot unpacks less and hibernation's snapshot
# has less memory in use to preallocate: 13 s of a 14 s test transition
# on the debug kernel with the full archive).
#
# Carries busybox (static), bpftrace, bpftool, trace-cmd, setpriv and every EXTRA
# binary, each with the shared libraries ldd resolves on this host, copied to
# the same paths, plus the guest init and helper library from GUESTDIR.
# Guest tools live in RAM because a virtio-9p root does not survive a device
# suspend/resume cycle.
#
# The archive is written to OUT.cpio.tmp and renamed only when complete.
set -eu

die() { echo "mkinitramfs: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: mkinitramfs.sh OUT.cpio GUESTDIR [EXTRA_BINARY...]"
out=$1 guest=$2
shift 2

stage=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-initramfs.XXXXXX")
trap 'rm -rf "$stage" "$out.tmp"' EXIT

copy() {	# copy FILE to the same path under the stage, keeping links
	src=$1
	[ -e "$src" ] || die "$src not found on the host"
	mkdir -p "$stage$(dirname "$src")"
	cp -L "$src" "$stage$src"
}

tool() {	# copy an executable and the libraries it needs
	path=$(command -v "$1") || die "$1 not found (make deps installs it)"
	path=$(readlink -f "$path")
	copy "$path"
	mkdir -p "$stage/usr/bin"
	[ -e "$stage/usr/bin/$(basename "$1")" ] ||
		ln -s "$path" "$stage/usr/bin/$(basename "$1")"
	ldd "$path" 2>/dev/null | awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]+ \(/ { print $1 }' |
	while read -r lib; do
		[ -e "$stage$lib" ] || copy "$lib"
	done
}

mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" "$stage/results" \
	"$stage/pmlab" "$stage/lib64" "$stage/lib/modules"
cp /bin/busybox "$stage/bin/busybox"
file -L "$stage/bin/busybox" | grep -q 'statically linked' ||
	die "/bin/busybox is not static (install busybox-static)"
ln -s busybox "$stage/bin/sh"

tools="bpftrace bpftool trace-cmd setpriv"
[ "${LEAN:-}" != 1 ] || tools=
for t in $tools "$@"; do
	tool "$t"
done
# trace-cmd's event-format plugins (optional output beautifiers).
if [ -n "$tools" ] && [ -d /usr/lib/x86_64-linux-gnu/traceevent/plugins ]; then
	mkdir -p "$stage/usr/lib/x86_64-linux-gnu/traceevent"
	cp -r /usr/lib/x86_64-linux-gnu/traceevent/plugins \
		"$stage/usr/lib/x86_64-linux-gnu/traceevent/"
fi

cp "$guest/init" "$stage/init"
chmod 755 "$stage/init"
cp "$guest/pmlib.sh" "$stage/pmlab/pmlib.sh"

(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet --owner=0:0) > "$out.tmp"
mv "$out.tmp" "$out"
trap 'rm -rf "$stage"' EXIT
echo "mkinitramfs: $out ($(du -h "$out" | cut -f1))"
