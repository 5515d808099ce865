#!/bin/sh
# bisect-series.sh - build the kernel after each patch of the series.
#
# Usage: bisect-series.sh TREE OBJDIR
# TREE is the lab tree (kernel-tree.sh made it: branch "series" on top of
# tag "pristine").  For each patch in turn the tree is checked out at that
# patch and bzImage is rebuilt incrementally in OBJDIR; at the end the
# tree is back on "series" and rebuilt, so OBJDIR holds the full series
# again.  Prints "ok N SUBJECT" or "FAIL N SUBJECT" per patch; exits 1 if
# any patch does not build on top of its predecessors.
set -u
tree=$1 obj=$2
jobs=${JOBS:-3}
die() { echo "bisect-series: $*" >&2; exit 2; }
git -C "$tree" rev-parse -q --verify series >/dev/null || die "$tree has no series branch"
commits=$(git -C "$tree" rev-list --reverse pristine..series)
status=0
k=0
restore() {
	git -C "$tree" checkout -q series
	make -s -C "$tree" O="$obj" ARCH=x86_64 M= -j"$jobs" bzImage modules >/dev/null 2>&1
}
trap restore EXIT
for c in $commits; do
	k=$((k + 1))
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$tree" checkout -q "$c" || die "cannot check out $c"
	if make -s -C "$tree" O="$obj" ARCH=x86_64 M= -j"$jobs" bzImage > "$obj/bisect-$k.log" 2>&1; then
		echo "ok $k $subject"
	else
		echo "FAIL $k $subject (log: $obj/bisect-$k.log)"
		status=1
	fi
done
exit $status
