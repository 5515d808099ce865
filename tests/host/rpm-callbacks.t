#!/bin/sh
# bench/rpm-callbacks (make bench's PCI runtime PM row) on hand-made
# records of mode runtime, built with ASan and UBSan: a row per device and
# callback kind in the order first seen, over every file given; count,
# errors, nearest-rank p50 and max of each callback's own time; --device
# keeps the named devices; a named device without callbacks, a callback
# whose start was not recorded and a transition recording are refused by
# cause, with nothing printed.
. "$(dirname "$0")/../lib.sh"
tap_plan 9
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/rpm-callbacks" >/dev/null
rc=$w/rpm-callbacks

# pci: suspends of 100, 300 and 200 us (p50 200), resumes of 50 and 70 us
# (one failed: -16), an idle; other: one resume of 5 us, in a second file
rpm_records runtime 1 sync > "$w/a.jsonl" <<'S'
cb pci idle 10 11
cb pci suspend 20 120
cb pci resume 200 250 -16
cb pci suspend 300 600
req pci resume queued 700
req pci resume run 710
cb pci resume 720 790
cb pci suspend 800 1000
S
rpm_records runtime 1 sync > "$w/b.jsonl" <<'S'
cb other resume 10 15
S
"$rc" "$w/a.jsonl" "$w/b.jsonl" > "$w/all.txt" 2> "$w/err.txt"
ok $? "two files read"
rows() { grep -v '^#' "$1" | sed 1d | awk '{ print $1, $2, $3, $4, $5, $6 }'; }
check "a row per device and kind, first-seen order: count, errors, p50, max (us)" \
	[ "$(rows "$w/all.txt")" = "$(printf '%s\n' \
		'pci runtime_idle 1 0 1.0 1.0' \
		'pci runtime_suspend 3 0 200.0 300.0' \
		'pci runtime_resume 2 1 50.0 70.0' \
		'other runtime_resume 1 0 5.0 5.0')" ]
check "the header names the columns" grep -q '^device  *callback  *count  *errors  *p50  *max$' "$w/all.txt"
"$rc" --device other "$w/a.jsonl" "$w/b.jsonl" > "$w/other.txt"
check "--device keeps that device's rows only" [ "$(rows "$w/other.txt")" = "other runtime_resume 1 0 5.0 5.0" ]

# refused, with nothing on stdout
refused() { tool_refuses "$w" "$rc" "$@"; }	# refused DESCRIPTION MESSAGE-ERE ARGS...
refused "a named device with no callback" "no runtime PM callback of 'nope'" --device nope "$w/a.jsonl"
rpm_records runtime 1 sync > "$w/nostart.jsonl" <<'S'
cb pci suspend 0 100
S
refused "a callback whose start was not recorded (file and line)" \
	"nostart.jsonl:2: a runtime_suspend callback of pci whose start was not recorded" "$w/nostart.jsonl"
rpm_records transition 1 sync > "$w/sys.jsonl" <<'S'
S
refused "a recording that is not of mode runtime (read as a transition: incomplete)" "sys.jsonl: no dpm_prepare phase record" "$w/sys.jsonl"
refused "a file that is not records" "not a JSON object" "$TOP/README.md"
refused "no file" "no records file given"
tap_done
