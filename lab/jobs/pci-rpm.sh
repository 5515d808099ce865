# pci-rpm: PCI runtime PM (seed 001) on a real emulated device: QEMU's NVMe
# controller (1b36:0010, the one device of this guest with a PCI PM
# capability), bound to vfio-pci in no-IOMMU mode: lab/pci-runtime-pm.md
# says why this device and this driver.  Under pmtrace (mode runtime,
# pci-rpm.jsonl) and the rpm:* trace events (rpm.trace, a trace_marker
# line "pmlab: STEP" before each step), the steps:
#   bind     vfio-pci binds, allows runtime PM and drops its reference:
#            the idle device runtime-suspends to D3hot;
#   config   a read of its config space through sysfs (lspci's way)
#            works in D3hot: the PCI core resumes only a device in D3cold
#            for it (pci_config_pm_runtime_get()), so it stays suspended;
#   open     a user-space driver opens it (vfio-hold, through the VFIO
#            group): D0 while it is open, D3hot once it is closed;
#   on/auto  power/control on (runtime PM forbidden: D0), then auto;
#   unbind   vfio-pci lets go: D0, runtime PM forbidden again.
# states.txt: "STEP driver control runtime_status power_state" after each.
# Runtime wake: QEMU 7.2 models no PME, so the checks are what shows it:
# PME_Support empty in the PM capability (read from config space), no
# power/wakeup file (wake.txt).  Checks in checks.txt.
#
# summary: PCI runtime PM (seed 001): an NVMe controller under vfio-pci goes to D3hot when idle, D0 on use
# qemu-machine: q35
# qemu-devices: nvme,serial=rpm0
. /pmlab/pmlib.sh
[ -x /pmlab/pmtrace ] || fail "no /pmlab/pmtrace"
[ -x /pmlab/vfio-hold ] || fail "no /pmlab/vfio-hold"
bdf=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat $d/vendor):$(cat $d/device)" = 0x1b36:0x0010 ] && bdf=$(basename $d)
done
[ -n "$bdf" ] || fail "no QEMU NVMe controller (1b36:0010): the job's qemu-devices line was not used"
D=/sys/bus/pci/devices/$bdf
echo "$bdf" > bdf.txt
log "the NVMe controller is $bdf"

# cfg OFFSET BYTES: BYTES (1 or 2) of config space at OFFSET, as a number
cfg() { printf '%d' "0x$(od -An -tx$2 -j "$1" -N "$2" $D/config | tr -d ' ')"; }
drv() { basename "$(readlink $D/driver 2>/dev/null || echo none)"; }
state() { echo $(drv) $(cat $D/power/control $D/power/runtime_status $D/power_state); }

# --- the PM capability and runtime wake, before any driver binds ---
pm=0 cap=0 k=0
[ $(($(cfg 6 2) & 0x10)) -ne 0 ] && cap=$(($(cfg 52 1) & 0xfc))	# PCI_STATUS_CAP_LIST
while [ "$cap" -ne 0 ] && [ "$k" -lt 48 ]; do	# 48: the kernel's bound too
	[ "$(cfg $cap 1)" -eq 1 ] && pm=$cap	# PCI_CAP_ID_PM
	cap=$(($(cfg $((cap + 1)) 1) & 0xfc))
	k=$((k + 1))
done
[ "$pm" -ne 0 ] || fail "$bdf has no PCI PM capability"
pmc=$(cfg $((pm + 2)) 2)
{
	echo "pm_cap $pm"
	printf 'pmc 0x%04x\n' "$pmc"
	echo "pme_support $((pmc >> 11))"
	echo "power_wakeup $([ -e $D/power/wakeup ] && cat $D/power/wakeup || echo absent)"
} > wake.txt
# power_state "unknown": pci_setup_device() sets it so, and nothing has
# moved the device to a power state yet (a driver's probe would)
teq "at boot: no driver, runtime PM forbidden, active, power state not set yet" \
	"none on active unknown" "$(state)"
teq "PME_Support of its PM capability is empty (QEMU 7.2 models no PME)" 0 \
	"$(sed -n 's/^pme_support //p' wake.txt)"
teq "not wakeup-capable: no power/wakeup (no PME, and no ACPI _PRW for it)" absent \
	"$(sed -n 's/^power_wakeup //p' wake.txt)"

