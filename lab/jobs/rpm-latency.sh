# rpm-latency ROUNDS LAT_US CLOCK N...: runtime resume latency of a leaf through
# a chain of N suppliers (pm_links), recorded by pmtrace, for make bench.
#
# For each N, pmsynth loads the chain s1 <- s2 <- ... <- sN <- leaf (each
# device the consumer of the one before, DL_FLAG_PM_RUNTIME), every
# runtime_suspend/runtime_resume callback sleeping LAT_US, runtime_idle
# instant, no autosuspend delay: an idle device suspends at once, and a
# consumer's suspend lets its supplier go idle, so the whole chain suspends
# after the leaf.  Then ROUNDS rounds of each request kind, each recorded by
# pmtrace in mode runtime (rpm-N-sync.jsonl, rpm-N-queued.jsonl):
#   sync    pm_runtime_resume(leaf): the PM core resumes s1 ... sN first,
#           nested, in the caller's context;
#   queued  pm_request_resume(leaf): the same carried out by pm_wq.
# A round starts with every device suspended and ends once the leaf has
# resumed and the chain has suspended again (s1 last).  bench/rpm-latency
# turns the records into p50/p99 per row; the rounds' waits for the chain
# to suspend are not part of any latency.  Then one untimed sync round
# per N under the stack tracer: the deepest kernel stack meanwhile
# (stack-N.txt), as 6.12 resumes suppliers recursively.  CLOCK (virtual or real: how the
# host runs this guest) goes into the records' metadata.
#
# summary: make bench's runtime PM latency: a leaf resumed through N suppliers, sync and queued
. /pmlab/pmlib.sh
[ $# -ge 4 ] || fail "usage: rpm-latency.sh ROUNDS LAT_US CLOCK N..."
rounds=$1 lat=$2 clock=$3
shift 3
case $clock in virtual|real) ;; *) fail "CLOCK must be virtual or real, got '$clock'";; esac
case $rounds in ''|*[!0-9]*|0) fail "ROUNDS must be a positive number, got '$rounds'";; esac
case $lat in ''|*[!0-9]*) fail "LAT_US must be a number of microseconds, got '$lat'";; esac
for n in "$@"; do
	case $n in ''|*[!0-9]*|0) fail "N must be a positive number of suppliers, got '$n'";; esac
	[ "$n" -lt 4096 ] || fail "N=$n: pmsynth takes at most 4095 suppliers and the leaf"
done
[ -x /pmlab/pmtrace ] || fail "no /pmlab/pmtrace"
pmsynth_insmod
B=/sys/bus/pmsynth/devices
cpus=$(nproc)

# chain N: the scenario file of N suppliers and the leaf
chain() {
	echo "@defaults lat=runtime_suspend:$lat,runtime_resume:$lat,runtime_idle:0 async=0"
	echo s1
	i=2
	while [ "$i" -le "$1" ]; do
		echo "s$i masters=s$((i - 1))"
		i=$((i + 1))
	done
	echo "leaf masters=s$1"
}

# wait_for DEV STATUS: until DEV's runtime status is STATUS (10 s at most)
wait_for() {
	k=0
	while [ "$(cat $B/$1/power/runtime_status)" != "$2" ]; do
		k=$((k + 1))
		[ "$k" -le 1000 ] || fail "$1 not $2 after 10 s: $(cat $B/$1/power/runtime_status)"
		sleep 0.01
	done
}

resumes() { sed -n 's/^runtime_resume //p' $B/leaf/calls; }

# rounds.sh N OP: ROUNDS rounds of OP on the leaf, run under pmtrace.  On
# the virtual clock every instruction of every vCPU advances the one clock
# and a busy vCPU delays the others' wake-ups, so while a request is in
# flight the shell does no work: the request is a builtin echo, and the
# waits are "read -t" on an empty FIFO (no fork, unlike sleep or $(...))
# before each look at sysfs
cat > /tmp/rounds.sh <<'R'
. /pmlab/pmlib.sh
B=/sys/bus/pmsynth/devices
n=$1 op=$2 rounds=$3
rm -f /tmp/rounds.fifo
mkfifo /tmp/rounds.fifo || fail "cannot make /tmp/rounds.fifo"
exec 3<> /tmp/rounds.fifo
nap() { read -t "$1" -u 3 _ || true; }
resumes() { sed -n 's/^runtime_resume //p' $B/leaf/calls; }
r=1
while [ "$r" -le "$rounds" ]; do
	before=$(resumes)
	echo "rpm leaf $op" > $PMSYNTH/control || fail "rpm leaf $op refused in round $r"
	nap 0.05
	[ "$(pmsynth_value status rpm_result)" -ge 0 ] || fail "rpm leaf $op failed in round $r"
	k=0
	while [ "$(resumes)" = "$before" ]; do
		k=$((k + 1))
		[ "$k" -le 500 ] || fail "the leaf did not resume in round $r"
		nap 0.02
	done
	k=0
	while [ "$(cat $B/s1/power/runtime_status)" != suspended ] ||
	      [ "$(cat $B/leaf/power/runtime_status)" != suspended ]; do
		k=$((k + 1))
		[ "$k" -le 500 ] || fail "the chain did not suspend after round $r"
		nap 0.02
	done
	r=$((r + 1))
done
R

for n in "$@"; do
	chain "$n" > "chain-$n.txt"
	pmsynth_load "chain-$n.txt" || fail "chain-$n.txt refused"
	links=$(pmsynth_value status links)
	[ "$links" -eq "$n" ] || fail "chain-$n.txt: $links pm_links, not $n"
	wait_for leaf suspended
	wait_for s1 suspended
	for req in sync queued; do
		case $req in sync) op=resume;; *) op=request-resume;; esac
		log "N=$n $req: $rounds rounds"
		/pmlab/pmtrace -o "rpm-$n-$req.jsonl" -m "scenario=chain-$n" -m "mode=runtime" \
			-m "devices=$((n + 1))" -m "links=$n" -m "cpus=$cpus" -m "clock=$clock" \
			-m "suppliers=$n" -m "request=$req" -m "lat_us=$lat" \
			-c "sh /tmp/rounds.sh $n $op $rounds" 2> "rpm-$n-$req.log" ||
			fail "N=$n $req under pmtrace failed: $(tail -2 "rpm-$n-$req.log")"
		[ "$(resumes)" -ge "$rounds" ] || fail "N=$n $req: the leaf resumed $(resumes) times"
	done
	# the kernel stack the sync resume needs (6.12 resumes suppliers
	# recursively): one more round under the stack tracer, untimed;
	# stack-N.txt "N BYTES" ("N -" without CONFIG_STACK_TRACER)
	if [ -w /proc/sys/kernel/stack_tracer_enabled ]; then
		echo 0 > $TRACEFS/stack_max_size
		echo 1 > /proc/sys/kernel/stack_tracer_enabled
		sh /tmp/rounds.sh "$n" resume 1 || fail "N=$n: the round under the stack tracer failed"
		echo 0 > /proc/sys/kernel/stack_tracer_enabled
		echo "$n $(cat $TRACEFS/stack_max_size)" > "stack-$n.txt"
	else
		echo "$n -" > "stack-$n.txt"
	fi
done
cat $PMSYNTH/oracle > oracle.txt
