#!/bin/sh
# The shipped scenarios are what the seeded generators and importers write,
# byte for byte; the writers refuse bad input with a clear message.
. "$(dirname "$0")/../lib.sh"
tap_plan 9
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# the importers and generators under ASan/UBSan: run-tests fails on any report
t=$BUILD/test-host/scenarios-tools
make -s -C "$TOP/bench" O="$t" SANITIZE=1 >/dev/null
"$TOP/bench/scenarios/make-scenarios.sh" "$t" "$BUILD/linux" "$w/s" > "$w/log" 2>&1
ok $? "make-scenarios.sh runs"
diffs=$(for f in "$w"/s/*.txt; do cmp -s "$f" "$TOP/bench/scenarios/$(basename "$f")" || basename "$f"; done)
check "every shipped generated/imported scenario is reproduced exactly${diffs:+ (differ: $diffs)}" [ -z "$diffs" ]
check "Pixel 6 (gs101-oriole) imported with pm_links" \
	sh -c "sed -n 2p '$TOP/bench/scenarios/dt-gs101-oriole.txt' | grep -Eq '[0-9]+ devices, [1-9][0-9]* pm_links'"
check "cycles in a real DT are broken and counted" \
	sh -c "sed -n 2p '$TOP/bench/scenarios/dt-sdm845-db845c.txt' | grep -Eq '[1-9][0-9]* dropped to break cycles'"

echo "not a dtb" > "$w/x"
"$t/dt2scen" "$w/x" > "$w/out" 2>&1
check "dt2scen refuses a non-DTB" contains "$w/out" "not a flattened device tree (DTB)"
check "and writes nothing to stdout" sh -c "! grep -q '@defaults' '$w/out'"
printf 'relative/path\n' > "$w/devs"
: > "$w/links"
"$t/sysfs2scen" "$w/devs" "$w/links" > "$w/out" 2>&1
check "sysfs2scen names a bad device line" contains "$w/out" "devs:1: 'relative/path' is not an absolute path"
printf '/sys/devices/a\n' > "$w/devs"
printf '/sys/devices/a\n' > "$w/links"
"$t/sysfs2scen" "$w/devs" "$w/links" > "$w/out" 2>&1
check "sysfs2scen names a bad link line" contains "$w/out" "links:1: expected \"SUPPLIER CONSUMER\""
"$t/scengen" tree > "$w/out" 2>&1
check "scengen asks for a size" contains "$w/out" "give the number of devices with -n"
tap_done
