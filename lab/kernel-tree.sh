#!/bin/sh
# kernel-tree.sh - prepare the lab's kernel source tree.
#
# Usage: kernel-tree.sh TARBALL TREE PATCHDIR|none
#
# Unpacks TARBALL (Debian's linux-source-6.12, or -6.1) into TREE once, records the
# pristine sources as a git commit tagged "pristine", then applies every
# patch named in PATCHDIR/series, in order, with "git am".  The tree is a
# build product: it lives in an ignored directory and is never committed to
# the project.
#
# Incremental: TREE/.pmlab-series holds a hash of the series file and every
# patch it names ("none": PATCHDIR none, the stock kernel, no patch).
# When it matches, nothing is touched (so nothing rebuilds).
# When it differs, the tree is reset to "pristine" with "git checkout", which
# only rewrites files whose contents differ, and the series is re-applied;
# files the old and the new series leave with the same contents get their
# old modification times back, so a kernel build afterwards recompiles only
# what the changed patches touch.
#
# A patch that does not apply stops with "patch NAME does not apply" and a
# non-zero exit; the tree is left at the last patch that applied and the
# stamp is removed, so the next run starts over.
set -eu

die() { echo "kernel-tree: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: kernel-tree.sh TARBALL TREE PATCHDIR|none"
tarball=$1 tree=$2 patchdir=$3
series=$patchdir/series

if [ "$patchdir" = none ]; then
	patches= want=none
else
	[ -f "$series" ] || die "no series file: $series"
	# Every name in the series, in order (comments and blank lines skipped).
	patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series")
	for p in $patches; do
		[ -f "$patchdir/$p" ] || die "patch $p is listed in $series but missing"
	done
	want=$( (cat "$series"; for p in $patches; do cat "$patchdir/$p"; done) |
		sha256sum | cut -d' ' -f1)
fi

if [ ! -f "$tree/.pmlab-pristine" ]; then
	[ -f "$tarball" ] || die "kernel source $tarball not found (apt-get install $(basename "$tarball" .tar.xz))"
	echo "kernel-tree: unpacking $tarball into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	(
		cd "$tree.tmp"
		git init -q
		git config user.name pmlab
		git config user.email pmlab@localhost
		git config core.autocrlf false
		git add -A -f .
		git commit -q -m "pristine $(basename "$tarball")"
		git tag pristine
	)
	touch "$tree.tmp/.pmlab-pristine"
	mv "$tree.tmp" "$tree"
fi

have=$(cat "$tree/.pmlab-series" 2>/dev/null || true)
if [ "$have" = "$want" ]; then
	# a hand checkout may have left an earlier patch checked out
	if [ "$(git -C "$tree" rev-parse HEAD)" != "$(git -C "$tree" rev-parse series)" ]; then
		echo "kernel-tree: back to the full series"
		git -C "$tree" checkout -q -f series
	fi
	exit 0
fi

tree=$(realpath "$tree")
keep=$tree.keep
trap 'rm -rf "$keep"' EXIT
cd "$tree"
rm -f .pmlab-series
git am --abort >/dev/null 2>&1 || true
# The files the applied series changed, kept aside with their times: going
# back to pristine and applying the series again rewrites each of them
# twice, and a file the new series leaves as it was gets its old time back
# below, so that only what the changed patches touch rebuilds (a header
# such as include/linux/pm.h otherwise rebuilds most of the kernel).
rm -rf "$keep"
if git rev-parse -q --verify series >/dev/null; then
	git -c core.quotePath=false diff --no-renames --name-only --diff-filter=AM pristine series -- 2>/dev/null |
		while IFS= read -r f; do
			[ -f "$f" ] || continue
			mkdir -p "$keep/$(dirname "$f")"
			cp -p "$f" "$keep/$f"
		done
fi
# Refresh stat info first so checkout rewrites only files whose content differs.
git update-index -q --refresh >/dev/null 2>&1 || true
git checkout -q -f -B series pristine
n=0
for p in $patches; do
	if ! git am -q --keep-cr "$patchdir/$p" >/dev/null 2>&1; then
		git am --abort >/dev/null 2>&1 || true
		die "patch $p does not apply (series: $series)"
	fi
	n=$((n + 1))
done
if [ -d "$keep" ]; then
	(cd "$keep" && find . -type f) | while read -r f; do
		! cmp -s "$keep/$f" "$f" || touch -r "$keep/$f" "$f"
	done
	rm -rf "$keep"
fi
echo "$want" > .pmlab-series
if [ "$patchdir" = none ]; then
	echo "kernel-tree: $tree is the stock kernel (no patch)"
else
	echo "kernel-tree: applied $n patch(es) from $series"
fi
