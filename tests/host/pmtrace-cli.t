#!/bin/sh
# bpf/pmtrace's command line, on the host, built with ASan and UBSan: --help
# with examples, --version, and bad options or arguments refused with their
# cause before anything is opened.  pmtrace never gets as far as loading
# BPF here: every run has an argument that fails first, and as root it runs
# as nobody without capabilities (setpriv), where the bpf() syscall is
# refused anyway.
. "$(dirname "$0")/../lib.sh"
tap_plan 17
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
chmod 755 "$w"
mkdir "$w/out"
chmod 777 "$w/out"
if [ ! -r "$BUILD/obj/vmlinux" ] ||
	! make -s -C "$TOP/bpf" O="$w" SANITIZE=1 VMLINUX="$BUILD/obj/vmlinux" > "$w/build.log" 2>&1; then
	sed 's/^/# /' "$w/build.log" 2>/dev/null
	ok 1 "pmtrace builds (needs $BUILD/obj/vmlinux: make kernel)"
	i=2
	while [ $i -le 17 ]; do skip "pmtrace command line" "pmtrace not built"; i=$((i + 1)); done
	tap_done
fi
ok 0 "pmtrace builds"
pt=$w/pmtrace

pmtrace() {
	if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			--bounding-set=-all -- "$pt" "$@"
	else
		"$pt" "$@"
	fi
}

pmtrace --help > "$w/help" 2>&1
ok $? "--help exits 0"
check "--help gives examples" contains "$w/help" "Examples:"
check "among them recording one transition" \
	contains "$w/help" "pmtrace -o records.jsonl -c 'echo mem > /sys/power/state'"
check "--help lists --verbose and the test limits" \
	sh -c "grep -q -- '-v, --verbose' '$w/help' && grep -q -- '--max-phase-keys=N' '$w/help' &&
		grep -q -- '--max-events=N' '$w/help'"
format=$(sed -n 's/^#define PMTRACE_FORMAT "\(.*\)"$/\1/p' "$TOP/bpf/pmtrace.h")
pmtrace --version > "$w/version" 2>&1
ok $? "--version exits 0"
check "--version prints pmtrace's version, the record format ($format) and libbpf's" \
	grep -Eqx "pmtrace [0-9]+\.[0-9]+ \(records $format, libbpf v[0-9]+\.[0-9]+\)" "$w/version"

# refused ARGS... -- MESSAGE DESCRIPTION: pmtrace ARGS -o FILE exits
# non-zero, says MESSAGE and leaves no FILE.
n=0
refused() {
	n=$((n + 1))
	_args=
	while [ "$1" != -- ]; do
		_args="$_args '$1'"
		shift
	done
	shift
	eval "pmtrace -o '$w/out/$n.jsonl' $_args" > "$w/out/$n.txt" 2>&1
	_st=$?
	if [ $_st -ne 0 ] && contains "$w/out/$n.txt" "$1" && [ ! -e "$w/out/$n.jsonl" ]; then
		ok 0 "$2 (exit $_st)"
	else
		ok 1 "$2 (exit $_st)"
	fi
}
refused -m novalue -- "pmtrace: -m wants KEY=VALUE, got 'novalue'" \
	"-m without '=' is refused with its cause, writing no records file"
refused -m =v -- "pmtrace: -m wants KEY=VALUE, got '=v'" "-m with an empty key is refused"
refused records.jsonl -- "pmtrace: unexpected argument 'records.jsonl' (the command goes in -c CMD)" \
	"an argument that is not an option's is refused"
refused --bogus -- "unrecognized option '--bogus'" "an unknown option is refused"
refused -c -- "option requires an argument -- 'c'" "-c without its command is refused"
refused --max-phase-keys 0 -- "pmtrace: --max-phase-keys wants a number from 1 to 100000000, got '0'" \
	"--max-phase-keys 0 is refused"
refused --max-phase-keys 12x -- "pmtrace: --max-phase-keys wants a number from 1 to 100000000, got '12x'" \
	"--max-phase-keys with junk after the number is refused"
refused --max-events -5 -- "pmtrace: --max-events wants a number from 1 to 100000000, got '-5'" \
	"--max-events below 1 is refused"
refused --max-events 99999999999999999999 -- \
	"pmtrace: --max-events wants a number from 1 to 100000000, got '99999999999999999999'" \
	"--max-events beyond 64 bits is refused, not capped"

pmtrace -o "$w/no/such/dir/r.jsonl" > "$w/nodir.txt" 2>&1
st=$?
check "an output file that cannot be created is refused before anything is loaded (exit $st)" \
	sh -c "[ $st -eq 1 ] && grep -qx 'pmtrace: $w/no/such/dir/r.jsonl: No such file or directory' '$w/nodir.txt'"
tap_done
