#!/bin/sh
# run-tests: parallel
# make soak, short and seeded, on the debug kernel (bench/soak.sh, SEED=1:
# 4 rounds of 3 transitions, up to 60 devices, two guests, each removing
# pmsynth with its devices before its second round): every
# transition done, 0 oracle violations, every device active and its
# runtime PM counts balanced after each, no kernel report; then a
# deliberately broken round (SOAK_BREAK=oracle: a dependency declared to
# the ordering oracle that no device link tells the PM core about) must
# stop the soak and leave what replays it, and the replay fails the same
# way.
. "$(dirname "$0")/../lib.sh"
tap_plan 11
w=$BUILD/test-guest/soak
rm -rf "$w" "$w-broken" "$w-replay"
mkdir -p "$BUILD/test-guest"
export TIMEOUT=1500
SEED=1 ROUNDS=4 PER_ROUND=3 MAX_DEVICES=60 JOBS=2 "$TOP/bench/soak.sh" "$w" > "$w.log" 2>&1
rc=$?
sed 's/^/# /' "$w.log"
check "the seeded soak on the debug kernel passes (exit $rc)" [ "$rc" = 0 ]
check "all 12 transitions ran" grep -q 'transitions=12 planned=12 ' "$w/summary.txt"
check "both guests removed pmsynth with its devices between rounds, and went on" \
	sh -c "[ \$(grep -l 'pmsynth removed with its devices and loaded again' '$w'/guest-*/console.log | wc -l) -eq 2 ]"
check "pmsynth's churn thread ran inside transitions (cycles with its device prepared), none failed or ran while it was suspended" \
	sh -c "cat '$w'/guest-*/churn.txt | awk '{ n++; i += \$6; e += \$7 } END { exit !(n > 0 && i > 0 && e == 0) }'"
check "the soak hibernated (test mode) as well as suspended" \
	sh -c "cat '$w'/guest-*/done.txt | awk '{ k[\$3]++ } END { exit !(k[\"disk\"] && k[\"mem\"]) }'"
check "it booted the debug kernel (lockdep's banner on both consoles)" \
	sh -c "[ \$(grep -l 'Lock dependency validator' '$w'/guest-*/console.log | wc -l) -eq 2 ]"
check "faults were injected, and some made a transition fail" sh -c \
	"awk '\$5 != \"-\" { f++ } \$6 != 0 { bad++ } END { exit !(f > 0 && bad > 0) }' '$w'/guest-*/done.txt"
SEED=7 ROUNDS=1 PER_ROUND=3 MAX_DEVICES=20 JOBS=1 SOAK_BREAK=oracle "$TOP/bench/soak.sh" "$w-broken" \
	> "$w-broken.log" 2>&1
rc=$?
sed 's/^/# broken: /' "$w-broken.log"
check "a broken round stops the soak (exit $rc), naming the oracle's violation" \
	sh -c "[ $rc -ne 0 ] && grep -q 'oracle violations.*: soak_broken_x' '$w-broken/failure/failed.txt'"
check "and saves the seed, the round's scenario and plan, the console and a replay command" sh -c \
	"cd '$w-broken/failure' && [ \$(cat seed.txt) = 7 ] && grep -q soak_broken_x scenario.txt && [ -s plan.txt ] && [ -s console.log ] && [ -x replay.sh ]"
sed -i "s|'$w-broken/replay'|'$w-replay'|" "$w-broken/failure/replay.sh"
"$w-broken/failure/replay.sh" > "$w-replay.log" 2>&1
rc=$?
sed 's/^/# replay: /' "$w-replay.log"
check "the replay runs that round alone and fails (exit $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q '1 rounds, 3 transitions' '$w-replay.log'"
check "the same way" sh -c "[ \"\$(sed 's/^round [0-9]* //' '$w-replay/failure/failed.txt')\" = \"\$(sed 's/^round [0-9]* //' '$w-broken/failure/failed.txt')\" ]"
tap_done
