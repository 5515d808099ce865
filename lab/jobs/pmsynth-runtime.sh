# pmsynth-runtime: a usage reference on a leaf resumes its parent chain and
# its master first (the oracle checks the order inside every callback);
# dropping it lets the whole subtree autosuspend; counts stay balanced.
#
# summary: runtime PM: a usage reference resumes the parent chain and master; autosuspend after
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
@defaults lat=runtime:2000 autosuspend=100
top
mid parent=top
leaf parent=mid masters=supplier
supplier
bystander
flaky fault=runtime_suspend:5:once
stiff fault=runtime_resume:5:once
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }

for d in top mid leaf supplier bystander; do
	teq "$d starts runtime-suspended" suspended "$(status $d)"
done
echo 1 > $B/leaf/hold || fail "cannot take a reference on leaf"
for d in top mid leaf supplier; do
	teq "hold on leaf: $d is active" active "$(status $d)"
	teq "hold on leaf: $d resumed once" 1 "$(calls $d runtime_resume)"
done
teq "hold on leaf: bystander stays suspended" suspended "$(status bystander)"
teq "hold on leaf: bystander never resumed" 0 "$(calls bystander runtime_resume)"
teq "resume order: 0 oracle violations (parents and master resumed first)" 0 \
	"$(pmsynth_value oracle violations)"
teq "leaf's usage count is 1" 1 "$(cat $B/leaf/power/runtime_usage)"

echo 0 > $B/leaf/hold || fail "cannot drop the reference"
sleep 2
for d in top mid leaf supplier; do
	teq "dropped: $d autosuspended" suspended "$(status $d)"
	teq "dropped: $d suspended once" 1 "$(calls $d runtime_suspend)"
	teq "dropped: $d usage count back to 0" 0 "$(cat $B/$d/power/runtime_usage)"
done
teq "dropped: no active children left under top" 0 "$(cat $B/top/power/runtime_active_kids)"
teq "suspend order: 0 oracle violations (children and slave suspended first)" 0 \
	"$(pmsynth_value oracle violations)"
teq "a second drop is refused" 1 "$(echo 0 > $B/leaf/hold 2>/dev/null; echo $?)"

# A runtime callback error other than -EAGAIN/-EBUSY sticks in
# power.runtime_error and stops runtime PM of the device until cleared.
echo 1 > $B/flaky/hold || fail "cannot take a reference on flaky"
echo 0 > $B/flaky/hold
sleep 1
teq "flaky: its runtime suspend failed (-EIO once): status error" error "$(status flaky)"
teq "flaky: while in error a hold is refused" 1 "$(echo 1 > $B/flaky/hold 2>/dev/null; echo $?)"
teq "rpm-clear flaky: accepted" 0 "$(pmsynth_ctl rpm-clear flaky 2>/dev/null; echo $?)"
sleep 1
teq "flaky: after rpm-clear it autosuspends (the fault was once)" suspended "$(status flaky)"
teq "flaky: usage count balanced" 0 "$(cat $B/flaky/power/runtime_usage)"
teq "rpm-clear of an unknown device: refused" 1 "$(pmsynth_ctl rpm-clear nope 2>/dev/null; echo $?)"
teq "rpm-clear of an unknown device: message" "rpm-clear: no device 'nope'" "$(pmsynth_value status error)"

# A failed runtime resume leaves the device suspended, in error.
teq "stiff: a hold fails when its runtime resume fails (-EIO once)" 1 \
	"$(echo 1 > $B/stiff/hold 2>/dev/null; echo $?)"
teq "stiff: status error" error "$(status stiff)"
teq "rpm-clear stiff: accepted" 0 "$(pmsynth_ctl rpm-clear stiff 2>/dev/null; echo $?)"
teq "stiff: suspended again, as it was" suspended "$(status stiff)"
echo 1 > $B/stiff/hold
teq "stiff: now a hold resumes it" active "$(status stiff)"
echo 0 > $B/stiff/hold
teq "rpm-clear of a device without an error: refused" 1 \
	"$(pmsynth_ctl rpm-clear bystander 2>/dev/null; echo $?)"
teq "rpm-clear of a device without an error: message" "rpm-clear: bystander has no runtime PM error" \
	"$(pmsynth_value status error)"
