#!/bin/sh
# flamegraph.sh - a self-contained, interactive HTML flame graph of folded
# stacks (bench/flamefold's output; flamegraph.pl's input format), with
# d3-flame-graph (npm) and d3 inlined from NODE_MODULES: it opens offline.
#
# Usage: flamegraph.sh FOLDED TITLE UNIT OUT.html [OUT.png]
#   UNIT says what a frame's width counts, its first word the values' unit
#   (e.g. "ns of callback time", "samples at 4999 Hz"); with OUT.png,
#   headless Chromium renders the page to it (1400x900), for READMEs.
# Environment: NODE_MODULES (default build/node/node_modules: make deps
# installs d3 and d3-flame-graph there), CHROMIUM (default chromium).
# Exit status: 0, or 1 after one line naming the cause; nothing is left
# half-written (OUT is written to OUT.tmp and renamed).
set -eu
die() { echo "flamegraph: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: flamegraph.sh FOLDED TITLE UNIT OUT.html [OUT.png]"
folded=$1 title=$2 unit=$3 out=$4 png=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
nm=${NODE_MODULES:-$(dirname "$here")/build/node/node_modules}
d3=$nm/d3/dist/d3.min.js
fg=$nm/d3-flame-graph/dist/d3-flamegraph.umd.min.js
css=$nm/d3-flame-graph/dist/d3-flamegraph.css
for f in "$d3" "$fg" "$css"; do
	[ -f "$f" ] || die "$f missing (make deps installs d3 and d3-flame-graph)"
done
[ -f "$folded" ] || die "no folded stacks file $folded"
[ -s "$folded" ] || die "$folded is empty: nothing to draw"
bad=$(grep -cvE '^[^ ].* [0-9]+$' "$folded" || true)
[ "$bad" -eq 0 ] || die "$folded: $bad lines are not 'STACK VALUE' (folded stacks)"

# a JSON string of FILE (or of stdin), safe inside <script>
json_string() { jq -Rs . "$@" | sed 's|</|<\\/|g'; }
tmp=$out.tmp
trap 'rm -f "$tmp" "$tmp".*' EXIT
printf '%s' "$title" | json_string > "$tmp.title-json"
json_string "$folded" > "$tmp.folded-json"
printf '%s' "$title" | sed 's/&/\&amp;/g; s/</\&lt;/g' > "$tmp.title-text"
printf '%s' "$unit" | sed 's/&/\&amp;/g; s/</\&lt;/g' > "$tmp.unit"
printf '%s' "$unit" | json_string > "$tmp.unit-json"
# every @@NAME@@ of the template replaced by a file's text (files, not
# awk strings: no escape processing, no size limit)
map=$(printf '%s\n' "D3=$d3" "FLAMEGRAPH=$fg" "CSS=$css" "TITLE_JSON=$tmp.title-json" \
	"FOLDED_JSON=$tmp.folded-json" "TITLE_TEXT=$tmp.title-text" "UNIT=$tmp.unit" \
	"UNIT_JSON=$tmp.unit-json")
MAP=$map awk '
	BEGIN { n = split(ENVIRON["MAP"], kv, "\n"); for (i = 1; i <= n; i++) { k = kv[i]; sub(/=.*/, "", k); f = kv[i]; sub(/^[^=]*=/, "", f); path[k] = f } }
	function put(f,  l, first) { first = 1; while ((getline l < f) > 0) { if (!first) printf "\n"; printf "%s", l; first = 0 } close(f) }
	{ line = $0
	  while (match(line, /@@[A-Z_0-9]+@@/)) {
		k = substr(line, RSTART + 2, RLENGTH - 4)
		printf "%s", substr(line, 1, RSTART - 1)
		if (k in path) put(path[k]); else printf "%s", substr(line, RSTART, RLENGTH)
		line = substr(line, RSTART + RLENGTH)
	  }
	  print line }' "$here/flamegraph.html" > "$tmp"
mv "$tmp" "$out"
[ -n "$png" ] || exit 0
chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null || die "$chromium not found (make deps installs chromium)"
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,900 --virtual-time-budget=3000 \
	--screenshot="$tmp.png" "file://$(realpath "$out")" > "$tmp.log" 2>&1 ||
	{ rm -f "$tmp.log"; die "chromium could not render $out"; }
rm -f "$tmp.log"
[ -s "$tmp.png" ] || die "chromium wrote no screenshot of $out"
mv "$tmp.png" "$png"
