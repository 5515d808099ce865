#!/bin/sh
# Every patch of the series passes checkpatch.pl --strict of the lab tree
# with no error, warning or check; and the gate does fail a bad patch.
. "$(dirname "$0")/../lib.sh"
n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" | wc -l)
tap_plan $((n + 3))
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$TOP/lab/checkpatch.sh" "$BUILD/linux" "$TOP/patches" > "$w/out" 2>&1
ok $? "make checkpatch: the series is clean"
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series"); do
	check "$p: 0 errors, 0 warnings, 0 checks" grep -q "^checkpatch: $p: clean (total: 0 errors, 0 warnings, 0 checks" "$w/out"
done
mkdir "$w/bad"
first=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" | head -1)
# the first patch without its Signed-off-by and with a trailing blank
sed -e '/^Signed-off-by:/d' -e 's/^+\(static enum suspend_stat_step dpm_phase;\)$/+\1 /' \
	"$TOP/patches/$first" > "$w/bad/$first"
echo "$first" > "$w/bad/series"
"$TOP/lab/checkpatch.sh" "$BUILD/linux" "$w/bad" > "$w/out" 2>&1
ok $((! $?)) "a patch without Signed-off-by and with trailing whitespace fails"
check "the findings are printed with the patch name" \
	sh -c "grep -q 'Missing Signed-off-by' '$w/out' && grep -q 'trailing whitespace' '$w/out' && grep -q '$first' '$w/out'"
tap_done
