# rpm-links: runtime PM through device links (DL_FLAG_PM_RUNTIME, the
# pm_links of seed 000) on pmsynth devices: supplier s, consumers k1, k2.
# The supplier's runtime_usage counts its active consumers (each link's
# rpm_active reference), checked in power/runtime_* and the rpm events:
#  - a consumer's resume resumes the supplier first; two consumers, two
#    references; the supplier suspends only after the last consumer;
#  - a consumer whose suspend fails (-EBUSY) keeps its reference;
#  - set_active/set_suspended of a consumer (runtime PM disabled) take and
#    drop the reference; the counts return to 0 after every path.
#
# summary: runtime PM through pm_links: suppliers first, after the last consumer, balanced counts
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:1000
s
k1 masters=s
k2 masters=s
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
usage() { cat $B/$1/power/runtime_usage; }
trace_setup 'rpm:*'
trace_on

teq "the link is a runtime PM link" 1 \
	"$(cat /sys/class/devlink/pmsynth:s--pmsynth:k1/runtime_pm 2>/dev/null)"
echo 1 > $B/k1/hold || fail "cannot hold k1"
teq "hold k1: s active, one consumer reference" "active 1" "$(status s) $(usage s)"
echo 1 > $B/k2/hold || fail "cannot hold k2"
teq "hold k2: two consumer references, s resumed once" "2 1" "$(usage s) $(calls s runtime_resume)"
echo 0 > $B/k1/hold
sleep 0.3
teq "drop k1: k1 suspended, s active with one reference" "suspended active 1" \
	"$(status k1) $(status s) $(usage s)"
echo 0 > $B/k2/hold
sleep 0.3
teq "drop k2: s suspended, no reference left" "suspended 0" "$(status s) $(usage s)"

pmsynth_ctl fault k1 runtime_suspend 16 once || fail "fault refused"
echo 1 > $B/k1/hold
echo 0 > $B/k1/hold
sleep 0.3
teq "k1's suspend failed (-EBUSY): k1 active, s keeps its reference" "active active 1" \
	"$(status k1) $(status s) $(usage s)"
teq "k1 suspend again: 0" 0 "$(rpmctl k1 suspend)"
sleep 0.3
teq "then s suspended, no reference left" "suspended 0" "$(status s) $(usage s)"

rpmctl k2 disable > /dev/null
teq "set-active k2 (disabled): 0" 0 "$(rpmctl k2 set-active)"
teq "set-active k2: s resumed for it, one reference" "active 1" "$(status s) $(usage s)"
teq "set-suspended k2: 0" 0 "$(rpmctl k2 set-suspended)"
sleep 0.3
teq "set-suspended k2: the reference dropped, s suspended" "suspended 0" "$(status s) $(usage s)"
rpmctl k2 enable > /dev/null
teq "s: three resumes, three suspends" "3 3" "$(calls s runtime_resume) $(calls s runtime_suspend)"
trace_off
trace_save rpm.trace
rpm_events rpm.trace > rpm.txt
teq "events: the supplier's resume ends before k1's callback starts" "in order" \
	"$(ev_order rpm.txt '^rpm_callback_start s resume' '^rpm_callback_end s resume .* ret=0' \
	'^rpm_callback_start k1 resume')"
teq "events: the supplier suspends after the last consumer" "in order" \
	"$(ev_order rpm.txt '^rpm_status k1 status=RPM_SUSPENDED' '^rpm_status k2 status=RPM_SUSPENDED' \
	'^rpm_callback_start s suspend')"
teq "events: s suspended no earlier than k2 (no s suspend between the two consumers' first suspends)" 0 \
	"$(awk '/^rpm_status k1 status=RPM_SUSPENDED/ && !done { on = 1 }
		on && /^rpm_callback_start s suspend/ { n++ }
		on && /^rpm_status k2 status=RPM_SUSPENDED/ { on = 0; done = 1 }
		END { print n + 0 }' rpm.txt)"
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (first: $(pmsynth_value oracle first))" 0 "$(pmsynth_value oracle violations)"
