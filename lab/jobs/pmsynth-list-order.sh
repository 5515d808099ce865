# pmsynth-list-order: a dependency the PM core does not know.  "slave"
# needs "master" (declared to the oracle only, no device link); master is
# registered first, so dpm_list order alone suspends slave before master
# and resumes master before slave.  The slave's suspend is slow.
#
# What each way of handling devices does with it, suspending (the oracle
# names "master: oracle: suspend: slave slave not suspended yet" when
# master's suspend callback starts before slave's is done):
#   both sync                  list order: correct, everywhere
#   master async, slave sync   6.12 (pm_async=2): master is queued when the
#                              walk reaches it, after slave's synchronous
#                              suspend: correct.  The series (pm_async=1):
#                              master has no known dependency, it starts at
#                              once: the hidden dependency shows
#   both async                 both schedulers start master without waiting
#                              for slave: the hidden dependency shows
#   with a device link         correct on every scheduler
# Documentation/power/suspend-async.rst tells driver writers the fix: a
# device link (or device_pm_wait_for_dev()).
#
# summary: a dependency known only to dpm_list order, sync and on both async schedulers
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"

# pair NAME MASTER_ASYNC SLAVE_ASYNC RELATION: write the scenario NAME.txt
pair() {
	cat > "$1.txt" <<S
@defaults lat=system:200
master async=$2
slave async=$3 $4=master lat=suspend:50000
S
}
pair both-sync 0 0 oracle_masters
pair master-async 1 0 oracle_masters
pair both-async 1 1 oracle_masters
pair linked 1 1 masters

# suspend_violation SCENARIO PM_ASYNC: 1 if master suspended before slave
suspend_violation() {
	pmsynth_load "$1.txt" || fail "$1.txt refused"
	dmesg -c > /dev/null
	pm_cycle "$2" || fail "$1: transition with pm_async=$2 failed"
	dmesg > "$1-$2.dmesg"
	if grep -q "master: oracle: suspend: slave slave not suspended yet" "$1-$2.dmesg"; then
		echo 1
	else
		echo 0
	fi
}
for a in 0 2 1; do
	teq "both sync, pm_async=$a: list order keeps master after slave" 0 "$(suspend_violation both-sync $a)"
done
teq "master async, slave sync, 6.12's scheduling: master queued after slave's sync suspend, in order" \
	0 "$(suspend_violation master-async 2)"
teq "master async, slave sync, the series' scheduling: master starts at once, the hidden dependency shows" \
	1 "$(suspend_violation master-async 1)"
teq "both async, 6.12's scheduling: master does not wait for slave either" 1 "$(suspend_violation both-async 2)"
teq "both async, the series' scheduling: the same" 1 "$(suspend_violation both-async 1)"
for a in 0 2 1; do
	teq "with a device link, pm_async=$a: in order" 0 "$(suspend_violation linked $a)"
done
