#!/bin/sh
# run-guest.sh - boot the lab kernel in QEMU and run one guest job inside.
#
# Usage: run-guest.sh JOB OUTDIR [ARG...]
#
# JOB is a script of lab/jobs or lab/jobs/fixtures (a guest job;
# "scenario" is a device population of bench/scenarios).  Users run it
# through make guest/run/shell (lab/lab-run.sh); tests call it directly.
#
# Environment (all optional):
#   KERNEL    bzImage to boot                     (build/obj/arch/x86/boot/bzImage)
#   INITRAMFS base initramfs                      (build/initramfs.cpio)
#   EXTRA     files to add under /pmlab in the guest (space separated)
#   SMP       vCPUs                               (4)
#   MEM       guest RAM                           (2G)
#   CLOCK     virtual: -icount shift=0,sleep=off, deterministic virtual time,
#             one clock for all vCPUs (right for sleeping callbacks);
#             real: host clock, multi-threaded TCG or KVM (CPU-bound work)
#   ACCEL     auto | tcg | kvm                    (auto: KVM only for
#             CLOCK=real and only if a probe boot succeeded)
#   TIMEOUT   seconds before the guest is killed  (600)
#   APPEND    extra kernel command line arguments
#   ACPI_TABLES  compiled ACPI tables (.aml, space separated) added to the
#             guest's firmware tables (QEMU -acpitable), e.g. the battery
#             SSDT build/acpi/battery.aml (make acpi); default: those a
#             job names in its "# acpi-tables: NAME.aml ..." line
#   MACHINE   QEMU machine type, pc or q35 (default: the job's
#             "# qemu-machine:" line, else pc)
#   DEVICES   more QEMU devices, "-device" specs separated by spaces, e.g.
#             nvme,serial=rpm0 (default: the job's "# qemu-devices:" line):
#             a device that only one job's test needs stays out of the
#             others' guests and their suspend/resume times
#   SCENARIO  a scenario file name in /pmlab (one of EXTRA) the job may use
#             as its default ($SCENARIO in the job)
#   CONF      more "NAME=value" lines for the job's run.conf (one per line)
#   LIVE      1: stream the console (kernel and job output) while the guest
#             runs; it is saved in console.log either way
#   INTERACTIVE 1: the console is this terminal, both ways (make shell):
#             Ctrl-A x quits QEMU, Ctrl-A h lists the other keys; no
#             timeout unless TIMEOUT is set
#
# OUTDIR receives console.log (serial console), run.txt (settings: clock,
# accelerator, SMP, QEMU version, kernel) and the files the job wrote.
# It is created only when the guest delivered complete results (length and
# checksum verified); otherwise OUTDIR.failed holds the console log and the
# command fails with one line naming the cause.  Exit status: the job's
# own, or 1 with a message for a lab failure (no boot, hang, lost results).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die() { echo "run-guest: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: run-guest.sh JOB OUTDIR [ARG...]"
job=$1 out=$2
shift 2
script=$here/jobs/$job.sh
[ -f "$script" ] || script=$here/jobs/fixtures/$job.sh
if [ ! -f "$script" ]; then
	avail=$(cd "$here/jobs" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')
	fixtures=$(cd "$here/jobs/fixtures" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')
	die "unknown guest job '$job' (lab/jobs: ${avail% }; test fixtures: ${fixtures% }; make list describes them)"
fi

KERNEL=${KERNEL:-$top/build/obj/arch/x86/boot/bzImage}
INITRAMFS=${INITRAMFS:-$top/build/initramfs.cpio}
SMP=${SMP:-4}
MEM=${MEM:-2G}
CLOCK=${CLOCK:-virtual}
ACCEL=${ACCEL:-auto}
INTERACTIVE=${INTERACTIVE:-}
LIVE=${LIVE:-}
if [ -n "$INTERACTIVE" ]; then TIMEOUT=${TIMEOUT:-none}; else TIMEOUT=${TIMEOUT:-600}; fi
EXTRA=${EXTRA:-}
ACPI_TABLES=${ACPI_TABLES:-}
if [ -z "$ACPI_TABLES" ]; then
	for t in $(sed -n 's/^# acpi-tables: //p' "$script"); do
		ACPI_TABLES="$ACPI_TABLES $top/build/acpi/$t"
	done
fi
MACHINE=${MACHINE:-$(sed -n 's/^# qemu-machine: //p' "$script" | head -1)}
MACHINE=${MACHINE:-pc}
DEVICES=${DEVICES:-$(sed -n 's/^# qemu-devices: //p' "$script")}

[ -f "$KERNEL" ] || die "kernel $KERNEL not built (make kernel)"
[ -f "$INITRAMFS" ] || die "initramfs $INITRAMFS not built (make initramfs)"
case $SMP in ''|*[!0-9]*|0) die "SMP must be a positive number, got '$SMP'";; esac
case $TIMEOUT in none) [ -n "$INTERACTIVE" ] ||
	die "TIMEOUT must be a positive number of seconds, got '$TIMEOUT'";;
