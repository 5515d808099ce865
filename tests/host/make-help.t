#!/bin/sh
# make help and make list are generated from what they describe and miss
# nothing: every target of the Makefile's .PHONY list has its "#>" line
# (and each "#>" target exists), every variable the Makefile, the lab
# scripts and the bench read from the user is listed, every guest job has
# its usage line and summary and appears in make list and in
# lab/jobs/README.md, fixtures apart; every scenario is listed.
. "$(dirname "$0")/../lib.sh"
tap_plan 11
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mk=$TOP/Makefile

make -s -C "$TOP" help > "$w/help" 2>&1
ok $? "make help runs"
phony=$(sed -n '/^\.PHONY:/,/[^\\]$/p' "$mk" | tr -d '\\' | sed 's/^\.PHONY://' | tr ' \t' '\n\n' | grep . | sort)
helped=$(sed -n 's/^#> \([a-z][a-z-]*\)  .*/\1/p' "$mk" | sort)
# own-pmsynth is internal (make pmsynth KSRC= is its user-facing name)
missing=$(echo "$phony" | grep -vx own-pmsynth | grep -vxF "$helped" | tr '\n' ' ')
check "every .PHONY target has a #> line (missing: ${missing:-none})" [ -z "$missing" ]
stray=$(echo "$helped" | grep -vxF "$phony" | tr '\n' ' ')
check "every #> target is a real target (stray: ${stray:-none})" [ -z "$stray" ]
notshown=$(for t in $helped; do grep -q "^  $t " "$w/help" || echo "$t"; done | tr '\n' ' ')
check "make help prints each of them (not shown: ${notshown:-none})" [ -z "$notshown" ]

# variables the user sets: ?= in the Makefile, and those the scripts read
vars=$( { sed -n 's/^\([A-Z_][A-Z_]*\) *?=.*/\1/p' "$mk"
	  grep -ohE '\b([A-Z][A-Z_]*)=\$\{\1[-:]' "$TOP"/lab/run-guest.sh "$TOP"/bench/run-bench.sh | sed 's/=.*//' 
	  echo "KERNEL KSRC SCENARIO SCENARIOS CMD SCRIPT ARGS JOB EXTRA APPEND LIVE" | tr ' ' '\n'; } |
	grep -vx INTERACTIVE | sort -u)	# INTERACTIVE: set by make shell itself
undoc=$(for v in $vars; do grep -q "^  $v=" "$w/help" || echo "$v"; done | tr '\n' ' ')
check "make help lists every user variable ($(echo $vars | wc -w); missing: ${undoc:-none})" [ -z "$undoc" ]

make -s -C "$TOP" list > "$w/list" 2>&1
ok $? "make list runs"
jobs=$(cd "$TOP/lab/jobs" && ls *.sh | sed 's/\.sh$//')
fixtures=$(cd "$TOP/lab/jobs/fixtures" && ls *.sh | sed 's/\.sh$//')
bad=$(for j in $jobs; do
	f=$TOP/lab/jobs/$j.sh
	sed -n 1p "$f" | grep -q "^# $j[ :]" && grep -q '^# summary: .' "$f" || echo "$j"
done | tr '\n' ' ')
check "every guest job has '# NAME ARGS:' as its first line and a '# summary:' line (bad: ${bad:-none})" [ -z "$bad" ]
sed -n '/^Guest jobs/,/^$/p' "$w/list" > "$w/list-jobs"
sed -n '/^Test fixtures/,$p' "$w/list" > "$w/list-fixtures"
nl=$(for j in $jobs; do grep -q "^  $j\b" "$w/list-jobs" || echo "$j"; done | tr '\n' ' ')
check "make list shows every job with its summary (missing: ${nl:-none})" [ -z "$nl" ]
mixed=$(for j in $fixtures; do grep -q "^  $j\b" "$w/list-jobs" && echo "$j"; grep -q "^  $j\b" "$w/list-fixtures" || echo "$j"; done | tr '\n' ' ')
check "fixtures ($(echo $fixtures)) are listed apart, not among the jobs (wrong: ${mixed:-none})" [ -z "$mixed" ]
nd=$(for j in $jobs $fixtures; do grep -q "\`$j\b" "$TOP/lab/jobs/README.md" || echo "$j"; done | tr '\n' ' ')
check "lab/jobs/README.md documents every job and fixture (missing: ${nd:-none})" [ -z "$nd" ]
ns=$(for f in "$TOP"/bench/scenarios/*.txt; do n=$(basename "$f" .txt); grep -q "^  $n .* devices, " "$w/list" || echo "$n"; done | tr '\n' ' ')
check "make list shows every scenario with its size (missing: ${ns:-none})" [ -z "$ns" ]
tap_done
