#!/bin/sh
# The importers' async flags and dependency knowledge
# (bench/scenarios/README.md, "Async and dependencies"): sysfs2scen from a
# hand-made sysfs tree (power/async where shown, else 6.12's convention by
# subsystem; dependencies known for the kernel's own async devices and for
# DT devices fw_devlink linked), dt2scen from a hand-made device tree (by
# bus; unknown after a cut list, a cycle or interrupt-map), --all-async.
. "$(dirname "$0")/../lib.sh"
tap_plan 31
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
t=$BUILD/tools
# line FILE DEV: DEV's device line in the scenario FILE, without the name
line() { sed -n "s/^$2\( \|$\)//p" "$w/$1"; }
# dev FILE DEV "EXPECTED": that line is exactly EXPECTED
dev() {
	_l=$(line "$1" "$2")
	[ "$_l" = "$3" ] || { echo "# $2: '$_l', want '$3'" >&2; return 1; }
}

# a sysfs: devices with subsystem links, power/async, of_node, waiting_for_supplier
s=$w/sys
mk() {	# mk PATH SUBSYSTEM [ASYNC] [OF WAITING]
	mkdir -p "$s/devices/$1/power" "$s/$2"
	: > "$s/devices/$1/uevent"
	ln -s "$(realpath --relative-to="$s/devices/$1" "$s/$2")" "$s/devices/$1/subsystem"
	[ -z "${3:-}" ] || echo "$3" > "$s/devices/$1/power/async"
	[ -z "${4:-}" ] || { mkdir -p "$s/firmware/devicetree/base/$1"
		ln -s "$s/firmware/devicetree/base/$1" "$s/devices/$1/of_node"
		echo "$5" > "$s/devices/$1/waiting_for_supplier"; }
}
mk platform/soc bus/platform "" 1 0
mk platform/soc/clk bus/platform "" 1 0
mk platform/soc/spi bus/platform "" 1 1
mk platform/serial8250 bus/platform
mk pci0000:00 class/pci_bus
mk pci0000:00/0000:00:01.0 bus/pci
mk pci0000:00/0000:00:02.0 bus/usb disabled
mk pci0000:00/0000:00:03.0 bus/platform enabled
mk platform/soc/i2c bus/platform "" 1 0
mk platform/soc/i2c/0-0050 bus/i2c
mkdir -p "$s/class/devlink/l1"
ln -s "$s/devices/platform/soc/clk" "$s/class/devlink/l1/supplier"
ln -s "$s/devices/platform/soc/spi" "$s/class/devlink/l1/consumer"
"$t/sysfs2scen" --sysfs="$s" > "$w/sysfs.txt" 2> "$w/sysfs.err"
ok $? "sysfs2scen reads a hand-made sysfs tree"
check "a DT platform device whose suppliers are all linked: sync, dependencies known" \
	dev sysfs.txt clk "parent=soc async=0"
check "one still waiting for a supplier: dependencies unknown" \
	dev sysfs.txt spi "parent=soc masters=clk async=0 deps=unknown"
check "a platform device without a DT node: sync, dependencies unknown" \
	dev sysfs.txt serial8250 "async=0 deps=unknown"
check "a PCI device without power/async: async by 6.12's PCI core, dependencies known" \
	dev sysfs.txt 0000:00:01.0 "parent=pci0000:00"
check "power/async 'disabled' beats the convention (USB)" \
	dev sysfs.txt 0000:00:02.0 "parent=pci0000:00 async=0 deps=unknown"
check "power/async 'enabled' beats it too (platform), the kernel vouching" \
	dev sysfs.txt 0000:00:03.0 "parent=pci0000:00"
check "an I2C client: async by convention" dev sysfs.txt 0-0050 "parent=i2c"
check "the counts line says how many are async and how many unknown" contains "$w/sysfs.txt" \
	"# async: 3 of 10 devices (as the machine or 6.12 opts them in); dependencies not all known: 4"