''|*[!0-9]*|0) die "TIMEOUT must be a positive number of seconds, got '$TIMEOUT'";; esac
case $CLOCK in virtual|real) ;; *) die "CLOCK must be virtual or real, got '$CLOCK'";; esac
case $ACCEL in auto|tcg|kvm) ;; *) die "ACCEL must be auto, tcg or kvm, got '$ACCEL'";; esac
case $MACHINE in pc|q35) ;; *) die "MACHINE must be pc or q35, got '$MACHINE'";; esac
device_args=
for d in $DEVICES; do
	case $d in
	[a-z]*) ;;
	*) die "DEVICES: '$d' is not a QEMU device spec (a model name, then ,key=value)";;
	esac
	case $d in *[!A-Za-z0-9_.,=:-]*)
		die "DEVICES: '$d' has a character other than letters, digits and _ . , = : -";;
	esac
	device_args="$device_args -device $d"
done
acpi_args=
for f in $ACPI_TABLES; do
	[ -f "$f" ] || die "ACPI table $f not found (make acpi builds build/acpi/*.aml)"
	case $(od -An -c -N4 "$f" | tr -d ' ') in
	SSDT|DSDT) ;;
	*) die "ACPI table $f is not a compiled SSDT (iasl's .aml)";;
	esac
	case $f in *,*) die "ACPI table path $f has a comma (QEMU's option syntax)";; esac
	acpi_args="$acpi_args -acpitable file=$f"
done

# Accelerator.  Virtual time needs TCG's instruction counter.
accel=tcg
why="CLOCK=$CLOCK"
if [ "$CLOCK" = real ] && [ "$ACCEL" != tcg ]; then
	if "$here/kvm-probe.sh" "$KERNEL"; then
		accel=kvm why="KVM probe boot succeeded"
	elif [ "$ACCEL" = kvm ]; then
		die "ACCEL=kvm but the KVM probe boot failed (see build/kvm-probe.log)"
	else
		why="KVM probe boot failed"
	fi
