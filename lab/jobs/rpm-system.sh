# rpm-system: runtime PM across a system transition (mem, pm_test core)
# in 6.12, on pmsynth devices: rs runtime-suspended, dc runtime-suspended
# with direct_complete (->prepare() returns 1), ra held active.  Each
# system callback records the runtime PM state it found (rpm_seen):
#  - prepare takes a usage reference (device_prepare's
#    pm_runtime_get_noresume) that complete drops; suspend_late ..
#    resume_early run with runtime PM disabled, resume with it enabled;
#  - a runtime-suspended device is not resumed for the transition on this
#    bus: its system callbacks run on it suspended, and it is suspended
#    afterwards, without a runtime callback;
#  - with direct_complete its suspend and resume callbacks are skipped:
#    prepare and complete only; it stays runtime-suspended;
#  - the held device keeps its reference and stays active.
#
# summary: runtime PM across system sleep: the core's references, disabled phases, direct_complete
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:1000,system:100
rs
dc direct_complete=1
ra
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
seen() { sed -n "s/^$2 //p" $B/$1/rpm_seen; }
echo 1 > $B/ra/hold || fail "cannot hold ra"
teq "before: rs, dc suspended, ra active" "suspended suspended active" \
	"$(status rs) $(status dc) $(status ra)"
trace_setup 'rpm:*'
trace_on
pm_cycle 0 || fail "the transition failed"
trace_off
trace_save rpm.trace
rpm_events rpm.trace > rpm.txt
for d in rs dc ra; do
	cat $B/$d/rpm_seen > seen-$d.txt
done

teq "rs: prepare found usage 1 (the core's reference), suspended, enabled" \
	"usage=1 status=suspended enabled=1" "$(seen rs prepare)"
teq "rs: suspend found it runtime-suspended, runtime PM enabled" \
	"usage=1 status=suspended enabled=1" "$(seen rs suspend)"
teq "rs: suspend_late found runtime PM disabled" "usage=1 status=suspended enabled=0" \
	"$(seen rs suspend_late)"
teq "rs: suspend_noirq, resume_noirq, resume_early: disabled" \
	"enabled=0 enabled=0 enabled=0" \
	"$(for p in suspend_noirq resume_noirq resume_early; do seen rs $p | sed 's/.* //'; done | tr '\n' ' ' | sed 's/ $//')"
teq "rs: resume found runtime PM enabled again" "usage=1 status=suspended enabled=1" \
	"$(seen rs resume)"
teq "rs: complete still holds the core's reference" "usage=1 status=suspended enabled=1" \
	"$(seen rs complete)"
teq "rs: after: suspended, usage 0, no runtime callback" "suspended 0 0 0" \
	"$(status rs) $(cat $B/rs/power/runtime_usage) $(calls rs runtime_resume) $(calls rs runtime_suspend)"
teq "rs: every system callback ran once" "1 1 1 1 1 1 1 1" \
	"$(for p in prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete; do calls rs $p; done | tr '\n' ' ' | sed 's/ $//')"
teq "dc: direct_complete: prepare and complete only" "1 0 0 0 0 0 0 1" \
	"$(for p in prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete; do calls dc $p; done | tr '\n' ' ' | sed 's/ $//')"
teq "dc: complete found it runtime-suspended (left so)" "usage=1 status=suspended enabled=1" \
	"$(seen dc complete)"
teq "dc: after: suspended, usage 0, no runtime callback" "suspended 0 0" \
	"$(status dc) $(cat $B/dc/power/runtime_usage) $(calls dc runtime_resume)"
teq "ra: prepare found its reference and the core's (usage 2), active" \
	"usage=2 status=active enabled=1" "$(seen ra prepare)"
teq "ra: after: active, usage 1 (its reference), resumed once (the hold)" "active 1 1" \
	"$(status ra) $(cat $B/ra/power/runtime_usage) $(calls ra runtime_resume)"
teq "events: no runtime callback ran during the transition" 0 \
	"$(ev_count rpm.txt '^rpm_callback_start (rs|dc|ra) ')"
teq "events: complete's reference drop sends rs an idle notification (usage 0)" 1 \
	"$(ev_count rpm.txt '^rpm_idle rs flags-[0-9a-f]* cnt-0 ')"
echo 0 > $B/ra/hold
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (first: $(pmsynth_value oracle first))" 0 "$(pmsynth_value oracle violations)"
