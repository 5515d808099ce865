#!/bin/sh
# kernel-tree.sh: the series applies in order, only when it changed, and a
# patch that does not apply is reported by name.  Runs on a small stand-in
# tarball, then checks the real tree carries the real series.
. "$(dirname "$0")/../lib.sh"
tap_plan 13

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/src/linux-x/drivers" "$w/patches"
printf 'one\ntwo\nthree\n' > "$w/src/linux-x/drivers/a.c"
printf 'untouched\n' > "$w/src/linux-x/drivers/b.c"
printf 'cee\n' > "$w/src/linux-x/drivers/c.c"
tar -C "$w/src" -cJf "$w/linux.tar.xz" linux-x

mkpatch() {	# mkpatch NAME FROM TO SUBJECT [FILE]
	(
		cd "$w" && rm -rf g && cp -r src/linux-x g && cd g &&
		git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm base &&
		sed -i "s/$2/$3/" "drivers/${5:-a.c}" &&
		git -c user.name=t -c user.email=t@t commit -qam "$4" &&
		git format-patch -q -1 --stdout > "$w/patches/$1"
	)
}
mkpatch 0001-one.patch one ONE "x: change one"
printf '0001-one.patch\n' > "$w/patches/series"

tree=$w/tree
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
ok $? "first run unpacks and applies the series"
check "patched file has the change" grep -qx ONE "$tree/drivers/a.c"
check "the patch is a commit on top of pristine" \
	sh -c "git -C '$tree' log --format=%s pristine..HEAD | grep -qx 'x: change one'"

touch -d '2000-01-01' "$tree/drivers/a.c" "$tree/drivers/b.c"
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
check "unchanged series touches nothing (no rebuild)" \
	sh -c "[ \$(stat -c %Y '$tree/drivers/a.c') -eq \$(date -d 2000-01-01 +%s) ]"

mkpatch 0001-one.patch one UNO "x: change one differently"
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
check "a changed patch is re-applied from pristine" grep -qx UNO "$tree/drivers/a.c"
check "files the series does not touch keep their time (incremental)" \
	sh -c "[ \$(stat -c %Y '$tree/drivers/b.c') -eq \$(date -d 2000-01-01 +%s) ]"

# Two patches, the second changed: the file only the first touches comes
# back with its old time (its contents are the same), so only the second's
# file rebuilds.
mkpatch 0002-c.patch cee CEE "x: change c" c.c
printf '0001-one.patch\n0002-c.patch\n' > "$w/patches/series"
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
touch -d '2000-01-01' "$tree/drivers/a.c" "$tree/drivers/c.c"
mkpatch 0002-c.patch cee SEE "x: change c differently" c.c
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
check "the changed second patch is applied" sh -c "grep -qx SEE '$tree/drivers/c.c' && grep -qx UNO '$tree/drivers/a.c'"
check "the first patch's file, the same as before, keeps its time (not rebuilt)" \
	sh -c "[ \$(stat -c %Y '$tree/drivers/a.c') -eq \$(date -d 2000-01-01 +%s) ] && [ \$(stat -c %Y '$tree/drivers/c.c') -ne \$(date -d 2000-01-01 +%s) ]"

# A second patch whose context is wrong.
cat > "$w/patches/0002-broken.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: t <t@t>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] x: broken

---
 drivers/a.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/drivers/a.c b/drivers/a.c
--- a/drivers/a.c
+++ b/drivers/a.c
@@ -1,3 +1,3 @@
 nothing
-like
+this
 here
P
printf '0001-one.patch\n0002-broken.patch\n' > "$w/patches/series"
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
ok $((! $?)) "a patch that does not apply fails the run"
check "the failure names the patch" contains "$w/out" "patch 0002-broken.patch does not apply"
check "no stamp is left after a failed apply" test ! -e "$tree/.pmlab-series"

printf '0001-one.patch\n0003-missing.patch\n' > "$w/patches/series"
"$TOP/lab/kernel-tree.sh" "$w/linux.tar.xz" "$tree" "$w/patches" > "$w/out" 2>&1
check "a series entry without a file is named" contains "$w/out" "patch 0003-missing.patch is listed"

# The real lab tree carries exactly the real series, in order.
want=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" |
	while read -r p; do git mailinfo /dev/null /dev/null < "$TOP/patches/$p" | sed -n 's/^Subject: //p'; done)
have=$(git -C "$BUILD/linux" log --reverse --format=%s pristine..series 2>/dev/null)
check "build/linux carries patches/series in order" [ "$want" = "$have" ]
tap_done
