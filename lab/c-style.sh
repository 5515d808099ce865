#!/bin/sh
# c-style.sh - kernel coding style for the host C (bench/, bpf/ loaders).
#
# Usage: c-style.sh FILE...
#
# Runs the tree's checkpatch.pl --strict on each file (lines within 100
# columns, no assignment inside if, ...) and flags functions whose body runs
# past 80 lines.  Ignored checkpatch types, all kernel-only advice:
# PREFER_KERNEL_TYPES (u32 etc. are not userspace types), ARRAY_SIZE,
# BIT_MACRO, PREFER_DEFINED_ATTRIBUTE_MACRO (kernel macros), VOLATILE
# (sig_atomic_t flags written by signal handlers), SPLIT_STRING (long
# messages are split to stay within 100 columns), CAMELCASE (libFuzzer's
# entry point), MACRO_ARG_UNUSED (kcompat.h's stand-ins drop GFP flags).
# Prints one line per finding; exit status 1 when there is any.
top=$(cd "$(dirname "$0")/.." && pwd)
checkpatch=${CHECKPATCH:-$top/build/linux/scripts/checkpatch.pl}
[ $# -gt 0 ] || { echo "usage: c-style.sh FILE..." >&2; exit 2; }
[ -x "$checkpatch" ] || { echo "c-style: $checkpatch missing (make tree)" >&2; exit 2; }
bad=0
for f in "$@"; do
	[ -r "$f" ] || { echo "c-style: cannot read $f" >&2; exit 2; }
	"$checkpatch" --no-tree -f --strict --terse --show-types --max-line-length=100 \
		--ignore PREFER_KERNEL_TYPES,ARRAY_SIZE,VOLATILE,SPLIT_STRING,FILE_PATH_CHANGES,CAMELCASE,BIT_MACRO,PREFER_DEFINED_ATTRIBUTE_MACRO,MACRO_ARG_UNUSED \
		"$f" | grep -E '(ERROR|WARNING|CHECK):' && bad=1
	awk -v f="$f" '
		/^\{/ { start = FNR; name = prev }
		/^\}/ && start { n = FNR - start - 1
			if (n > 80) printf "%s:%d: function body of %d lines (> 80): %s\n", f, start, n, name
			start = 0 }
		{ prev = $0 }' "$f" | grep . && bad=1
done
exit $bad
