#!/bin/sh
# bench/soak.sh refuses bad settings before it makes or boots anything
# (the cause named, exit non-zero, nothing on stdout, no OUTDIR), and
# writes seeded rounds: the same seed the same rounds (DRY=1, no guest).
. "$(dirname "$0")/../lib.sh"
tap_plan 14
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
s=$TOP/bench/soak.sh
refuses() {	# refuses DESCRIPTION MESSAGE ENV...
	_d=$1 _m=$2
	shift 2
	tool_refuses "$w" env "$_d" "$_m" "$@" "$s" "$w/soakdir"
}
refuses "ROUNDS not a number" "ROUNDS must be a positive number, got 'x'" ROUNDS=x
refuses "MAX_DEVICES below 10" "MAX_DEVICES must be 10..4096, got 5" MAX_DEVICES=5
refuses "ONLY past the rounds" "ONLY=9: there are 3 rounds" ROUNDS=3 ONLY=9
refuses "an unknown SOAK_BREAK" "SOAK_BREAK must be oracle or empty, got 'x'" SOAK_BREAK=x
refuses "an unknown SOAK_KERNEL" "SOAK_KERNEL must be debug or lab, got 'x'" SOAK_KERNEL=x
check "none of them made OUTDIR" [ ! -e "$w/soakdir" ]
mkdir "$w/mine"
echo keep > "$w/mine/file"
tool_refuses "$w" env "an OUTDIR that is not a soak's is not replaced" "is not a soak's results: not replacing it" \
	DRY=1 SOAK_KERNEL=lab "$s" "$w/mine"
check "and its file is still there" grep -qx keep "$w/mine/file"
DRY=1 SEED=3 ROUNDS=5 "$s" "$w/a" > /dev/null 2>&1
DRY=1 SEED=3 ROUNDS=5 "$s" "$w/b" > /dev/null 2>&1
check "the same seed writes the same 5 rounds" \
	sh -c "[ \$(ls '$w/a/rounds' | wc -l) -eq 5 ] && diff -r '$w/a/rounds' '$w/b/rounds' >/dev/null"
DRY=1 SEED=3 ROUNDS=5 ONLY=004 "$s" "$w/c" > /dev/null 2>&1
check "ONLY=004 writes round 4 alone, as the full run wrote it" \
	sh -c "[ \$(ls '$w/c/rounds') = 0004 ] && diff -r '$w/a/rounds/0004' '$w/c/rounds/0004' >/dev/null"
check "the plans hibernate as well as suspend (kinds mem, freeze and disk), nothing else" sh -c \
	"cat '$w'/a/rounds/*/plan.txt | awk '{ k[\$2]++ } END { exit !(k[\"mem\"] && k[\"freeze\"] && k[\"disk\"] && length(k) == 3) }'"
check "a freeze transition's fault is never in a phase it skips (late, noirq); disk's are" sh -c \
	"cat '$w'/a/rounds/*/plan.txt | awk '{ split(\$3, f, \":\") } \$2 == \"freeze\" && f[2] ~ /late|noirq|early/ { bad = 1 }
		\$2 == \"disk\" && f[2] ~ /late|noirq|early/ { late = 1 } END { exit !(!bad && late) }'"
check "the churn thread's device is never deeper than 16 (in a chain round: d0..d15), and some rounds churn" sh -c \
	"DRY=1 SEED=3 ROUNDS=12 MAX_DEVICES=300 '$s' '$w/d' >/dev/null 2>&1 && n=0 && for r in '$w'/d/rounds/*; do
		grep -q 'scengen chain' \$r/scenario.txt || continue
		awk '\$4 != \"-\" { sub(/^d/, \"\", \$4); if (\$4 + 0 > 15) { bad = 1; exit } n++ } END { exit bad || !n }' \$r/plan.txt || exit 1
		n=\$((n + 1))
	done && [ \$n -gt 0 ]"
check "every round's scenario loads as pmsynth would (critpath --check)" sh -c \
	"for f in '$w'/a/rounds/*/scenario.txt; do '$BUILD/tools/critpath' --check \"\$f\" >/dev/null || exit 1; done"
tap_done
