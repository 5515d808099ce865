#!/bin/sh
# lab-run.sh - make guest, make run and make shell: the lab guest with a
# scenario loaded and the lab's files in /pmlab, running a guest job, your
# command, or an interactive shell.
#
# Usage: lab-run.sh job JOB RESULTS_ROOT     (make guest JOB=... ARGS=...)
#        lab-run.sh run '' RESULTS_ROOT      (make run CMD='...' | SCRIPT=file)
#        lab-run.sh shell '' RESULTS_ROOT    (make shell)
#
# Environment: SCENARIO (name of bench/scenarios or a file; default
# dag-100; none: no synthetic devices), ARGS (job), CMD or SCRIPT (run),
# EXTRA (more files), LAB_FILES (the Makefile's: pmsynth.ko, pmtrace,
# the bpftrace tools), and lab/run-guest.sh's settings (KERNEL, SMP,
# CLOCK, TIMEOUT, APPEND, LIVE, ...).  Results go to RESULTS_ROOT/JOB (job),
# RESULTS_ROOT/<UTC time> (run, shell) and RESULTS_ROOT/latest.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die() { echo "lab-run: $*" >&2; exit 1; }
. "$here/hostlib.sh"

[ $# -eq 3 ] || die "usage: lab-run.sh job|run|shell JOB RESULTS_ROOT"
mode=$1 job=$2 root=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-lab-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

case $mode in
job)
	[ -n "$job" ] || die "make guest: set JOB=<name> (make list shows the guest jobs)"
	case $job in run|shell) die "JOB=$job: use make $job";; esac
	;;
run)
	job=run
	[ -n "${CMD:-}" ] || [ -n "${SCRIPT:-}" ] ||
		die "make run: set CMD='command line' or SCRIPT=file (run in the guest with the lab's setup)"
	[ -z "${CMD:-}" ] || [ -z "${SCRIPT:-}" ] || die "make run: CMD and SCRIPT both set; give one"
	if [ -n "${SCRIPT:-}" ]; then
		[ -f "$SCRIPT" ] && [ -r "$SCRIPT" ] || die "SCRIPT $SCRIPT is not a readable file"
		cp "$SCRIPT" "$work/user-command.sh"
	else
		printf '%s\n' "$CMD" > "$work/user-command.sh"
	fi
	export LIVE=1
	;;
shell)
	job=shell
	export INTERACTIVE=1
	;;
*) die "unknown mode '$mode' (job, run or shell)";;
esac

scen=${SCENARIO-dag-100}
[ -n "$scen" ] || die "SCENARIO is empty (a name of bench/scenarios, a file, or none)"
files=${LAB_FILES:-}
name=
if [ "$scen" != none ]; then
	sf=$(scenario_file "$scen")
	name=$(basename "$sf")
	files="$files $sf"
fi
[ ! -f "$work/user-command.sh" ] || files="$files $work/user-command.sh"
for f in ${EXTRA:-}; do
	[ -e "$f" ] || die "EXTRA file $f not found"
done

# a job whose first argument is its scenario gets SCENARIO's when ARGS is
# empty ("# tracepoints SCENARIO SYNC_EVERY: ..."); the other arguments
# the job's usage line requires must be given
args=${ARGS:-}
if [ "$mode" = job ]; then
	js=$here/jobs/$job.sh
	[ -f "$js" ] || js=$here/jobs/fixtures/$job.sh
	[ -f "$js" ] || exec "$here/run-guest.sh" "$job" "$root/$job"	# names the real ones
	usage=$(sed -n '1s/^# *\([^:]*\):.*/\1/p' "$js")
	set -- $usage
	shift
	if [ -z "$args" ] && { [ "${1:-}" = SCENARIO ] || [ "${1:-}" = DEVICES ]; }; then
		[ -n "$name" ] || die "JOB=$job needs a scenario (SCENARIO=none given)"
		args=$name
	fi
	set -- $args
	given=$#
	set -- $usage
	shift
	need=0
	for a in "$@"; do case $a in \[*|*...) ;; *) need=$((need + 1));; esac; done
	[ "$given" -ge "$need" ] ||
		die "JOB=$job takes ARGS=\"$*\" (got \"$args\"; $(sed -n 's/^# summary: //p' "$js"))"
	out=$root/$job
else
	stamp=$(date -u +%Y%m%dT%H%M%SZ)
	out=$root/$stamp
	# quiet console: the job's output, warnings and errors (dmesg has all)
	export APPEND="loglevel=4 ${APPEND:-}"
fi

for f in ${LAB_FILES:-}; do
	case $f in *.ko) t=pmsynth;; *pmtrace) t=bpf;; *) t=all;; esac
	[ -e "$f" ] || die "$f not built (make $t builds it)"
done
conf=
if [ "$mode" = shell ] && [ -t 0 ]; then
	set -- $(stty size 2>/dev/null || echo)
	[ $# -ne 2 ] || conf="ROWS=$1
COLS=$2"
	echo "lab-run: shell: the guest's console is this terminal; exit leaves it (Ctrl-A x quits QEMU at once)"
fi
mkdir -p "$root"
status=0
# shellcheck disable=SC2086
EXTRA="$files ${EXTRA:-}" SCENARIO=$name CONF=$conf "$here/run-guest.sh" "$job" "$out" $args || status=$?
if [ "$mode" != job ] && [ -d "$out" ]; then
	ln -sfn "$(basename "$out")" "$root/latest"
fi
exit "$status"
