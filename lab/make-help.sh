#!/bin/sh
# make-help.sh - "make help" and "make list", generated from their sources
# so they cannot drift from what they describe.
#
# Usage: make-help.sh help MAKEFILE   targets and variables: the "#> name
#                                     text" lines of MAKEFILE, in its order
#        make-help.sh list MAKEFILE   scenarios (bench/scenarios: each
#                                     file's own header) and guest jobs
#                                     (lab/jobs: each script's first line),
#                                     the test fixtures (lab/jobs/fixtures)
#                                     apart
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die() { echo "make-help: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: make-help.sh help|list MAKEFILE"
[ -f "$2" ] || die "no makefile $2"

# help: a target's line is "#> name  text", a variable's "#> NAME=default  text"
help() {
	echo "pmlab: make TARGET [VARIABLE=value ...]   (README.md has the walk-through)"
	echo
	echo "Targets:"
	sed -n 's/^#> \([a-z][a-z-]*\)  *\(.*\)$/\1\t\2/p' "$1" |
		awk -F'\t' '{ printf "  %-12s %s\n", $1, $2 }'
	echo
	echo "Variables (environment or command line; default after =):"
	sed -n 's/^#> \([A-Z][A-Z_]*=[^ ]*\)  *\(.*\)$/\1\t\2/p' "$1" |
		awk -F'\t' '{ printf "  %-40s %s\n", $1, $2 }'
	echo
	echo "make list: the scenarios and guest jobs."
}

# job_line FILE: the job's usage (its first line, "# name ARGS: ...") and
# its "# summary: " line
job_line() {
	use=$(sed -n '1s/^# *\([^:]*\):.*/\1/p' "$1")
	what=$(sed -n 's/^# summary: //p' "$1")
	[ -n "$use" ] && [ -n "$what" ] || die "$1: no '# name ARGS:' first line or '# summary:' line"
	printf '  %-38s %s\n' "$use" "$what"
}

list() {
	echo "Scenarios (SCENARIO=name, SCENARIOS=\"name ...\"; a file path works too):"
	for f in "$top"/bench/scenarios/*.txt; do
		n=$(basename "$f" .txt)
		size=$(sed -n '2s/^# \([^;]*\);.*/\1/p' "$f")
		from=$(sed -n '1s/^# pmsynth scenario[: ]*//p' "$f" | sed 's/ (latency model.*//')
		printf '  %-18s %-28s %s\n' "$n" "$size" "$from"
	done
	echo
	echo "Guest jobs (make guest JOB=name ARGS=...; lab/jobs/README.md):"
	for f in "$top"/lab/jobs/*.sh; do job_line "$f"; done
	echo
	echo "Test fixtures (lab/jobs/fixtures, for the lab's own tests):"
	for f in "$top"/lab/jobs/fixtures/*.sh; do job_line "$f"; done
}

case $1 in
help) help "$2";;
list) list;;
*) die "unknown mode '$1' (help or list)";;
esac
