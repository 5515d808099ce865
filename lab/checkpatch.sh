#!/bin/sh
# checkpatch.sh - scripts/checkpatch.pl --strict over every patch of the
# series, with the checkpatch.pl of the lab tree.
#
# Usage: checkpatch.sh TREE PATCHDIR
# Prints each patch's findings; exits 1 if any patch has an error, a
# warning or a check.  Debian's python3 is put first in PATH because
# checkpatch's SPDX check runs scripts/spdxcheck.py (python3-ply, -git).
set -u
tree=$(realpath "$1") patchdir=$(realpath "$2")
# checkpatch.pl must run from inside the kernel tree: from another git
# checkout it misreads blank context lines as trailing whitespace.
cd "$tree" || exit 1
export PATH=/usr/bin:/bin:$PATH
bad=0
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series"); do
	out=$(scripts/checkpatch.pl --strict --terse "$patchdir/$p" 2>&1)
	total=$(scripts/checkpatch.pl --strict "$patchdir/$p" 2>&1 | grep '^total:')
	if [ "$total" = "total: 0 errors, 0 warnings, 0 checks, ${total##*checks, }" ] &&
	   ! echo "$out" | grep -q 'Traceback'; then
		echo "checkpatch: $p: clean ($total)"
	else
		echo "checkpatch: $p: $total"
		echo "$out" | sed 's/^/    /'
		bad=1
	fi
done
exit $bad
