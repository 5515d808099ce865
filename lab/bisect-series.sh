#!/bin/sh
# bisect-series.sh - build the kernel after each patch of the series.
#
# Usage: bisect-series.sh TREE WORKDIR
# TREE is the lab tree (kernel-tree.sh made it: branch "series" on top of
# tag "pristine").  The patches are checked out one by one in a worktree of
# TREE, WORKDIR/linux, and built incrementally in WORKDIR/obj with the lab
# kernel's configuration minus debug info (lab/kernel-bisect.config): TREE
# and the lab's build directories are never touched, so nothing the other
# tests use rebuilds afterwards.  Prints "ok N SUBJECT" or "FAIL N SUBJECT"
# per patch; exits 1 if any patch does not build on top of its
# predecessors, 2 on a setup error.
set -u
tree=$1 work=$2
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-3}
die() { echo "bisect-series: $*" >&2; exit 2; }
git -C "$tree" rev-parse -q --verify series >/dev/null || die "$tree has no series branch"
commits=$(git -C "$tree" rev-list --reverse pristine..series)
[ -n "$commits" ] || die "$tree: no patches between pristine and series"
mkdir -p "$work" || die "cannot create $work"
work=$(realpath "$work")
wt=$work/linux obj=$work/obj
# A worktree left by an earlier run is reused (checkouts rewrite only the
# files that differ); one whose TREE was unpacked again is made anew.
if [ "$(git -C "$wt" rev-parse --git-common-dir 2>/dev/null)" != "$(realpath "$tree")/.git" ]; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" pristine ||
		die "cannot add a worktree of $tree at $wt"
fi
git -C "$wt" checkout -q --detach "$(echo "$commits" | head -1)" || die "cannot check out the first patch"
"$top/lab/kernel-config.sh" "$wt" "$obj" "$top/lab/kernel.config" "$top/lab/kernel-bisect.config" >/dev/null ||
	die "cannot configure $obj"
status=0
k=0
for c in $commits; do
	k=$((k + 1))
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c" || die "cannot check out $c"
	if make -s -C "$wt" O="$obj" ARCH=x86_64 M= -j"$jobs" bzImage modules > "$work/patch-$k.log" 2>&1; then
		echo "ok $k $subject"
	else
		echo "FAIL $k $subject (log: $work/patch-$k.log)"
		status=1
	fi
done
exit $status
