# run: a command or script of the user's (make run CMD=... / SCRIPT=...),
# /pmlab/user-command.sh, run with the lab's setup (lab_setup: pm_test
# core, pmsynth loaded with SCENARIO, tools in /pmlab) in /results; its
# output streams to the host's terminal and is saved in job.log, its exit
# status is make run's.
#
# summary: your command (make run CMD='...' or SCRIPT=file) with the lab's setup, output live
. /pmlab/pmlib.sh
[ -f /pmlab/user-command.sh ] || fail "no command: make run takes CMD='...' or SCRIPT=file"
lab_setup
echo "pmlab: running your command"
sh /pmlab/user-command.sh
