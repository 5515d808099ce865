#!/bin/sh
# The series is bisectable: the kernel builds after each patch on top of
# its predecessors (incremental builds in build/obj; the full series is
# rebuilt at the end).
. "$(dirname "$0")/../lib.sh"
n=$(git -C "$BUILD/linux" rev-list --count pristine..series)
tap_plan $((n + 1))
"$TOP/lab/bisect-series.sh" "$BUILD/linux" "$BUILD/obj" > "$BUILD/bisect.out" 2>&1
ok $? "every patch builds"
i=1
while [ $i -le "$n" ]; do
	line=$(sed -n "${i}p" "$BUILD/bisect.out")
	# the subject may hold any character: passed as an argument, not in the script
	check "patch $i builds: ${line#* * }" sh -c 'case $1 in "ok $2 "*) exit 0;; esac; exit 1' sh "$line" "$i"
	i=$((i + 1))
done
_head=$(git -C "$BUILD/linux" rev-parse --abbrev-ref HEAD)
[ "$_head" = series ] || echo "# tree left on $_head, not series"
tap_done
