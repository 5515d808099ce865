# rpm-deferred: a resume that arrives while the device is suspending
# (seed 002), on a pmsynth device whose runtime suspend takes 300 ms:
#  - an asynchronous resume request is deferred (power.deferred_resume):
#    the suspend completes, then the PM core resumes the device at once
#    and the suspend returns -EAGAIN;
#  - a synchronous resume (a usage reference) waits for the suspend to
#    complete, then resumes;
# each checked in power/runtime_status and in the rpm events (rpm.txt).
#
# summary: runtime PM: a resume during a suspend is deferred, or waits, then resumes
. /pmlab/pmlib.sh
pmsynth_insmod
cat > rt.txt <<'S'
d lat=runtime_suspend:300000,runtime_resume:1000,runtime_idle:100
S
pmsynth_load rt.txt || fail "rt.txt refused"
B=/sys/bus/pmsynth/devices
status() { cat $B/$1/power/runtime_status; }
calls() { sed -n "s/^$2 //p" $B/$1/calls; }
trace_setup 'rpm:*'
trace_on

# idle-busy: d's idle notifications (after each resume) leave it active
rpmctl d idle-busy on > /dev/null
teq "resume d: 0" 0 "$(rpmctl d resume)"
teq "request-suspend d: 0" 0 "$(rpmctl d request-suspend)"
sleep 0.1
teq "100 ms into its 300 ms suspend: suspending" suspending "$(status d)"
teq "request-resume while suspending: 0 (deferred)" 0 "$(rpmctl d request-resume)"
teq "request-resume while suspending: still suspending" suspending "$(status d)"
sleep 0.5
teq "deferred resume: active after the suspend completed" active "$(status d)"
teq "deferred resume: one suspend, two resumes" "1 2" "$(calls d runtime_suspend) $(calls d runtime_resume)"

teq "request-suspend d again: 0" 0 "$(rpmctl d request-suspend)"
sleep 0.1
teq "second suspend: suspending" suspending "$(status d)"
echo 1 > $B/d/hold || fail "cannot hold d"
teq "hold while suspending: returns with d active" active "$(status d)"
teq "hold while suspending: two suspends, three resumes" "2 3" \
	"$(calls d runtime_suspend) $(calls d runtime_resume)"
echo 0 > $B/d/hold
sleep 0.5
teq "hold dropped: suspended" suspended "$(status d)"
trace_off
trace_save rpm.trace
rpm_events rpm.trace > rpm.txt

teq "events: deferred: the suspend completes, then the resume, and rpm_suspend returns -EAGAIN" "in order" \
	"$(ev_order rpm.txt '^rpm_status d status=RPM_SUSPENDING' '^rpm_resume d flags-1 ' \
	'^rpm_callback_end d suspend .* ret=0' '^rpm_status d status=RPM_SUSPENDED' \
	'^rpm_callback_start d resume' '^rpm_status d status=RPM_ACTIVE' \
	'^rpm_return_int d rpm_suspend ret=-11')"
teq "events: no resume request was queued while suspending (it was deferred)" 0 \
	"$(ev_count rpm.txt '^rpm_request_queue d request=resume')"
teq "events: the reference's resume waits for the second suspend, then resumes" "in order" \
	"$(ev_order rpm.txt '^rpm_return_int d rpm_suspend ret=-11' \
	'^rpm_status d status=RPM_SUSPENDING' '^rpm_resume d flags-4 ' \
	'^rpm_callback_end d suspend .* ret=0' '^rpm_status d status=RPM_SUSPENDED' \
	'^rpm_callback_start d resume' '^rpm_return_int d rpm_resume ret=0')"
cat $PMSYNTH/oracle > oracle.txt
teq "oracle: 0 violations (first: $(pmsynth_value oracle first))" 0 "$(pmsynth_value oracle violations)"
