# smoke: the guest has what every other guest job relies on.
#
# summary: the guest has what every other job relies on (sysfs PM files, tracefs, BTF, tools)
. /pmlab/pmlib.sh
for f in /sys/power/state /sys/power/pm_test /sys/power/pm_async \
	/sys/kernel/tracing/set_event /sys/kernel/btf/vmlinux; do
	[ -e "$f" ] || fail "missing $f"
done
for t in bpftrace bpftool trace-cmd; do
	command -v $t >/dev/null || fail "missing tool $t"
done
bpftrace --version > tools.txt || fail "bpftrace does not run"
trace-cmd list -e power: > trace-cmd-events.txt || fail "trace-cmd does not run"
bpftool version >> tools.txt || fail "bpftool does not run"
log "$(cat /sys/power/state) / pm_test: $(cat /sys/power/pm_test)"
uname -r > uname.txt