echo 1 > /sys/module/vfio/parameters/enable_unsafe_noiommu_mode ||
	fail "cannot enable vfio's no-IOMMU mode (CONFIG_VFIO_NOIOMMU)"

# steps.sh: the steps, run under pmtrace; "read -t" on a FIFO waits
# without forking
cat > /tmp/steps.sh <<'S'
. /pmlab/pmlib.sh
bdf=$1
D=/sys/bus/pci/devices/$bdf
drv() { basename "$(readlink $D/driver 2>/dev/null || echo none)"; }
state() { echo $(drv) $(cat $D/power/control $D/power/runtime_status $D/power_state); }
rm -f /tmp/steps.fifo
mkfifo /tmp/steps.fifo || fail "cannot make /tmp/steps.fifo"
exec 3<> /tmp/steps.fifo
nap() { read -t "$1" -u 3 _ || true; }
mark() { echo "pmlab: $1" > $TRACEFS/trace_marker; }
# settle STEP STATUS: wait (5 s at most) for runtime_status STATUS, then
# append "STEP driver control runtime_status power_state" to states.txt
settle() {
	k=0
	while [ "$(cat $D/power/runtime_status)" != "$2" ]; do
		k=$((k + 1))
		[ "$k" -le 250 ] || fail "$1: $bdf not $2 after 5 s: $(state)"
		nap 0.02
	done
	echo "$1 $(state)" >> states.txt
}
mark bind
echo vfio-pci > $D/driver_override || fail "cannot set driver_override"
echo "$bdf" > /sys/bus/pci/drivers_probe
[ "$(drv)" = vfio-pci ] || fail "vfio-pci did not bind $bdf: $(dmesg | tail -3)"
settle bind suspended
mark config
vendor=$(od -An -tx2 -N2 $D/config | tr -d ' ')
# the state right after the read: a read that resumed the device would
# leave it active until pm_wq suspends it again
echo "config-read $(state)" >> states.txt
echo "config vendor $vendor" > use.txt
settle config suspended
mark open
/pmlab/vfio-hold "$bdf" sh -c "echo open \$(cat $D/power/runtime_status $D/power_state) >> use.txt" \
	>> use.txt 2>&1 || fail "vfio-hold failed: $(tail -1 use.txt)"
settle open suspended
mark on
echo on > $D/power/control
settle on active
mark auto
echo auto > $D/power/control
settle auto suspended
mark unbind
echo "$bdf" > /sys/bus/pci/drivers/vfio-pci/unbind || fail "cannot unbind vfio-pci"
settle unbind active
mark end
S

: > states.txt
trace_setup 'rpm:*'
trace_on
/pmlab/pmtrace -o pci-rpm.jsonl -m "scenario=pci-nvme" -m "mode=runtime" -m "device=$bdf" \
	-m "cpus=$(nproc)" -c "sh /tmp/steps.sh $bdf" 2> pmtrace.log ||
	fail "the steps under pmtrace failed: $(tail -2 pmtrace.log)"
trace_off
trace_save rpm.trace

st() { sed -n "s/^$1 //p" states.txt; }
teq "bound: vfio-pci allowed runtime PM, the idle device is suspended in D3hot" \
	"vfio-pci auto suspended D3hot" "$(st bind)"
teq "a config space read through sysfs gets the vendor ID (1b36) and leaves it in D3hot" \
	"config vendor 1b36" "$(sed -n 1p use.txt)"
teq "right after the config read: still suspended in D3hot (never resumed)" \
	"vfio-pci auto suspended D3hot" "$(st config-read)"
teq "opened by a user-space driver: VFIO's config region reads the IDs" \
	"vfio-hold: $bdf open: vendor 0x1b36 device 0x0010" "$(sed -n 2p use.txt)"
teq "while it is open: active, D0" "open active D0" "$(sed -n 3p use.txt)"
teq "closed: suspended in D3hot again" "vfio-pci auto suspended D3hot" "$(st open)"
teq "power/control on: active, D0" "vfio-pci on active D0" "$(st on)"
teq "power/control auto: suspended, D3hot" "vfio-pci auto suspended D3hot" "$(st auto)"
teq "unbound: no driver, runtime PM forbidden, active, D0" "none on active D0" "$(st unbind)"
