#!/bin/sh
# Device flame graphs: bench/flamefold (ASan/UBSan) on hand-made records
# with known widths, in both views, then plots/flamegraph.sh's HTML opened
# in headless Chromium (it loads without an error and draws the frames
# with their values) and its PNG.  Known widths, us: in resume, r 100,
# its child x 200 and grandchild y 300 (x's frame: 500), the guest device
# g;1 (not in the scenario) 50; y waited 40 us on x, and twice on r (10
# and 5); in suspend, r 70.  Bad input: refused by cause, nothing made.
. "$(dirname "$0")/../lib.sh"
tap_plan 23
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/flamefold" >/dev/null
ff=$w/flamefold
printf 'r\nx parent=r\ny parent=x\n' > "$w/tree.txt"
"$TOP/tests/mkrecords.sh" "$w/tree.txt" async 2 > "$w/async.jsonl" <<'S'
phase resume 1000 2000
resume r 0 1000 1000 100 1100
resume x 0 1100 1100 200 1300 r:10
resume y 0 1300 1300 300 1600 x:40,r:5
resume g;1 0 1000 1000 50 1050
phase suspend 3000 3100
suspend y 0 3000 3000 0 3000
suspend x 0 3000 3000 0 3000
suspend r 0 3000 3000 70 3070
S
"$ff" --scenario "$w/tree.txt" "$w/async.jsonl" > "$w/cb.folded" 2> "$w/err"
ok $? "flamefold reads the records and the scenario"
sed 's/^/# /' "$w/cb.folded"
check "callbacks view: phase, ancestors, device, callback ns; guest devices apart; ';' as ':'; sorted" \
	[ "$(cat "$w/cb.folded")" = "$(printf '%s\n' 'resume;[guest];g:1 50000' 'resume;r 100000' \
		'resume;r;x 200000' 'resume;r;x;y 300000' 'suspend;r 70000')" ]
# a 100-deep parent chain: every ancestor is a frame (none dropped)
awk 'BEGIN { print "d0"; for (i = 1; i < 100; i++) printf "d%d parent=d%d\n", i, i - 1 }' > "$w/deep.txt"
printf 'phase resume 1 2000\nresume d99 0 1000 1000 100 1100\n' |
	"$TOP/tests/mkrecords.sh" "$w/deep.txt" async 2 > "$w/deep.jsonl"
"$ff" --scenario "$w/deep.txt" "$w/deep.jsonl" | grep ';d99 ' > "$w/deep.folded"
check "a device 99 levels down: its line has the phase and all 100 frames" \
	[ "$(awk -F';' '{ print NF, $1, $2, $NF }' "$w/deep.folded")" = "101 resume d0 d99 100000" ]
"$ff" "$w/async.jsonl" > "$w/flat.folded"
check "without a scenario: each device under its phase" \
	[ "$(cat "$w/flat.folded")" = "$(printf '%s\n' 'resume;g:1 50000' 'resume;r 100000' \
		'resume;x 200000' 'resume;y 300000' 'suspend;r 70000')" ]
# y waits on r twice (5 us in its record, 10 us in x's: the same stack
# only for y), so add a second wait of y on r to see the sum
sed 's/"waits":\[{"on":"x","relation":"parent","ns":40000}/&,{"on":"r","relation":"parent","ns":7000}/' \
	"$w/async.jsonl" > "$w/async2.jsonl"
"$ff" --view waits --scenario "$w/tree.txt" "$w/async2.jsonl" > "$w/waits.folded"
sed 's/^/# /' "$w/waits.folded"
check "waits view: phase, device waited for, waiter, ns blocked; the same pair summed" \
	[ "$(cat "$w/waits.folded")" = "$(printf '%s\n' 'resume;r;x 10000' 'resume;r;y 12000' 'resume;x;y 40000')" ]

