#!/bin/sh
# kvm-probe.sh - does a KVM guest boot this kernel on this machine?
#
# Usage: kvm-probe.sh BZIMAGE   (exit 0: yes, 1: no)
#
# On these machines /dev/kvm exists but nested KVM guests hang at kernel
# entry, so KVM is used only after a short probe boot (busybox-only
# initramfs that prints a marker and powers off) succeeds.  The answer is
# cached per kernel image in build/kvm-probe.<sha>; the log of the last
# probe is build/kvm-probe.log.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(dirname "$here")/build
kernel=$1
[ -r /dev/kvm ] && [ -w /dev/kvm ] || exit 1

key=$(cat "$kernel" | sha256sum | cut -c1-16)
cache=$build/kvm-probe.$key
if [ -f "$cache" ]; then
	exit "$(cat "$cache")"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-probe.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root/bin"
cp /bin/busybox "$work/root/bin/busybox"
cat > "$work/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox echo PMLAB-KVM-PROBE-OK
/bin/busybox poweroff -f
INIT
chmod 755 "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet --owner=0:0) > "$work/probe.cpio"

timeout -s KILL 30 qemu-system-x86_64 -machine pc -nodefaults -no-user-config \
	-display none -no-reboot -accel kvm -cpu host -smp 1 -m 256M \
	-kernel "$kernel" -initrd "$work/probe.cpio" \
	-append "console=ttyS0 panic=-1" -serial "file:$build/kvm-probe.log" \
	</dev/null >/dev/null 2>&1 || true
if grep -q PMLAB-KVM-PROBE-OK "$build/kvm-probe.log" 2>/dev/null; then
	echo 0 > "$cache"
else
	echo 1 > "$cache"
fi
exit "$(cat "$cache")"
