# pmsynth-cycle SCENARIO: load a device scenario (a file passed in EXTRA),
# check devices and pm_links exist, then one full transition (mem +
# pm_test core) sync, one async with Linux 6.12's scheduling (pm_async=2)
# and one with the series' (pm_async=1), each with 0 oracle violations.
#
# summary: a scenario loaded and one transition sync, 6.12 async and series async, 0 oracle violations
. /pmlab/pmlib.sh
scen=/pmlab/$1
[ -f "$scen" ] || fail "no scenario file $scen"
pm_setup
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $1 refused"

ndev=$(grep -cv '^[[:space:]]*\(#\|@\|$\)' "$scen")
nlink=$(sed -n 's/.* masters=\([^ ]*\).*/\1/p' "$scen" | tr ',' '\n' | grep -c .)
teq "$1: every device created" "$ndev" "$(pmsynth_value status devices)"
teq "$1: every device on the bus" "$ndev" "$(ls /sys/bus/pmsynth/devices | wc -l)"
teq "$1: every pm_link created" "$nlink" "$(pmsynth_value status links)"
teq "$1: /sys/class/devlink shows every pm_link" "$nlink" \
	"$(ls /sys/class/devlink | grep -c '^pmsynth:')"

for async in 0 2 1; do
	pm_cycle $async
	teq "$1: transition with pm_async=$async succeeds" 0 $?
	teq "$1: pm_async=$async: 0 oracle violations" 0 "$(pmsynth_value oracle violations)"
	teq "$1: pm_async=$async: every device back to active" 0 "$(pmsynth_value status not_active)"
done
# each device ran each of its eight callbacks exactly three times
bad=0
for d in /sys/bus/pmsynth/devices/*; do
	c=$(awk '$1 !~ /^runtime/ && $2 != 3 { n++ } END { print n + 0 }' "$d/calls")
	[ "$c" -eq 0 ] || bad=$((bad + 1))
done
teq "$1: every device ran all 8 system-sleep callbacks once per transition" 0 "$bad"
checks=$(pmsynth_value oracle checks)
tcheck "$1: the oracle checked every callback ($checks checks)" [ "$checks" -ge $((ndev * 16)) ]
cat $PMSYNTH/oracle > oracle.txt
