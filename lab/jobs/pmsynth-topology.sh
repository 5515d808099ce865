# pmsynth-topology [MODES]: the device graph changes in the middle of a
# phase, on both async schedulers (MODES, default "1 2": pm_async=1, the
# series'; pm_async=2, Linux 6.12's).
#
# Unregistered: in each system-sleep phase, a fast leaf ("dev") deletes
# "other" with device_del() while other still waits for a slow dependency
# (its slave "s" when suspending, its master "m" when resuming), so the
# phase has not handed it out yet.  Other's parent "p" (suspend) and slave
# (resume) must not wait for it: the series' PM core finishes a device
# removed before being handled; nothing may hang, every remaining device
# ends active, 0 oracle violations.
#
# Unlinked: in each phase, "s" deletes its own pm_link to "other" at the
# start of its callback.  In a suspend phase "other" counted on s to be
# started: with the series' scheduling that count is lost, and the PM core
# starts other when the phase has nothing else running (pm_debug_messages
# says so); the transition completes either way.
#
# summary: devices unregistered and pm_links deleted in the middle of each phase
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
echo 1 > /sys/power/pm_debug_messages || fail "no /sys/power/pm_debug_messages"
slow=suspend:20000,suspend_late:20000,suspend_noirq:20000,resume_noirq:20000,resume_early:20000,resume:20000
cat > topo.txt <<S
@defaults lat=system:200 async=1
p
m lat=$slow
other parent=p masters=m
s masters=other lat=$slow
dev
S
phases="suspend suspend_late suspend_noirq resume_noirq resume_early resume"
for a in ${1:-1 2}; do
	[ $a = 1 ] && sched=series || sched=6.12
	for ph in $phases; do
		pmsynth_load topo.txt || fail "topo.txt refused"
		pmsynth_ctl unregister-in dev $ph other || fail "unregister-in refused"
		dmesg -c > /dev/null
		pm_cycle $a
		teq "$sched, other unregistered in $ph: the transition succeeds" 0 $?
		dmesg > "unreg-$sched-$ph.dmesg"
		tcheck "$sched $ph: dev deleted other in the middle of the phase" \
			grep -q "dev: deleting other in $ph" "unreg-$sched-$ph.dmesg"
		teq "$sched $ph: the other devices end active, other detached" "0 1" \
			"$(pmsynth_value status not_active) $(pmsynth_value status detached)"
		teq "$sched $ph: 0 oracle violations" 0 "$(pmsynth_value oracle violations)"
		if [ $a = 1 ]; then
			tcheck "$sched $ph: no device had to be started by the stall check" \
				sh -c "! grep -q 'started after a stall' unreg-$sched-$ph.dmesg"
		fi
		pm_cycle $a
		teq "$sched $ph: the next transition succeeds without other" 0 $?
	done
	for ph in $phases; do
		pmsynth_load topo.txt || fail "topo.txt refused"
		pmsynth_ctl unlink-in s $ph || fail "unlink-in refused"
		dmesg -c > /dev/null
		pm_cycle $a
		teq "$sched, s unlinked in $ph: the transition succeeds" 0 $?
		dmesg > "unlink-$sched-$ph.dmesg"
		tcheck "$sched $ph: s deleted its pm_link in the middle of the phase" \
			grep -q "s: deleted its pm_links in $ph" "unlink-$sched-$ph.dmesg"
		teq "$sched $ph: every device ends active" 0 "$(pmsynth_value status not_active)"
		teq "$sched $ph: 0 oracle violations" 0 "$(pmsynth_value oracle violations)"
		case $a:$ph in
		1:suspend*)
			tcheck "$sched $ph: the lost count of other was recovered by the stall check" \
				grep -q "started after a stall" "unlink-$sched-$ph.dmesg";;
		1:*)
			tcheck "$sched $ph: resuming, s's link was no one's count: no stall" \
				sh -c "! grep -q 'started after a stall' unlink-$sched-$ph.dmesg";;
		esac
	done
done