"$t/sysfs2scen" --all-async --sysfs="$s" > "$w/all.txt" 2>/dev/null
check "--all-async: no device sync" sh -c "! grep -q 'async=0' '$w/all.txt'"
check "--all-async keeps deps=unknown" dev all.txt serial8250 "deps=unknown"
check "both load as pmsynth would (critpath --check)" sh -c \
	"'$t/critpath' --check '$w/sysfs.txt' && '$t/critpath' --check '$w/all.txt'"

# bench/sysfs-list.sh writes the same lists: the same scenario from them
"$TOP/bench/sysfs-list.sh" "$w/lists" "$s" > /dev/null
ok $? "sysfs-list.sh lists the hand-made sysfs"
"$t/sysfs2scen" "$w/lists/devices.txt" "$w/lists/links.txt" > "$w/lists.txt" 2>/dev/null
sed 1d "$w/sysfs.txt" > "$w/a"
sed 1d "$w/lists.txt" > "$w/b"
check "the scenario from its lists is the --sysfs one (but the source name)" cmp "$w/a" "$w/b"
# a link whose supplier is not listed, and one that would close a cycle:
# their consumers' dependencies are no longer all known
printf '/sys/devices/a\tasync=enabled\n/sys/devices/b\tasync=enabled\n/sys/devices/c\tasync=enabled\n' > "$w/l-devs"
printf '/sys/devices/a /sys/devices/b\n/sys/devices/b /sys/devices/a\n/sys/devices/gone /sys/devices/c\n' > "$w/l-links"
"$t/sysfs2scen" "$w/l-devs" "$w/l-links" > "$w/l.txt" 2>/dev/null
check "a link dropped for a cycle (a's on b) or to an unlisted supplier (c's) makes its consumer unknown" \
	[ "$(grep -v '^[#@]' "$w/l.txt" | tr '\n' '|')" = "a deps=unknown|b masters=a|c deps=unknown|" ]
printf '/sys/devices/a\tasync=maybe\n' > "$w/bad-devs"
: > "$w/links"
"$t/sysfs2scen" "$w/bad-devs" "$w/links" > "$w/bad.out" 2>&1
check "a bad attribute is refused with its line and the keys taken" contains "$w/bad.out" \
	"bad-devs:1: 'async=maybe' is not one of async=enabled|disabled"
check "and nothing is written" sh -c "! grep -q '@defaults' '$w/bad.out'"

