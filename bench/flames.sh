#!/bin/sh
# flames.sh - the flame graphs of one bench scenario's first transition of
# each mode, from its pmtrace records (bench/flamefold, then
# plots/flamegraph.sh).
#
# Usage: flames.sh DIR SCENARIO_FILE TITLE
# DIR is a scenario's bench directory (sync-1.jsonl, async-1.jsonl and
# legacy-1.jsonl: the series' async and 6.12's); writes DIR/flame/:
#   MODE-callbacks.folded, .html   device hierarchy, width = callback ns
#   MODE-waits.folded, .html       who waited for whom, width = ns blocked
#   sync-callbacks.png, async-callbacks.png   (headless Chromium)
# for MODE in sync, async, 6.12.  TITLE (scenario, kernel, clock) heads
# each figure.  Exit status: 0, or 1 after one line naming the cause.
set -eu
die() { echo "flames: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: flames.sh DIR SCENARIO_FILE TITLE"
d=$1 scen=$2 title=$3
top=$(cd "$(dirname "$0")/.." && pwd)
ff=${TOOLS:-$top/build/tools}/flamefold
[ -x "$ff" ] || die "$ff not built (make tools)"
mkdir -p "$d/flame"
for m in sync async 6.12; do
	case $m in 6.12) f=$d/legacy-1.jsonl what="async, 6.12's scheduling";;
	async) f=$d/async-1.jsonl what="async, the series' scheduling";;
	*) f=$d/sync-1.jsonl what=sync;;
	esac
	[ -f "$f" ] || die "no $f"
	for v in callbacks waits; do
		o=$d/flame/$m-$v
		"$ff" --view "$v" --scenario "$scen" "$f" > "$o.folded" ||
			die "flamefold --view $v failed on $f"
		case $v in
		callbacks) unit="callback time (ns), stacked by device hierarchy";;
		*) unit="time blocked (ns): phase, device waited for, waiter";;
		esac
		png=
		[ "$v" = waits ] || [ "$m" = 6.12 ] || png=$o.png
		# a transition without a blocked wait has nothing to draw
		if [ -s "$o.folded" ]; then
			"$top/plots/flamegraph.sh" "$o.folded" "$title: $what, $v" "$unit" "$o.html" $png
		else
			rm -f "$o.html" "$o.png"
		fi
	done
done
