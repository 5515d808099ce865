#!/bin/sh
# figures.sh - the per-transition figures of one bench scenario, from the
# pmtrace records of its first transition of each mode (sync-1, async-1:
# the series' async, legacy-1: 6.12's async).
#
# Usage: figures.sh DIR SCENARIO_FILE TITLE
# DIR is a scenario's bench directory (or bench/measure-machine.sh's; no
# legacy-1.jsonl: no 6.12 figures; records of a kernel without the series
# are "async, the kernel scheduling, no series").  Writes, for MODE in sync, async,
# 6.12:
#   DIR/flame/MODE-callbacks.folded, .html   device flame graph: the device
#                   hierarchy, width = callback ns (bench/flamefold,
#                   plots/flamegraph.sh)
#   DIR/flame/MODE-waits.folded, .html       who waited for whom, width =
#                   ns blocked (no HTML when nothing blocked)
#   DIR/flame/sync-callbacks.png, async-callbacks.png   (headless Chromium)
#   DIR/flame/kstacks-MODE.html, kstacks-async.png   kernel-stack flame
#                   graphs of the async modes (DIR/kstacks-MODE.folded,
#                   bpf/kstacks in the guest), when the run has them
#   DIR/timeline/MODE.trace.json   Chrome trace-event JSON (Perfetto,
#                   chrome://tracing; bench/trace-events)
#   DIR/timeline/MODE.phases, .bars  per-device timeline data (bench/gantt,
#                   the GANTT_ROWS devices that took longest, default 60)
#   DIR/timeline/gantt.png, .svg     sync beside the series' async, a row
#                   per device (plots/gantt.gp); gantt-6.12.png: 6.12's
#                   async beside the series'
# TITLE (scenario, kernel, clock) heads each figure.  Exit status: 0, or 1
# after one line naming the cause.
set -eu
die() { echo "figures: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: figures.sh DIR SCENARIO_FILE TITLE"
d=$1 scen=$2 title=$3
top=$(cd "$(dirname "$0")/.." && pwd)
tools=${TOOLS:-$top/build/tools}
ff=$tools/flamefold te=$tools/trace-events ga=$tools/gantt
for t in "$ff" "$te" "$ga"; do [ -x "$t" ] || die "$t not built (make tools)"; done
rows=${GANTT_ROWS:-60}
mkdir -p "$d/flame" "$d/timeline"
# records without the series' dpm_device events: the kernel's own async
stock=
head -1 "$d/async-1.jsonl" 2>/dev/null | grep -q '"absent":\["queued"' && stock=1
series="the series scheduling"	# in gnuplot strings: no apostrophe
[ -z "$stock" ] || series="the kernel scheduling, no series"
modes="sync async"
[ ! -f "$d/legacy-1.jsonl" ] || modes="$modes 6.12"
for m in $modes; do
	case $m in 6.12) f=$d/legacy-1.jsonl what="async, 6.12's scheduling";;
	async) f=$d/async-1.jsonl what="async, $series";;
	*) f=$d/sync-1.jsonl what=sync;;
	esac
	[ -f "$f" ] || die "no $f"
	# each output whole or not at all
	"$te" --title "$title: $what" "$f" > "$d/timeline/$m.trace.json.tmp" ||
		die "trace-events failed on $f"
	mv "$d/timeline/$m.trace.json.tmp" "$d/timeline/$m.trace.json"
	# the async panels draw the sync one's devices, row for row
	like=
	[ "$m" = sync ] || like="--like $d/timeline/sync.bars"
	# shellcheck disable=SC2086
	"$ga" --rows "$rows" $like "$f" "$d/timeline/$m" || die "gantt failed on $f"
	for v in callbacks waits; do
		o=$d/flame/$m-$v
		"$ff" --view "$v" --scenario "$scen" "$f" > "$o.folded.tmp" ||
			die "flamefold --view $v failed on $f"
		mv "$o.folded.tmp" "$o.folded"
		case $v in
		callbacks) unit="ns of callback time, stacked by device hierarchy";;
		*) unit="ns blocked: phase, device waited for, waiter";;
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
for m in async 6.12; do
	f=$d/kstacks-$m.folded
	[ -f "$f" ] || continue
	case $m in 6.12) what="async, 6.12's scheduling" png=;;
	*) what="async, the series' scheduling" png=$d/flame/kstacks-$m.png;;
	esac
	if [ -s "$f" ]; then
		"$top/plots/flamegraph.sh" "$f" "$title: $what, on-CPU kernel stacks" \
			"samples at 4999 Hz of the guest clock, device phases only (resume side: CPU 0 only, see bpf/kstacks.c)" \
			"$d/flame/kstacks-$m.html" $png
	fi
done
# gantt LEFT RIGHT LEFT-TITLE RIGHT-TITLE OUT
gantt() {
	gnuplot -e "left='$d/timeline/$1'; right='$d/timeline/$2'; lt='$3'; rt='$4'; out='$5'; title='$title'" \
		"$top/plots/gantt.gp" || die "gnuplot failed drawing $5"
}
gantt sync async sync "async, $series" "$d/timeline/gantt.png"
gantt sync async sync "async, $series" "$d/timeline/gantt.svg"
[ ! -f "$d/legacy-1.jsonl" ] ||
	gantt 6.12 async "async, 6.12 scheduling" "async, the series scheduling" "$d/timeline/gantt-6.12.png"
