# shell: an interactive shell on the serial console (make shell), with the
# lab's setup (lab_setup: pm_test core, pmsynth loaded with SCENARIO, tools
# and bpftrace recipes in /pmlab), in /results; leaving it (exit or Ctrl-D)
# sends /results to the host and powers off.  The console is the host's
# terminal: Ctrl-C reaches the guest, Ctrl-A x quits QEMU at once.
#
# summary: an interactive shell on the console with the lab's setup (make shell)
. /pmlab/pmlib.sh
lab_setup
tty=/dev/ttyS0
# the host terminal's size (run.conf: ROWS, COLS), for bpftrace and less
[ -z "${ROWS:-}" ] || stty -F $tty rows "$ROWS" cols "$COLS" 2>/dev/null
echo "pmlab: shell ready: exit or Ctrl-D ends the session (and sends /results)"
export PS1='pmlab:\w# ' HOME=/results TERM=${TERM:-vt100}
# a session of its own with the console as controlling terminal, so that
# Ctrl-C interrupts the command in the foreground, not the shell.  Run in
# the foreground: a background command of this (non-interactive) script
# would start with SIGINT ignored, and so would every command typed in the
# shell.  It is not a process group leader, so setsid does not fork.
setsid -c sh -i < $tty > $tty 2>&1