# a device tree: the bus decides async; a cut list, a cycle or
# interrupt-map make the dependencies unknown
cat > "$w/b.dts" <<'DTS'
/dts-v1/;
/ {
	clk: clock { compatible = "fixed-clock"; #clock-cells = <0>; };
	soc {
		compatible = "simple-bus";
		i2c@1000 { compatible = "vendor,i2c"; #address-cells = <1>; #size-cells = <0>;
			sensor@48 { compatible = "vendor,sensor"; reg = <0x48>; clocks = <&clk>; };
		};
		spi@2000 { compatible = "vendor,spi";
			flash@0 { compatible = "jedec,spi-nor"; };
		};
		pcie@3000 { compatible = "vendor,pcie"; device_type = "pci";
			nic@0 { compatible = "vendor,nic"; reg = <0 0 0 0 0>; };
		};
		usb@4000 { compatible = "vendor,dwc3";
			hub@1 { compatible = "usb5e3,610"; };
		};
		intc@5000 { compatible = "vendor,pcie-intc"; interrupt-map = <0 1>; };
		cut@6000 { compatible = "vendor,cut"; clocks = <0x777>; };
		ufshc@9000 { compatible = "vendor,ufshc", "jedec,ufs-2.0"; reg = <0x9000>; };
		phy@9100 { compatible = "vendor,ufs-phy"; reg = <0x9100>; };
		mmc@a000 { compatible = "vendor,sdhci"; #address-cells = <1>; #size-cells = <0>;
			opp-table { compatible = "operating-points-v2"; };
			wifi@1 { compatible = "vendor,sdio-wifi"; reg = <1>; };
		};
		a: a@7000 { compatible = "vendor,a"; resets = <&b>; #reset-cells = <0>; };
		b: b@8000 { compatible = "vendor,b"; resets = <&a>; #reset-cells = <0>; };
	};
};
DTS
dtc -q -I dts -O dtb -o "$w/b.dtb" "$w/b.dts"
"$t/dt2scen" "$w/b.dtb" > "$w/dt.txt" 2> "$w/dt.err"
ok $? "dt2scen reads the hand-made device tree"
check "an I2C client is async, its dependency linked (known)" dev dt.txt sensor@48 \
	"parent=i2c@1000 masters=clock"
check "the I2C controller is a platform device: sync" dev dt.txt i2c@1000 "parent=soc async=0"
check "an SPI device: sync" dev dt.txt flash@0 "parent=spi@2000 async=0"
check "a PCI device (device_type pci parent): async" dev dt.txt nic@0 "parent=pcie@3000"
check "a USB device (usbVID,PID): async; its dwc3 parent sync" sh -c \
	"[ \"\$(sed -n 's/^hub@1 //p' '$w/dt.txt')\" = 'parent=usb@4000' ] && grep -qx 'usb@4000 parent=soc async=0' '$w/dt.txt'"
check "interrupt-map (not followed): dependencies unknown" dev dt.txt intc@5000 \
	"parent=soc async=0 deps=unknown"
check "a phandle list cut short: unknown" dev dt.txt cut@6000 "parent=soc async=0 deps=unknown"
check "a UFS host is async (its driver opts in at probe), its PHY is not" sh -c \
	"grep -qx 'ufshc@9000 parent=soc' '$w/dt.txt' && grep -qx 'phy@9100 parent=soc async=0' '$w/dt.txt'"
check "under an mmc node: an SDIO function (reg) async, an OPP table (no reg) sync" sh -c \
	"grep -qx 'wifi@1 parent=mmc@a000' '$w/dt.txt' && grep -qx 'opp-table parent=mmc@a000 async=0' '$w/dt.txt'"
check "of a cycle, the link kept is known, the one dropped makes its consumer unknown" sh -c \
	"grep -qx 'a@7000 parent=soc masters=b@8000 async=0' '$w/dt.txt' && grep -qx 'b@8000 parent=soc async=0 deps=unknown' '$w/dt.txt'"

# a device without power/ (device_pm_not_required(): the PM core does not
# list it, it has no record in a transition) is left out, its child under
# its parent; from sysfs and from sysfs-list.sh's lists alike
s2=$w/sys2
mkdir -p "$s2/devices/top/power" "$s2/devices/top/nopm/leaf/power"
: > "$s2/devices/top/uevent"; : > "$s2/devices/top/nopm/uevent"; : > "$s2/devices/top/nopm/leaf/uevent"
"$t/sysfs2scen" --sysfs="$s2" > "$w/nopm.txt" 2> "$w/nopm.err"
check "a device without power/ is left out, its child under its parent" sh -c \
	"grep -qx 'leaf parent=top async=0 deps=unknown' '$w/nopm.txt' && ! grep -q '^nopm' '$w/nopm.txt'"
check "and sysfs2scen says so" contains "$w/nopm.err" "1 devices without power/ (not PM-managed"
"$TOP/bench/sysfs-list.sh" "$w/lists2" "$s2" > /dev/null &&
	"$t/sysfs2scen" "$w/lists2/devices.txt" "$w/lists2/links.txt" 2>/dev/null | sed 1d > "$w/nopm-lists.txt"
check "sysfs-list.sh marks it pm=0: the same scenario" sh -c \
	"grep -q 'nopm	.*pm=0' '$w/lists2/devices.txt' && sed 1d '$w/nopm.txt' | cmp -s - '$w/nopm-lists.txt'"
tap_done
