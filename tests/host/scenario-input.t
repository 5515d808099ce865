#!/bin/sh
# The host tools' scenario reader is pmsynth's own parser: every file of
# tests/data/bad-scenarios is refused by "critpath --check" with the message
# pmsynth gives for it (tests/guest/pmsynth-badinput.t loads the same files
# into the module), exit non-zero; every shipped scenario is accepted.
. "$(dirname "$0")/../lib.sh"
d=$TOP/tests/data/bad-scenarios
tab=$(printf '\t')
tap_plan $(($(wc -l < "$d/expected") + $(ls "$TOP"/bench/scenarios/*.txt | wc -l)))
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/critpath" >/dev/null
while IFS="$tab" read -r name message; do
	"$w/critpath" --check "$d/$name.txt" > "$w/out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(cat "$w/out")" = "$d/$name.txt: $message" ]; then
		ok 0 "$name: refused, '$message'"
	else
		sed 's/^/# got: /' "$w/out"
		ok 1 "$name: refused (exit $rc), want '$message'"
	fi
done < "$d/expected"
for s in "$TOP"/bench/scenarios/*.txt; do
	"$w/critpath" --check "$s" > "$w/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$w/out"
	ok $rc "$(basename "$s"): accepted ($(cut -d: -f2 "$w/out"))"
done
tap_done
