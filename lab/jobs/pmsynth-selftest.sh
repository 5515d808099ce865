# pmsynth-selftest: the oracle can fail.  "slave" declares "master" to the
# oracle only (no device link), and master is registered after slave, so
# the PM core prepares slave first and suspends master first: the oracle
# must count both, in sync and in async mode.  The same pair with a real
# pm_link is the control: 0 violations.
#
# summary: the oracle catches a dependency the PM core does not know (it can fail)
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
# async=1: with pm_async=1 both run in async workers; the slave's long
# suspend makes "master before slave" certain there
cat > broken.txt <<'S'
@defaults lat=system:100 async=1
slave oracle_masters=master lat=suspend:100000
master
S
cat > linked.txt <<'S'
@defaults lat=system:100 async=1
slave masters=master lat=suspend:100000
master
S
pmsynth_load broken.txt || fail "broken.txt refused"
teq "both devices opted in to async suspend" "enabled enabled" \
	"$(cat /sys/bus/pmsynth/devices/slave/power/async /sys/bus/pmsynth/devices/master/power/async | tr '\n' ' ' | sed 's/ $//')"
pm_cycle 0
v=$(pmsynth_value oracle violations)
tcheck "without the link the oracle counts violations ($v)" [ "$v" -ge 1 ]
first=$(pmsynth_value oracle first)
teq "the first one: slave prepared before its master (dpm_prepare walks the list in registration order)" \
	"slave prepare: oracle-master master not prepared yet" "$first"
tcheck "master suspending before its slave is counted too" \
	sh -c 'dmesg | grep -q "master: oracle: suspend: slave slave not suspended yet"'
# the same in async mode: nothing makes master wait for slave there either
pmsynth_load broken.txt || fail "broken.txt refused"
dmesg -c > /dev/null
pm_cycle 1
v=$(pmsynth_value oracle violations)
tcheck "async: without the link the oracle counts violations ($v)" [ "$v" -ge 1 ]
tcheck "async: master suspending before its slave is counted (an async worker's callback)" \
	sh -c 'dmesg | grep -q "master: oracle: suspend: slave slave not suspended yet"'
pmsynth_load linked.txt || fail "linked.txt refused"
pm_cycle 0
teq "with the pm_link: 0 violations" 0 "$(pmsynth_value oracle violations)"
pm_cycle 1
teq "with the pm_link, async: 0 violations" 0 "$(pmsynth_value oracle violations)"

# The device's own state: a callback out of its turn (resume of a device
# that is active) is reported even though no other device is involved
# (oracle-call runs only the entry check: nothing changes).
pmsynth_ctl oracle-reset
pmsynth_ctl oracle-call master resume
teq "a spurious resume of an active device is a violation" 1 "$(pmsynth_value oracle violations)"
teq "named as the device's own state" "master resume: itself master is active, resume starts from suspended" \
	"$(pmsynth_value oracle first)"
pmsynth_ctl oracle-reset
pm_cycle 1
teq "afterwards a transition has 0 violations again" 0 "$(pmsynth_value oracle violations)"
