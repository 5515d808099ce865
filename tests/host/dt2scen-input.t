#!/bin/sh
# dt2scen (and the scenario writers' shared graph) under hostile input, built
# with ASan+UBSan: every valid DTB walked without touching memory it does not
# own, #...-cells bounded, phandle lists cut short at what cannot be read,
# near-linear naming of thousands of same-named nodes, damaged DTBs refused
# with the file and the cause and nothing on stdout.
. "$(dirname "$0")/../lib.sh"
tap_plan 39
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"	# run-tests.sh's log_path kept
make -s -C "$TOP/bench" O="$w" SANITIZE=1 "$w/dt2scen" "$w/sysfs2scen" "$w/scengen" > "$w/build.log" 2>&1
ok $? "dt2scen, sysfs2scen and scengen build under ASan+UBSan"

# dtb NAME: compile $w/NAME.dts (standard input) into $w/NAME.dtb; dtc's
# own phandle checks would loop on the bad #clock-cells: off.
dtb() {
	cat > "$w/$1.dts"
	dtc -q -Wno-clocks_property -I dts -O dtb -o "$w/$1.dtb" "$w/$1.dts"
}
# run NAME: dt2scen on $w/NAME.dtb (10 s at most), $w/NAME.out/.err/.rc
run() {
	timeout 10 "$w/dt2scen" "$w/$1.dtb" > "$w/$1.out" 2> "$w/$1.err"
	echo $? > "$w/$1.rc"
}
# rc NAME CODE: dt2scen exited with CODE on NAME
rc() { [ "$(cat "$w/$1.rc")" = "$2" ]; }
# clean NAME: no sanitizer report
clean() { ! grep -q 'runtime error\|Sanitizer' "$w/$1.err"; }
# devices NAME "LINE|LINE|...": the device lines of the scenario, exactly,
# but the async and deps flags (tests/host/import-async.t checks those)
devices() {
	_d=$(grep -v '^[#@]' "$w/$1.out" | sed 's/ async=0//; s/ deps=unknown//' | tr '\n' '|')
	[ "$_d" = "$2" ] || { echo "# devices: '$_d'" >&2; return 1; }
}
# header NAME STRING: the scenario's count line (line 2) contains STRING
header() { sed -n 2p "$w/$1.out" | grep -qF -- "$2"; }
# refused NAME: exit 1 and nothing on stdout
refused() { rc "$1" 1 && [ ! -s "$w/$1.out" ]; }

# A valid one-node tree: the walk ends at depth -1 (was stack[-1]).
dtb one <<'EOF'
/dts-v1/;
/ { dev { compatible = "y"; }; };
EOF
run one
check "a one-node tree is read cleanly (exit 0)" rc one 0
check "with no sanitizer report" clean one
check "and gives its one device" devices one "dev|"
check "the counts on stderr" contains "$w/one.err" \
	"one.dtb: 1 devices, 0 pm_links; 0 references: 0 unavailable"

# #clock-cells = <0xffffffff> looped forever, <0x80000000> crashed.
for c in 0xffffffff 0x80000000; do
	dtb "cells-$c" <<EOF
