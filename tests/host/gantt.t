#!/bin/sh
# Per-device timelines: bench/gantt (ASan/UBSan) on a hand-made async
# transition of the chain a <- b <- c plus a guest device "g 1" (a blank
# in its name), then plots/gantt.gp on two such files (PNG and SVG).
# Known data, ms from the first phase (prepare, at 1 us): resume from
# 0.999 to 1.699; a queued 1.004..1.009, blocked 1.009..1.019, callback
# 1.019..1.129; b, c likewise; rows in the order devices first started;
# --rows 2 keeps the two that took longest; --like takes another panel's
# rows.  Bad input refused, nothing
# half-made.
. "$(dirname "$0")/../lib.sh"
tap_plan 16
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/gantt" >/dev/null
ga=$w/gantt
"$TOP/tests/mkrecords.sh" "$TOP/tests/data/critpath/chain.txt" async 2 > "$w/async.jsonl" <<'S'
phase resume 1000 1700
resume a 1005 1010 1020 100 1130
resume b 1005 1010 1150 200 1360 a:10
resume c 1005 1020 1380 300 1690 b:20
resume g 0 1000 1000 5 1005
phase suspend 2000 2100
suspend a 0 2000 2000 0 2000
suspend b 0 2010 2010 0 2050
suspend c 0 2000 2000 0 2000
S
sed -i 's/"device":"g"/"device":"g 1"/' "$w/async.jsonl"
# b in suspend: no callback ran (callback_start 0): blocked from its start to its end
sed -i '/"device":"b","phase":"suspend"/s/"callback_start":[0-9]*/"callback_start":0/' "$w/async.jsonl"
"$ga" "$w/async.jsonl" "$w/a" 2> "$w/err"
ok $? "gantt writes the data"
check "phases: eight bands, resume from 0.999 to 1.699 ms" \
	sh -c "[ \$(grep -vc '^#' '$w/a.phases') -eq 8 ] && grep -qx 'resume 0.999000 1.699000' '$w/a.phases'"
check "the header counts rows and devices (all 4 kept)" grep -qx '# rows 4 of 4 devices' "$w/a.bars"
check "a's three parts in resume: queued, blocked or PM core, callback" \
	[ "$(grep ' a resume$' "$w/a.bars" | cut -d' ' -f2-4 | tr '\n' ';')" = \
		"0 1.004000 1.009000;1 1.009000 1.019000;2 1.019000 1.129000;" ]
check "no callback ran (b in suspend, callback_start 0): one bar, start to end, of kind 1" \
	[ "$(grep ' b suspend$' "$w/a.bars" | cut -d' ' -f2)" = "1" ]
check "a part of no length is left out (g: never queued, its callback from its start)" \
	[ "$(grep -c ' g_1 resume$' "$w/a.bars")" -eq 1 ]
check "rows: in the order the devices first started (all start in prepare at 0: by name id, a b c, then g)" \
	[ "$(grep -v '^#' "$w/a.bars" | awk '{ r[$5] = $1 } END { print r["a"], r["b"], r["c"], r["g_1"] }')" = "0 1 2 3" ]
"$ga" --rows 2 "$w/async.jsonl" "$w/two"
check "--rows 2: the two that took longest (b 350 us, c 670), in starting order" \
	sh -c "grep -qx '# rows 2 of 4 devices' '$w/two.bars' &&
		[ \"\$(grep -v '^#' '$w/two.bars' | awk '{ print \$1, \$5 }' | sort -u | tr '\n' ' ')\" = '0 b 1 c ' ]"
# --like: another panel's devices, row for row (here: two's b and c)
"$ga" --like "$w/two.bars" "$w/async.jsonl" "$w/like"
check "--like two.bars: the same devices on the same rows (0 b, 1 c), nothing else" \
	sh -c "grep -qx '# rows 2 of 4 devices' '$w/like.bars' &&
		[ \"\$(grep -v '^#' '$w/like.bars' | awk '{ print \$1, \$5 }' | sort -u | tr '\n' ' ')\" = '0 b 1 c ' ]"
printf 'not a bars line\n' > "$w/bad.bars"
"$ga" --like "$w/bad.bars" "$w/async.jsonl" "$w/l2" > "$w/out" 2>&1
check "--like a file that is not bars: refused by line, nothing written" \
	sh -c "grep -q 'bad.bars:1: not a bars line' '$w/out' && [ ! -e '$w/l2.bars' ]"

gnuplot -e "left='$w/a'; right='$w/two'; lt='all'; rt='two'; out='$w/g.png'; title='hand-made, kernel k, clock virtual'" \
	"$TOP/plots/gantt.gp" 2> "$w/gp.log"
check "gantt.gp draws a PNG of both" sh -c "file '$w/g.png' | grep -q 'PNG image data, 1600 x'"
gnuplot -e "left='$w/a'; right='$w/two'; lt='all'; rt='two'; out='$w/g.svg'; title='hand-made, kernel k, clock virtual'" \
	"$TOP/plots/gantt.gp" 2>> "$w/gp.log"
check "and an SVG naming the title, both panels, the phases and the devices" \
	sh -c "grep -q 'hand-made, kernel k, clock virtual' '$w/g.svg' && grep -q 'all (4 of 4 devices)' '$w/g.svg' &&
		grep -q 'two (2 of 4 devices)' '$w/g.svg' && grep -q '>suspend_noirq<' '$w/g.svg' && grep -q '>g_1<' '$w/g.svg'"
sed 's/^/# /' "$w/gp.log"

"$ga" "$w/async.jsonl" "$w/a" extra > "$w/out" 2>&1
check "a third argument is refused" grep -q "RECORDS and OUT, got 'extra' too" "$w/out"
"$ga" --rows 0 "$w/async.jsonl" "$w/z" > "$w/out" 2>&1
check "--rows 0 is refused, nothing written" sh -c "grep -q -e '--rows 0: want 1..100000' '$w/out' && [ ! -e '$w/z.bars' ]"
"$ga" "$TOP/README.md" "$w/r" > "$w/out" 2>&1
check "not records: refused by cause, nothing written" \
	sh -c "grep -q 'not a JSON object' '$w/out' && [ ! -e '$w/r.bars' ] && [ ! -e '$w/r.phases' ]"
"$ga" "$w/async.jsonl" "$w/nodir/x" > "$w/out" 2>&1
check "an output that cannot be written: refused by name" grep -q "cannot write $w/nodir/x.phases" "$w/out"
tap_done
