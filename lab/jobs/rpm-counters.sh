# rpm-counters: runtime PM's usage and child counters, ignore_children and
# idle notifications (seed 002), on pmsynth devices: each step checked in
# power/runtime_* and in the rpm events of rpm.trace (rpm-events.txt).
#  - a child's resume resumes its parent (usage 0, one active child);
#    references on two children count two active children;
#  - the parent gets ->runtime_idle() only after its last child suspends,
#    then suspends; an idle callback returning nonzero (-EBUSY) keeps it
#    active until a later idle request finds it willing;
#  - ignore_children: the parent may suspend with an active child, and a
#    child's resume no longer resumes it;
#  - the usage counter: a reference blocks idle and suspend (-EAGAIN).
#
# summary: runtime PM: usage and child counters, ignore_children, idle notifications
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:1000
p
c1 parent=p
c2 parent=p
solo
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
kids() { cat $B/$1/power/runtime_active_kids; }
usage() { cat $B/$1/power/runtime_usage; }
trace_setup 'rpm:*'
trace_on

# --- child counter, idle after the last child ---
echo 1 > $B/c1/hold || fail "cannot hold c1"
teq "hold c1: p resumed with it" active "$(status p)"
teq "hold c1: p has one active child" 1 "$(kids p)"
teq "hold c1: p's usage count stays 0 (a child is not a reference)" 0 "$(usage p)"
teq "hold c1: c1's usage count is 1" 1 "$(usage c1)"
echo 1 > $B/c2/hold || fail "cannot hold c2"
teq "hold c2 too: p has two active children" 2 "$(kids p)"
echo 0 > $B/c1/hold
sleep 0.5
teq "drop c1: c1 suspended" suspended "$(status c1)"
teq "drop c1: p still active (c2 is)" active "$(status p)"
teq "drop c1: p has one active child" 1 "$(kids p)"
teq "drop c1: no idle callback for p while a child is active" 0 "$(calls p runtime_idle)"
echo 0 > $B/c2/hold
sleep 0.5
teq "drop c2: p has no active child" 0 "$(kids p)"
teq "drop c2: p got one idle callback (after its last child)" 1 "$(calls p runtime_idle)"
teq "drop c2: then p suspended" suspended "$(status p)"

# --- an idle callback returning nonzero keeps the device active ---
teq "idle-busy on p: accepted" 0 "$(rpmctl p idle-busy on)"
echo 1 > $B/c1/hold
echo 0 > $B/c1/hold
sleep 0.5
teq "idle-busy: c1 suspended" suspended "$(status c1)"
teq "idle-busy: p got a second idle callback" 2 "$(calls p runtime_idle)"
teq "idle-busy: p stays active (its idle callback returned -EBUSY)" active "$(status p)"
teq "idle-busy: p suspended once in all" 1 "$(calls p runtime_suspend)"
teq "rpm p idle (sync): the callback's -EBUSY returned" -16 "$(rpmctl p idle)"
teq "idle-busy off; rpm p idle (sync): 0" 0 "$(rpmctl p idle-busy off >/dev/null; rpmctl p idle)"
teq "idle-busy off: p suspended by its idle notification" suspended "$(status p)"
teq "p: four idle callbacks, two suspends" "4 2" "$(calls p runtime_idle) $(calls p runtime_suspend)"

# --- ignore_children (idle-busy on: p's own idle notifications, after
# its resume, would suspend it at once) ---
rpmctl p idle-busy on > /dev/null
teq "ignore-children on p: accepted" 0 "$(rpmctl p ignore-children on)"
echo 1 > $B/c1/hold
teq "ignore_children: c1's resume leaves p suspended" suspended "$(status p)"
teq "ignore_children: c1 active" active "$(status c1)"
teq "ignore_children: p resumed no further time" 2 "$(calls p runtime_resume)"
teq "ignore_children: rpm p resume: 0" 0 "$(rpmctl p resume)"
sleep 0.2
teq "ignore_children: p's idle callback after its resume (-EBUSY)" 5 "$(calls p runtime_idle)"
teq "ignore_children: rpm p suspend with c1 active: 0" 0 "$(rpmctl p suspend)"
teq "ignore_children: p suspended under an active child" suspended "$(status p)"
echo 0 > $B/c1/hold
sleep 0.5
teq "ignore_children: c1 suspended" suspended "$(status c1)"
teq "ignore_children: c1's suspend sends p no idle callback" 5 "$(calls p runtime_idle)"
rpmctl p ignore-children off > /dev/null
rpmctl p idle-busy off > /dev/null

# --- the usage counter ---
echo 1 > $B/solo/hold
teq "hold solo: usage 1" 1 "$(usage solo)"
teq "rpm solo idle with a reference: -EAGAIN" -11 "$(rpmctl solo idle)"
teq "rpm solo suspend with a reference: -EAGAIN" -11 "$(rpmctl solo suspend)"
teq "solo stays active" active "$(status solo)"
teq "solo: no idle or suspend callback ran" "0 0" "$(calls solo runtime_idle) $(calls solo runtime_suspend)"
echo 1 > $B/solo/hold
teq "a second reference: usage 2" 2 "$(usage solo)"
echo 0 > $B/solo/hold
sleep 0.3
teq "one reference dropped: still active" active "$(status solo)"
echo 0 > $B/solo/hold
sleep 0.3
teq "both dropped: suspended, usage 0" "suspended 0" "$(status solo) $(usage solo)"
trace_off
trace_save rpm.trace
rpm_events rpm.trace > rpm-events.txt

# the events: p resumed before c1's callback; p's idle callback after c2's
# suspend; with ignore_children, p's suspend ran while c1 was active
teq "events: p's resume callback before c1's" "in order" "$(ev_order rpm-events.txt \
	'^rpm_callback_start p resume' '^rpm_callback_end p resume .* ret=0' \
	'^rpm_callback_start c1 resume')"
teq "events: p's first idle callback after c2 suspended, then p's suspend" "in order" \
	"$(ev_order rpm-events.txt '^rpm_status c2 status=RPM_SUSPENDED' \
	'^rpm_callback_start p idle' '^rpm_callback_start p suspend' '^rpm_status p status=RPM_SUSPENDED')"
teq "events: p's busy idle callback returned -16 three times" 3 \
	"$(ev_count rpm-events.txt '^rpm_callback_end p idle .* ret=-16')"
# -EAGAIN twice: the idle notification at the end of the hold's resume, and ours
teq "events: solo's refused idle returned -11 with no callback" "0 2" \
	"$(ev_count rpm-events.txt '^rpm_callback_start solo idle') $(ev_count rpm-events.txt '^rpm_return_int solo rpm_idle ret=-11')"
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (ignore_children honoured; first: $(pmsynth_value oracle first))" 0 \
	"$(pmsynth_value oracle violations)"
