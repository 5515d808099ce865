#!/bin/sh
# run-tests: background
# The series is bisectable: the kernel builds after each patch on top of
# its predecessors (lab/bisect-series.sh: a worktree and objdir of their
# own in build/bisect, the lab configuration without debug info), and the
# lab tree is left as it was.
. "$(dirname "$0")/../lib.sh"
n=$(git -C "$BUILD/linux" rev-list --count pristine..series)
tap_plan $((n + 2))
before=$(git -C "$BUILD/linux" rev-parse HEAD; stat -c %Y "$BUILD/linux/include/linux/pm.h")
"$TOP/lab/bisect-series.sh" "$BUILD/linux" "$BUILD/bisect" > "$BUILD/bisect.out" 2>&1
ok $? "every patch builds"
i=1
while [ $i -le "$n" ]; do
	line=$(sed -n "${i}p" "$BUILD/bisect.out")
	# the subject may hold any character: passed as an argument, not in the script
	check "patch $i builds: ${line#* * }" sh -c 'case $1 in "ok $2 "*) exit 0;; esac; exit 1' sh "$line" "$i"
	i=$((i + 1))
done
check "the lab tree is untouched (its HEAD and pm.h's time stamp)" \
	[ "$(git -C "$BUILD/linux" rev-parse HEAD; stat -c %Y "$BUILD/linux/include/linux/pm.h")" = "$before" ]
tap_done
