#!/bin/sh
# Kernel coding style for the host C (lab/c-style.sh: checkpatch --strict
# with a few userspace exceptions, lines within 100 columns, no assignment
# inside if, function bodies within 80 lines): one check per file.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
files=$(ls bench/*.c bench/*.h bench/fuzz/*.c bpf/*.c bpf/*.h lab/guest/*.c)
tap_plan $(echo "$files" | wc -l)
for f in $files; do
	lab/c-style.sh "$f" > "$TOP/results/c-style.out" 2>&1
	_rc=$?
	sed 's/^/# /' "$TOP/results/c-style.out"
	ok $_rc "$f: kernel style"
done
rm -f "$TOP/results/c-style.out"
tap_done