# refused, by cause, printing nothing
refused() { tool_refuses "$w" "$ff" "$@"; }	# refused DESCRIPTION MESSAGE-ERE ARGS...
refused "two records files" "one records file \\(one transition\\)" "$w/async.jsonl" "$w/async.jsonl"
refused "an unknown view" "--view stacks: want callbacks or waits" --view stacks "$w/async.jsonl"
refused "a scenario that does not parse" "cycle" --scenario "$TOP/tests/data/critpath/cycle.txt" "$w/async.jsonl"
rpm_records runtime 1 sync > "$w/rpm.jsonl" <<'S'
cb d resume 1 2
S
printf 'r\nx parent=r\n' > "$w/other.txt"
refused "a scenario other than the one recorded" "async.jsonl: recorded with scenario sha256 .*, not .*other.txt" \
	--scenario "$w/other.txt" "$w/async.jsonl"
refused "a runtime PM recording" "rpm.jsonl: a runtime PM recording has no device phases" "$w/rpm.jsonl"
refused "no records file" "no records file given"
"$ff" "$w/async.jsonl" > /dev/full 2> "$w/err"
check "a full disk: exit 1, saying so" sh -c "[ $? -eq 1 ] && grep -q 'writing the folded stacks failed' '$w/err'"

# the HTML flame graph in headless Chromium
command -v chromium >/dev/null || echo "# chromium missing: make deps installs it"
fg=$TOP/plots/flamegraph.sh
"$fg" "$w/cb.folded" 'tree </script> & co: async, callbacks' "ns of callback time" "$w/cb.html" "$w/cb.png" 2> "$w/err"
ok $? "flamegraph.sh writes the HTML and the PNG"
check "the HTML is self-contained: no script, link or image to load" sh -c "! grep -Eiq '<(script|link|img)[^>]*(src|href)=' '$w/cb.html'"
chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 --dump-dom "file://$w/cb.html" \
	> "$w/dom.html" 2> "$w/chromium.log"
status=$(grep -o 'data-status="[^"]*"' "$w/dom.html")
echo "# page status: $status"
# frames: all, resume, suspend, [guest], g:1, r (twice: resume and suspend), x, y
check "the page ran without a script error and drew 9 frames" [ "$status" = 'data-status="ok 9 frames"' ]
title() { grep -o "<title>$1: [0-9]* ns" "$w/dom.html" | sed 's/.*: //' | tr '\n' ' ' | sed 's/ $//'; }
check "x's frame is its subtree: 500000 ns (x 200 + y 300 us)" [ "$(title x)" = "500000 ns" ]
check "r's frames: 600000 ns in resume, 70000 in suspend" [ "$(title r)" = "600000 ns 70000 ns" ]
check "the root: every callback, 720000 ns" [ "$(title all)" = "720000 ns" ]
check "the title is shown as text, its </script> and & harmless" \
	grep -q '<h1 id="title">tree &lt;/script&gt; &amp; co: async, callbacks</h1>' "$w/dom.html"
check "the PNG is an image" sh -c "file '$w/cb.png' | grep -q 'PNG image data, 1400 x 900'"

# flamegraph.sh refuses what it cannot draw, writing nothing
: > "$w/empty.folded"
"$fg" "$w/empty.folded" t ns "$w/e.html" > "$w/out" 2>&1
check "an empty folded file: refused, no HTML" sh -c "grep -q 'is empty: nothing to draw' '$w/out' && [ ! -e '$w/e.html' ]"
printf 'a;b 10\nnot folded\n' > "$w/bad.folded"
"$fg" "$w/bad.folded" t ns "$w/b.html" > "$w/out" 2>&1
check "a line that is not 'STACK VALUE': refused, no HTML" \
	sh -c "grep -q '1 lines are not' '$w/out' && [ ! -e '$w/b.html' ]"
NODE_MODULES=$w/none "$fg" "$w/cb.folded" t ns "$w/n.html" > "$w/out" 2>&1
check "no d3 in NODE_MODULES: refused, naming make deps" \
	sh -c "grep -q 'make deps installs d3 and d3-flame-graph' '$w/out' && [ ! -e '$w/n.html' ]"
tap_done