/dts-v1/;
/ { clk { compatible = "c"; #clock-cells = <$c>; phandle = <0x10>; };
    dev { compatible = "d"; clocks = <0x10 1 2>; }; };
EOF
	run "cells-$c"
done
check "#clock-cells = <0xffffffff>: done in time, exit 0" rc cells-0xffffffff 0
check "and the list is cut short, with the cause" contains "$w/cells-0xffffffff.err" \
	"cells-0xffffffff.dtb: the first phandle list cut short: /dev: clocks: #clock-cells of clk (phandle 0x10) is 4294967295, more than 16"
check "#clock-cells = <0x80000000>: no crash, exit 0" rc cells-0x80000000 0
check "and the list is cut short, with the cause" contains "$w/cells-0x80000000.err" \
	"/dev: clocks: #clock-cells of clk (phandle 0x10) is 2147483648, more than 16"
check "the scenario header counts the cut list" header cells-0x80000000 \
	"0 dropped to break cycles; 1 phandle lists cut short (unknown phandle, #...-cells over 16 or arguments past the end)"

# An unknown phandle: what follows may be its arguments, not phandles.
dtb unknown <<'EOF'
/dts-v1/;
/ { clk { compatible = "c"; #clock-cells = <0>; phandle = <0x10>; };
    dev { compatible = "d"; clocks = <0x99 0x10>; }; };
EOF
run unknown
check "unknown phandle: the rest of the list is skipped (no link to clk)" \
	devices unknown "clk|dev|"
check "and counted" contains "$w/unknown.err" \
	"0 references: 0 unavailable, 0 to self or ancestor, 0 duplicate, 0 dropped to break cycles; 1 phandle lists cut short"
check "the first cut is named" contains "$w/unknown.err" "/dev: clocks: phandle 0x99 names no node"

# Arguments past the end of the list: no reference (the kernel fails it).
dtb short <<'EOF'
/dts-v1/;
/ { clk { compatible = "c"; #clock-cells = <2>; phandle = <0x10>; };
    dev { compatible = "d"; clocks = <0x10 1>; }; };
EOF
run short
check "arguments past the end: no link" devices short "clk|dev|"
check "and the cause" contains "$w/short.err" "/dev: clocks: clk (phandle 0x10) takes 2 argument cells, 1 left"

# A provider without #clock-cells takes no arguments (fw_devlink's
# parse_prop_cells() passes cell_count 0): the next cell is a phandle.
dtb nocells <<'EOF'
/dts-v1/;
/ { nocells { compatible = "n"; phandle = <0x20>; };
    clk { compatible = "c"; #clock-cells = <1>; phandle = <0x10>; };
    dev { compatible = "d"; clocks = <0x20 0x10 7>; }; };
EOF
run nocells
check "a provider without #clock-cells: 0 arguments, as the kernel reads it" \
	devices nocells "nocells|clk|dev masters=nocells,clk|"

# 4,000 nodes of one name (the unique-name pass was cubic: ~29 s).
awk 'BEGIN { print "/dts-v1/;"; print "/ {"
	for (i = 0; i < 4000; i++) printf "\tb%d { dev { compatible = \"x\"; }; };\n", i
	print "};" }' | dtb same
run same
check "4,000 same-named nodes: done within the 10 s guard, exit 0" rc same 0
grep -v '^[#@]' "$w/same.out" | sed 's/ async=0//' > "$w/same.names"
check "4,000 devices, their names unique" \
	sh -c "[ \$(sort -u '$w/same.names' | wc -l) -eq 4000 ] && [ \$(wc -l < '$w/same.names') -eq 4000 ]"
check "and today's: dev, dev.2, ... dev.4000" \
	sh -c "[ \"\$(sed -n '1p;2p;3p;4000p' '$w/same.names' | tr '\n' ' ')\" = 'dev dev.2 dev.3 dev.4000 ' ]"
dtb names <<'EOF'
/dts-v1/;
/ { a@1 { x { compatible = "d"; }; }; a@2 { x { compatible = "d"; }; };
    x.2 { compatible = "d"; }; a@3 { x { compatible = "d"; }; }; };
EOF
run names
check "a taken NAME.k is skipped the same way (x, x.2, x.2.2, x.3)" \
	devices names "x|x.2|x.2.2|x.3|"

# Damaged input: the file, the cause, exit 1, nothing on stdout.
head -c 100 "$w/one.dtb" > "$w/cut.dtb"
run cut
check "a truncated DTB is refused with the sizes" contains "$w/cut.err" \
	"dt2scen: $w/cut.dtb: cut short: the header says 111 bytes, there are 100"
check "exit 1 and nothing on stdout" refused cut
awk 'BEGIN { print "/dts-v1/;"; printf "/ {"
	for (i = 0; i < 300; i++) printf " n%d { compatible = \"x\";", i
	for (i = 0; i < 300; i++) printf " };"; print " };" }' | dtb deep
run deep
check "300 levels of nodes: refused with the offset" \
	grep -qE 'deep.dtb: offset [0-9]+: nodes nested deeper than 256 levels' "$w/deep.err"
check "exit 1 and nothing on stdout" refused deep
# A version-2 header on a version-17 tree: libfdt 1.6.1's fdt_check_full()
# dereferenced NULL on its root name (no '/').
cp "$w/one.dtb" "$w/v2.dtb"
printf '\0\0\0\2\0\0\0\2' | dd of="$w/v2.dtb" bs=1 seek=20 conv=notrunc 2>/dev/null
run v2
check "a version-2 DTB is refused, not a crash" contains "$w/v2.err" \
	"v2.dtb: DTB version 2 is not supported (16 or 17 are)"
: > "$w/empty.dtb"
run empty
check "an empty file is not a DTB" contains "$w/empty.err" "empty.dtb: not a flattened device tree (DTB)"

# sysfs2scen: parents among the earlier devices only (the shared graph is
# no longer narrowed by assignment), duplicates and NUL bytes refused.
printf '/sys/devices/a/b\n/sys/devices/a\n/sys/devices/a/b/c\n/sys/devices/ab\n' > "$w/devs"
printf '/sys/devices/ab /sys/devices/a/b/c\n/sys/devices/x /sys/devices/a\n\n' > "$w/links"
"$w/sysfs2scen" "$w/devs" "$w/links" > "$w/sys.out" 2> "$w/sys.err"
ok $? "sysfs2scen reads a small tree"
check "parents and pm_links as before" devices sys "a|b parent=a|c parent=b masters=ab|ab|"
check "an unknown link end is counted" contains "$w/sys.err" \
	"4 devices, 1 pm_links; 2 references: 1 unavailable"
printf '/sys/devices/a\n/sys/devices/b\n/sys/devices/a\n' > "$w/devs"
"$w/sysfs2scen" "$w/devs" "$w/links" > "$w/sys.out" 2> "$w/sys.err"
ok $((! $?)) "sysfs2scen refuses a path listed twice"
check "naming both lines" contains "$w/sys.err" \
	"devs:3: '/sys/devices/a' is listed twice (first on line 1)"
printf '/sys/devices/a\0junk\n' > "$w/devs"
"$w/sysfs2scen" "$w/devs" "$w/links" > "$w/sys.out" 2> "$w/sys.err"
check "a NUL byte is refused with the line" contains "$w/sys.err" "devs:1: NUL byte in the line"

# a .dts source: dt2scen runs cpp | dtc itself, with the kernel tree's
# include-prefixes for #include <dt-bindings/...>
board=$BUILD/linux/arch/arm64/boot/dts/rockchip/rk3588-rock-5b.dts
cpp -nostdinc -I "$BUILD/linux/scripts/dtc/include-prefixes" -I "$(dirname "$board")" -undef -D__DTS__ \
	-x assembler-with-cpp "$board" 2>/dev/null | dtc -q -I dts -O dtb -o "$w/rock.dtb" -
"$w/dt2scen" --kernel-tree "$BUILD/linux" "$board" > "$w/rock-dts.out" 2> "$w/rock-dts.err"
ok $? "dt2scen reads a board's .dts with #includes (--kernel-tree)"
"$w/dt2scen" "$w/rock.dtb" > "$w/rock-dtb.out" 2>/dev/null
sed 1d "$w/rock-dts.out" > "$w/rock-dts.body"
sed 1d "$w/rock-dtb.out" > "$w/rock-dtb.body"
check "the scenario is the one of its DTB compiled by hand (but the source line)" \
	sh -c "[ -s '$w/rock-dtb.body' ] && cmp -s '$w/rock-dts.body' '$w/rock-dtb.body'"
printf '/dts-v1/;\n#include <dt-bindings/no/such.h>\n/ { };\n' > "$w/inc.dts"
"$w/dt2scen" --kernel-tree "$BUILD/linux" "$w/inc.dts" > "$w/inc.out" 2> "$w/inc.err"
ok $((! $?)) "a .dts whose #include is missing is refused"
check "... naming cpp's cause and dt2scen's" sh -c "grep -q 'no/such.h: No such file' '$w/inc.err' &&
	grep -q 'inc.dts: cpp | dtc failed (exit status 1): the source does not compile' '$w/inc.err'"
check "... and writing nothing" [ ! -s "$w/inc.out" ]
printf '/dts-v1/;\n/ { a { compatible = "x"; }; b { compatible = "y"; clocks = <&{/a}>; }; };\n' > "$w/plain.txt"
"$w/dt2scen" "$w/plain.txt" > "$w/plain.out" 2>/dev/null
check "a source with another name is known by its /dts-v1/ line (2 devices)" \
	[ "$(grep -c '^[ab]\b' "$w/plain.out")" -eq 2 ]

# scengen: --links nan was cast to a long (undefined).
"$w/scengen" dag -n 10 --links nan > "$w/gen.out" 2> "$w/gen.err"
check "scengen refuses --links nan" contains "$w/gen.err" "--links: expected 0..64, got 'nan'"
tap_done
