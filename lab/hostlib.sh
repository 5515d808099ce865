# hostlib.sh - helpers for the host-side lab scripts (sourced, POSIX sh).
# The caller defines die() and $top (the project directory).

# scenario_file NAME-OR-PATH: print the scenario file a user means: a path
# (anything with a "/" or ending in .txt that exists) as it is, else
# bench/scenarios/NAME.txt; dies naming the cause otherwise.  The name
# the guest sees is its basename, so it must be a plain file name.
scenario_file() {
	case $1 in
	*/*|*.txt)
		[ -e "$1" ] || die "scenario file $1 not found"
		[ -f "$1" ] && [ -r "$1" ] || die "scenario $1 is not a readable file"
		_sf=$1;;
	*)
		_sf=$top/bench/scenarios/$1.txt
		[ -f "$_sf" ] ||
			die "unknown scenario '$1' (bench/scenarios: $(cd "$top/bench/scenarios" && ls *.txt | sed 's/\.txt$//' | tr '\n' ' ')or a file path)";;
	esac
	case $(basename "$_sf") in
	*[!A-Za-z0-9._+-]*) die "scenario file name $(basename "$_sf") has characters other than letters, digits and ._+-";;
	esac
	# the host's reader is pmsynth's own parser: refuse here what the
	# guest would refuse, before anything boots
	if [ -x "$top/build/tools/critpath" ]; then
		_se=$("$top/build/tools/critpath" --check "$_sf" 2>&1 >/dev/null) ||
			die "scenario $_sf refused: $_se"
	fi
	echo "$_sf"
}
