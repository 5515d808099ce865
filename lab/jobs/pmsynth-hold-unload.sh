# pmsynth-hold-unload SCENARIO: writes to the devices' "hold" attribute
# while the population is unloaded and loaded again, ROUNDS times.  Unload
# removes devices (device_unregister() waits for attribute writes in
# flight) while holding the module's mutex; a hold write that took that
# mutex deadlocked both.  The writers run in the background; every round
# must finish within its time, and afterwards every device is active-able,
# unheld, and runtime PM balanced.
#
# summary: hold writes racing pmsynth unload/load rounds (a former deadlock)
. /pmlab/pmlib.sh
[ $# -eq 2 ] || fail "usage: pmsynth-hold-unload.sh SCENARIO ROUNDS"
scen=/pmlab/$1 rounds=$2
pmsynth_insmod
pmsynth_load "$scen" || fail "scenario $1 refused"

# writers: take and drop references on every device, over and over;
# failures are expected while a device goes away
writer() {
	while [ ! -e /tmp/stop ]; do
		for h in /sys/bus/pmsynth/devices/*/hold; do
			echo 1 > "$h" 2>/dev/null
			echo 0 > "$h" 2>/dev/null
		done
	done
}
rm -f /tmp/stop
writer & w1=$!
writer & w2=$!
done_rounds=0
i=1
while [ "$i" -le "$rounds" ]; do
	# a round that deadlocks never returns, and its writer sleeps
	# uninterruptibly, out of timeout's reach: the host's TIMEOUT catches
	# that; timeout here only bounds a slow round
	if ! timeout 60 sh -c "echo unload > $PMSYNTH/control && cat $scen > $PMSYNTH/scenario && echo load > $PMSYNTH/control"; then
		log "round $i did not finish in 60 s (or failed): $(pmsynth_value status error)"
		break
	fi
	done_rounds=$i
	i=$((i + 1))
done
touch /tmp/stop
wait $w1 $w2
teq "all $rounds unload/load rounds finished under concurrent hold writes" "$rounds" "$done_rounds"
held=$(cat /sys/bus/pmsynth/devices/*/hold | awk '$1 != 0 { n++ } END { print n + 0 }')
log "devices still held by the writers' last writes: $held"
for h in /sys/bus/pmsynth/devices/*/hold; do
	while [ "$(cat "$h")" -gt 0 ]; do echo 0 > "$h" || break; done
done
teq "every hold can be dropped afterwards" 0 \
	"$(cat /sys/bus/pmsynth/devices/*/hold | awk '$1 != 0 { n++ } END { print n + 0 }')"
teq "runtime usage counts all back to 0" 0 \
	"$(cat /sys/bus/pmsynth/devices/*/power/runtime_usage | awk '$1 != 0 { n++ } END { print n + 0 }')"
pmsynth_ctl unload
teq "a final unload leaves no device" 0 "$(ls /sys/bus/pmsynth/devices | wc -l)"
