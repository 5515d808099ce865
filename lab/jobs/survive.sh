# survive: results written before a full suspend/resume cycle and after it
# must both reach the host.
#
# summary: results written before and after a full suspend/resume cycle both reach the host
. /pmlab/pmlib.sh
pm_setup
echo "written before suspend" > before.txt
pm_cycle 1 || fail "suspend/resume cycle failed"
echo "written after resume" > after.txt
dmesg | grep -E 'PM: (suspend entry|suspend exit|suspend debug)' > pm-dmesg.txt
