#!/bin/sh
# Every command line the READMEs show works exactly as written: each
# "    $ COMMAND" line of a README code block is run in the project
# directory as typed, and each "    pmlab:/results# LINE" that follows a
# "$ make shell" line is typed into that shell (tests/lib/shell-session.exp
# drives its console), each expected to succeed.  The README's first two
# commands, make bench and make check, have no "$ " and are not run here:
# make check is this, make bench's pipeline is guest/bench.t (a
# one-scenario make bench line is run); were they given a "$ ", they
# would be skipped with that reason.
. "$(dirname "$0")/../lib.sh"
# make bench's three extra boots (the runtime PM latency, battery and PCI rows)
# are guest/bench.t's business: the one-scenario make bench recipe runs
# here without them
export RPM_CHAIN=none BATTERY_REPS=0 PCI_RPM=0 TUNE=none
w=$BUILD/test-guest/recipes
rm -rf "$w"
mkdir -p "$w"
readmes="README.md lab/jobs/README.md tracepoints/README.md bench/README.md bench/scenarios/README.md bpf/README.md plots/README.md lab/pmsynth/README.md"
# the recipes in order: "H<TAB>file<TAB>command" host lines, "G<TAB>..." shell lines
for r in $readmes; do
	[ -f "$TOP/$r" ] || continue
	sed -n -e "s|^    \\\$ \\(.*\\)|H\t$r\t\\1|p" -e "s|^    pmlab:/results# \\(.*\\)|G\t$r\t\\1|p" "$TOP/$r"
done > "$w/recipes.txt"
nhost=$(grep -c '^H' "$w/recipes.txt")
nguest=$(grep -c '^G' "$w/recipes.txt")
nshell=$(grep -c '^H.*	make shell' "$w/recipes.txt")
# a check per host line (a make shell line's: that its session ended with
# status 0), one per line typed into a shell
tap_plan $((nhost + nguest + 1))
check "the READMEs show recipes ($nhost host lines, $nguest typed into $nshell make shell sessions)" \
	[ "$nhost" -ge 10 ] && [ "$nguest" -ge 10 ]

# run_shell N CMD FILE: the shell session of recipe N (in FILE), with its
# typed lines
run_shell() {
	awk -F'\t' -v n="$1" 'NR > n && $1 == "H" { exit } NR > n && $1 == "G" { print $3 }' \
		"$w/recipes.txt" > "$w/shell-$1.lines"
	(cd "$TOP" && expect "$TOP/tests/lib/shell-session.exp" "$w/shell-$1.log" "$2" "$w/shell-$1.lines") \
		> "$w/shell-$1.status" 2>&1
	k=0
	while IFS= read -r line; do
		k=$((k + 1))
		st=$(sed -n "s/^LINE-STATUS $k //p" "$w/shell-$1.status")
		case $line in exit|"exit "*) st=0;; esac	# its status is the session's
		check "typed in '$2' ($3): $line (status ${st:-none})" \
			[ "$st" = 0 ]
	done < "$w/shell-$1.lines"
	st=$(sed -n 's/^COMMAND-STATUS //p' "$w/shell-$1.status")
	check "'$2' ends when its shell exits, with status 0 (${st:-none}; session: $w/shell-$1.log)" [ "$st" = 0 ]
	[ "$st" = 0 ] || tail -20 "$w/shell-$1.log" | tr -d '\r' | sed 's/^/#   /'
}

n=0
while IFS='	' read -r kind file cmd; do
	n=$((n + 1))
	[ "$kind" = H ] || continue
	case $cmd in
	"make check"|"make check "*)
		skip "$file: $cmd" "this test runs inside make check"; continue;;
	"make bench")
		skip "$file: $cmd" "the full eight-scenario bench is make bench itself; its pipeline is guest/bench.t and a one-scenario make bench line of the READMEs runs here"
		continue;;
	"make shell"|"make shell "*)
		run_shell "$n" "$cmd" "$file" < /dev/null; continue;;
	esac
	(cd "$TOP" && TIMEOUT=1500 sh -c "$cmd") > "$w/host-$n.log" 2>&1 < /dev/null
	st=$?
	check "$file: \$ $cmd (status $st)" [ "$st" -eq 0 ]
	[ "$st" -eq 0 ] || tail -15 "$w/host-$n.log" | sed 's/^/#   /'
done < "$w/recipes.txt"
tap_done
