#!/bin/sh
# Nothing changed means nothing rebuilt: a second "make kernel initramfs"
# leaves bzImage, .config and the initramfs as they were.
. "$(dirname "$0")/../lib.sh"
tap_plan 4
img=$BUILD/obj/arch/x86/boot/bzImage
cfg=$BUILD/obj/.config
ird=$BUILD/initramfs.cpio
before=$(stat -c %Y:%s "$img" "$cfg" "$ird" 2>/dev/null | tr '\n' ' ')
start=$(date +%s)
make -s -C "$TOP" kernel initramfs > "$BUILD/incremental.log" 2>&1
ok $? "make kernel initramfs succeeds"
after=$(stat -c %Y:%s "$img" "$cfg" "$ird" 2>/dev/null | tr '\n' ' ')
echo "# no-op make took $(($(date +%s) - start))s"
set -- $before
b_img=$1 b_cfg=$2 b_ird=$3
set -- $after
check "bzImage not rebuilt" [ "$b_img" = "$1" ]
check ".config not rewritten" [ "$b_cfg" = "$2" ]
check "initramfs not rebuilt" [ "$b_ird" = "$3" ]
tap_done
