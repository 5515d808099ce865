# pmtrace DEVICES [failures]: load a device scenario and record one async transition
# with bpf/pmtrace (records.jsonl), while trace-cmd records the same
# transition's power events (trace.dat -> trace-cmd.txt),
# for the cross-check of tests/guest/pmtrace.t.  Both on CLOCK_MONOTONIC
# (bpf_ktime_get_ns; trace-cmd -C mono): ftrace's default per-CPU "local"
# clock is not comparable across CPUs, and async workers migrate.
#
# summary: one async transition recorded by pmtrace and by trace-cmd (the cross-check)
. /pmlab/pmlib.sh
pm_setup
pmsynth_insmod
pmsynth_load "/pmlab/$1" || fail "scenario $1 refused"
pm_cycle 1 || fail "warm-up transition failed"
# the recorded transition with 6.12's scheduling (pm_async=2, the series'
# lab-only switch), whose workers wait for their dependencies, so that the
# records have waits to attribute
echo 2 > /sys/power/pm_async ||
	fail "pm_async does not take 2: the kernel lacks the series' lab-only A/B patch"
echo 'echo mem > /sys/power/state' > /tmp/suspend.sh
# trace-cmd copies /proc/kallsyms once its command is done, and BPF
# programs leave kallsyms as they are freed, after pmtrace exits ("error in
# size of file '/proc/kallsyms'" when the two overlap): the command waits
# for that, keeping pmtrace's exit status.
cat > /tmp/pmtrace.sh <<'S'
/pmlab/pmtrace -o records.jsonl -c 'sh /tmp/suspend.sh'
rc=$?
sleep 1
exit $rc
S
trace-cmd record -q -C mono -o /tmp/trace.dat -e power:device_pm_callback_start \
	-e power:device_pm_callback_end -e power:suspend_resume \
	sh /tmp/pmtrace.sh > pmtrace.log 2>&1 ||
	fail "pmtrace under trace-cmd failed: $(tail -3 pmtrace.log)"
trace-cmd report -i /tmp/trace.dat > trace-cmd.txt 2>&1 || fail "trace-cmd report failed"
# A bad argument: refused with its cause before anything is opened.
/pmlab/pmtrace -o badarg.jsonl -m novalue > badarg.txt 2>&1
echo $? > badarg.status

# With a second argument "failures" (tests/guest/pmtrace.t), the runs that
# must not end with a complete-looking file, and one that must keep a long
# name whole; each leaves NAME.jsonl, NAME.log (stderr), NAME.status.
[ "$2" = failures ] || exit 0
# a device name of 63 characters, the longest a scenario may have
long=a23456789b123456789c123456789d123456789e123456789f123456789g123
echo "$long" > long-name.txt
printf 'top\n%s parent=top\n' "$long" > /tmp/long.txt
pmsynth_load /tmp/long.txt || fail "pmsynth refused a 63-character device name"
echo 1 > /sys/power/pm_async || fail "cannot set pm_async=1"
/pmlab/pmtrace -o long.jsonl -c 'sh /tmp/suspend.sh' 2> long.log
echo $? > long.status
# too few phase keys: phase events dropped, counted and reported
/pmlab/pmtrace --max-phase-keys 4 -o small.jsonl -c 'sh /tmp/suspend.sh' 2> small.log
echo $? > small.status
# too few events held: the ring buffer read fails
/pmlab/pmtrace --max-events 10 -o capped.jsonl -c 'sh /tmp/suspend.sh' 2> capped.log
echo $? > capped.status
# Two threads whose tids differ by 8192 (the same slot of a table indexed
# by tid % 8192) run a runtime_resume callback at the same time: pmsynth's
# hold resumes the device in the writer, for 1 s.  A's pid is taken, pids
# are used up (a subshell each: this costs the job most of its time) until
# the next is A's + 8192, then B.
cat > /tmp/rt.txt <<'S'
@defaults lat=runtime_resume:1000000 jitter=0
r1
r2
S
pmsynth_load /tmp/rt.txt || fail "pmsynth refused /tmp/rt.txt"
i=0
while [ "$(cat /sys/bus/pmsynth/devices/r1/power/runtime_status)" != suspended ] ||
	[ "$(cat /sys/bus/pmsynth/devices/r2/power/runtime_status)" != suspended ]; do
	[ $i -lt 30 ] || fail "r1 and r2 did not runtime-suspend"
	sleep 1
	i=$((i + 1))
