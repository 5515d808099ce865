#!/bin/sh
# make tune end to end on a board scenario (bench/tune.sh, REPS=1): the
# measuring boot, pmtune's recommendation, the boot that applies it, and
# the table of predicted against measured.  Checks behaviour, not speed:
# every set measured and predicted, as-is and all-async as the guest
# had them, the script applied as written, no device with
# unknown dependencies flipped to async, the ordering oracle quiet.
. "$(dirname "$0")/../lib.sh"
tap_plan 11
w=$BUILD/test-guest/tune
rm -rf "$w"
mkdir -p "$w"
s=dt-sdm845-db845c-realistic
REPS=1 "$TOP/bench/tune.sh" "$s" "$w" > "$w/tune.log" 2>&1
rc=$?
sed 's/^/# /' "$w/tune.log"
d=$w/$s
check "bench/tune.sh runs end to end on $s (exit $rc)" [ "$rc" = 0 ]
check "the table has all-sync, as-is, tuned and all-async, each predicted and measured" sh -c \
	"[ \$(awk '\$1 ~ /^(all-sync|as-is|tuned|all-async)\$/ && \$3 > 0 && \$4 > 0 && \$5 ~ /%\$/' '$d/tune.txt' | wc -l) -eq 4 ]"
check "the table names the clock and the scenario" sh -c \
	"grep -q 'virtual clock' '$d/tune.txt' && grep -q 'scenario $s' '$d/tune.txt'"
grep -v '^[#@]' "$d/$s.txt" | awk 'NF { print $1, / async=0( |$)/ ? "disabled" : "enabled" }' | LC_ALL=C sort \
	> "$w/asis-expected.txt"
check "as-is is the scenario's own opt-ins, device by device (power/async in the guest)" \
	cmp "$w/asis-expected.txt" "$d/measure/async-asis.txt"
check "all-async had every scenario device enabled" sh -c \
	"[ \$(grep -c ' enabled\$' '$d/measure/async-all.txt') -eq \$(wc -l < '$w/asis-expected.txt') ]"
n=$(grep -c '^echo' "$d/recommended.sh")
check "pmtune recommended power/async writes ($n)" [ "$n" -gt 0 ]
# the tuned boot's flags: as-is, with the script's writes applied
awk 'FNR == NR && /^echo/ { gsub(/\047/, "", $4); split($4, p, "/"); f[p[length(p) - 2]] = $2; next }
	FNR != NR { print $1, ($1 in f) ? f[$1] : $2 }' "$d/recommended.sh" "$d/measure/async-asis.txt" \
	> "$w/expected-flags.txt"
check "the tuned boot ran with exactly those writes applied" cmp "$w/expected-flags.txt" "$d/tuned/async-tuned.txt"
unsafe=$(grep '^echo enabled' "$d/recommended.sh" | awk '{ gsub(/\047/, "", $4); split($4, p, "/"); print p[length(p) - 2] }' |
	while read -r dev; do grep -q "^$dev .*deps=unknown" "$d/$s.txt" && echo "$dev"; done)
check "no device with deps=unknown is flipped to async${unsafe:+ (flipped: $unsafe)}" [ -z "$unsafe" ]
check "the oracle saw no ordering violation in the measuring boot" grep -qx 'violations 0' "$d/measure/oracle.txt"
check "nor with the tuned set" grep -qx 'violations 0' "$d/tuned/oracle.txt"
check "pmtune's check ran on all four transitions" sh -c "[ \$(grep -c '^run=' '$d/check.txt') -eq 4 ]"
tap_done