fi
case $accel/$CLOCK in
kvm/*)		accel_args="-accel kvm -cpu host";;
tcg/virtual)	accel_args="-accel tcg,thread=single -icount shift=0,sleep=off";;
tcg/real)	accel_args="-accel tcg,thread=multi";;
esac
tmo=${TIMEOUT}s
[ "$TIMEOUT" != none ] || tmo=none
echo "run-guest: $job: accel $accel ($why), clock $CLOCK, $SMP vCPUs, timeout $tmo"

rm -rf "$out" "$out.failed" "$out.tmp"
mkdir -p "$out.tmp"
tmp=$(realpath "$out.tmp")
work=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-run.XXXXXX")
qemu_pid=
# kill_qemu: QEMU runs in a background subshell ($qemu_pid): kill QEMU, its
# child, first; killed first, the subshell would leave QEMU to init, and a
# guest left running spins a host core through virtual time
kill_qemu() {
	pkill -9 -P "$qemu_pid" 2>/dev/null || true
	kill -9 "$qemu_pid" 2>/dev/null || true
}
cleanup() {
	[ -z "$qemu_pid" ] || kill_qemu
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Per-run archive: the job, its arguments and any extra files,
# appended to the base initramfs (the kernel unpacks concatenated cpios).
mkdir -p "$work/root/pmlab"
cp "$script" "$work/root/pmlab/job.sh"
{
	printf 'JOB=%s\n' "$job"
	printf 'ARGS="%s"\n' "$*"
	printf 'SCENARIO=%s\n' "${SCENARIO:-}"
	[ -z "${CONF:-}" ] || printf '%s\n' "$CONF"
} > "$work/root/pmlab/run.conf"
for f in $EXTRA; do
	[ -e "$f" ] || die "extra file $f not found"
	cp -r "$f" "$work/root/pmlab/"
done
(cd "$work/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet --owner=0:0) > "$work/run.cpio"
cat "$INITRAMFS" "$work/run.cpio" > "$work/initrd.cpio"

qemu=qemu-system-x86_64
{
	echo "job=$job"
	echo "args=$*"
	echo "clock=$CLOCK"
	echo "accel=$accel"
	echo "smp=$SMP"
	echo "mem=$MEM"
	echo "qemu=$($qemu --version | head -1)"
	echo "kernel=$KERNEL"
	[ -z "$ACPI_TABLES" ] || echo "acpi_tables=$ACPI_TABLES"
	echo "machine=$MACHINE"
	[ -z "$DEVICES" ] || echo "devices=$(echo $DEVICES)"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$tmp/run.txt"

start=$(date +%s)
append="console=ttyS0,115200 panic=-1 suspend.pm_test_delay=0 no_console_suspend loglevel=6 ${APPEND:-}"
# qemu_run: QEMU with the console on SERIAL0 ("file:..." or a chardev)
qemu_run() {
	# shellcheck disable=SC2086
	$qemu -machine "$MACHINE" -nodefaults -no-user-config -display none -no-reboot \
		$accel_args -smp "$SMP" -m "$MEM" $acpi_args $device_args \
		-kernel "$KERNEL" -initrd "$work/initrd.cpio" -append "$append" \
		"$@" -serial "file:$work/channel"
}

if [ -n "$INTERACTIVE" ]; then
	# the console is this terminal (mux: Ctrl-A x quits, Ctrl-C goes to
	# the guest), logged to console.log as well
	con="-chardev stdio,id=con,mux=on,signal=off,logfile=$tmp/console.log"
	qemu_status=0
	if [ "$TIMEOUT" = none ]; then
		qemu_run $con -serial chardev:con -mon chardev=con,mode=readline 2>"$work/qemu.out" ||
			qemu_status=$?
		[ ! -t 0 ] || stty sane 2>/dev/null || true
	else
		# an asynchronous command's stdin is /dev/null unless redirected
		exec 3<&0
		(qemu_run $con -serial chardev:con -mon chardev=con,mode=readline <&3) 2>"$work/qemu.out" &
		qemu_pid=$!
		# the terminal is QEMU's (raw) until it ends: stty sane after
	fi
else
	qemu_run -serial "file:$tmp/console.log" </dev/null >"$work/qemu.out" 2>&1 &
	qemu_pid=$!
fi
if [ -n "$LIVE" ] && [ -n "$qemu_pid" ]; then
	: > "$tmp/console.log"
	tail -n +1 -f --pid="$qemu_pid" "$tmp/console.log" 2>/dev/null | sed -u 's/\r$//' &
fi

# Wait for QEMU to exit on its own (guest poweroff) or kill it.
while [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; do
	if [ "$TIMEOUT" != none ] && [ $(($(date +%s) - start)) -ge "$TIMEOUT" ]; then
		kill_qemu
		wait "$qemu_pid" 2>/dev/null || true
		qemu_pid=
		[ ! -t 0 ] || stty sane 2>/dev/null || true
		mv "$tmp" "$out.failed"
		die "$job: guest timed out after ${TIMEOUT}s and was killed (console: $out.failed/console.log)"
	fi
	sleep 1
done
if [ -n "$qemu_pid" ]; then
	qemu_status=0
	wait "$qemu_pid" || qemu_status=$?
	qemu_pid=
fi
[ ! -t 0 ] || [ -z "$INTERACTIVE" ] || stty sane 2>/dev/null || true
sleep 0.2	# the live console's last lines
elapsed=$(($(date +%s) - start))
echo "host_seconds=$elapsed" >> "$tmp/run.txt"

# lacks: what the guest's init found missing in the kernel (lab/guest/init)
lacks() { grep -a '^pmlab: kernel lacks' "$tmp/console.log" 2>/dev/null | tr -d '\r' | sed 's/^/run-guest: /' >&2; }

failed() {
	lacks
	cp "$work/qemu.out" "$tmp/qemu.out" 2>/dev/null || true
	mv "$tmp" "$out.failed"
	die "$job: $* (console: $out.failed/console.log)"
}
[ "$qemu_status" -eq 0 ] || failed "QEMU exited with status $qemu_status: $(head -c 300 "$work/qemu.out")"
if ! grep -q '^PMLAB-RESULTS-END' "$work/channel" 2>/dev/null; then
	if grep -q 'Kernel panic' "$tmp/console.log"; then
		failed "guest kernel panicked: $(grep -m1 'Kernel panic' "$tmp/console.log" | tr -d '\r')"
	elif ! grep -q 'pmlab: job' "$tmp/console.log"; then
		failed "guest never reached the job (kernel did not boot?)"
	else
		failed "guest sent no complete results"
	fi
fi

# Decode and verify the results archive.
tr -d '\r' < "$work/channel" > "$work/channel.txt"
set -- $(grep -m1 '^PMLAB-RESULTS-BEGIN ' "$work/channel.txt")
[ $# -eq 3 ] || failed "results channel has no valid header"
size=$2 sum=$3
sed -n '/^PMLAB-RESULTS-BEGIN /,/^PMLAB-RESULTS-END/p' "$work/channel.txt" |
	sed '1d;$d' | base64 -d > "$work/results.tar" 2>/dev/null ||
	failed "results channel payload is not valid base64"
[ "$(stat -c %s "$work/results.tar")" = "$size" ] ||
	failed "results truncated: $(stat -c %s "$work/results.tar") of $size bytes"
[ "$(sha256sum < "$work/results.tar" | cut -d' ' -f1)" = "$sum" ] ||
	failed "results checksum mismatch"
tar -C "$tmp" --warning=no-timestamp -xf "$work/results.tar" || failed "results archive does not unpack"
[ -f "$tmp/status" ] || failed "results lack the job's exit status"
status=$(cat "$tmp/status")
mv "$tmp" "$out"
echo "run-guest: $job: exit $status after ${elapsed}s host time, results in $out"
if [ "$status" -ne 0 ] && [ -z "$LIVE$INTERACTIVE" ]; then
	# the cause is in the job's own output: show its end
	tmp=$out lacks
	echo "run-guest: $job: the job's last output lines ($out/job.log):" >&2
	tail -n 15 "$out/job.log" | sed 's/^/    /' >&2
fi
exit "$status"