done
cat > /tmp/tid.sh <<'S'
# holder DEVICE FIFO: a process that takes a hold on DEVICE once FIFO is
# opened for writing (blocked in open meanwhile, not spinning)
holder() {
	sh -c 'read x < '"$2"'; echo 1 > /sys/bus/pmsynth/devices/'"$1"'/hold' &
}
rm -f /tmp/f1 /tmp/f2
mkfifo /tmp/f1 /tmp/f2
t0=$(date +%s)
for try in 1 2 3; do
	holder r1 /tmp/f1
	a=$!
	# pids used up blind (a subshell each), then one at a time, seen
	i=$((a + 1))
	while [ $i -lt $((a + 8192 - 64)) ]; do
		( : )
		i=$((i + 1))
	done
	p=$i
	while [ "$p" -lt $((a + 8191)) ]; do
		p=$(read s x < /proc/self/stat; echo "$s")
	done
	if [ "$p" -eq $((a + 8191)) ]; then
		holder r2 /tmp/f2
		b=$!
		[ "$b" -eq $((a + 8192)) ] && break
		kill "$b"
	fi
	kill "$a"	# a pid went elsewhere: again
	wait
done
echo "$a $b" > /results/tid-pids.txt
echo "$(($(date +%s) - t0)) s, $try tries" > /results/tid-burn.txt
echo go > /tmp/f1
echo go > /tmp/f2
wait
S
/pmlab/pmtrace -o tid.jsonl -c 'sh /tmp/tid.sh' 2> tid.log
echo $? > tid.status
# A fork that fails: threads-max lowered (to its minimum, 20, below the
# guest's kernel threads) between the subshell's fork and its exec of
# pmtrace, restored once pmtrace is done
tm=$(cat /proc/sys/kernel/threads-max)
(
	echo 1 > /proc/sys/kernel/threads-max
	exec /pmlab/pmtrace -o fork.jsonl -c true 2> fork.log
)
echo $? > fork.status
echo "$tm" > /proc/sys/kernel/threads-max
# SIGTERM to pmtrace while its command runs: passed on to the command
# (whose trap says it came), which pmtrace reaps
rm -f /tmp/child.pid
/pmlab/pmtrace -o term.jsonl \
	-c 'trap "echo TERM > /results/term-child.txt; exit 3" TERM; echo $$ > /tmp/child.pid; sleep 600 & wait' \
	2> term.log &
pm=$!
i=0
while [ ! -s /tmp/child.pid ] && [ $i -lt 300 ]; do
	sleep 1
	i=$((i + 1))
done
cp /tmp/child.pid term-child.pid
kill -TERM $pm
wait $pm
echo $? > term.status
# No command: pmtrace records until SIGINT (Ctrl-C), its normal end, here
# with -v (libbpf's messages on stderr).  The begin record is written once
# the programs are attached: the transition starts after it.
/pmlab/pmtrace -v -o sigint.jsonl 2> sigint.log &
pm=$!
i=0
while [ ! -s sigint.jsonl ] && [ $i -lt 300 ]; do
	sleep 1
	i=$((i + 1))
done
sh /tmp/suspend.sh
kill -INT $pm
wait $pm
echo $? > sigint.status
# Not root (util-linux setpriv to nobody, no capabilities: busybox's
# setpriv applet has no --reuid): the programs cannot load;
# the cause is said and no records file is left
mkdir -p /tmp/np
chmod 777 /tmp/np
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
	/pmlab/pmtrace -o /tmp/np/unpriv.jsonl -c true 2> unpriv.log
echo $? > unpriv.status
ls /tmp/np > unpriv.left
