# pmsynth-selftest: the oracle can fail.  "slave" declares "master" to the
# oracle only (no device link), and master is registered after slave, so
# the PM core suspends master first: the oracle must count that.  The same
# pair with a real pm_link is the control: 0 violations.
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
cat > broken.txt <<'S'
@defaults lat=system:100
slave oracle_masters=master
master
S
cat > linked.txt <<'S'
@defaults lat=system:100
slave masters=master
master
S
pmsynth_load broken.txt || fail "broken.txt refused"
pm_cycle 0
v=$(pmsynth_value oracle violations)
tcheck "without the link the oracle counts violations ($v)" [ "$v" -ge 1 ]
first=$(pmsynth_value oracle first)
teq "the first one is master suspending before its slave" \
	"master suspend: slave slave not suspended yet" "$first"
tcheck "the kernel log names it too" sh -c 'dmesg | grep -q "master: oracle: suspend"'
pmsynth_load linked.txt || fail "linked.txt refused"
pm_cycle 0
teq "with the pm_link: 0 violations" 0 "$(pmsynth_value oracle violations)"
pm_cycle 1
teq "with the pm_link, async: 0 violations" 0 "$(pmsynth_value oracle violations)"
