# pmsynth-leak SCENARIO [N]: N times (default 100) insmod, load SCENARIO,
# rmmod; afterwards every device and link is gone and slab usage is back.
. /pmlab/pmlib.sh
scen=/pmlab/$1 n=${2:-100}
# Freed objects can linger in caches the kernel shrinks only under memory
# pressure (dentries of removed sysfs/debugfs files): drop them first.
slab_objs() {
	sync
	echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
	awk 'NR > 2 { s += $2 } END { print s }' /proc/slabinfo
}
links() { ls /sys/class/devlink | wc -l; }
links0=$(links)
# one round first, so one-time allocations (module loader caches) are made
insmod /pmlab/pmsynth.ko && pmsynth_load "$scen" && rmmod pmsynth || fail "first round"
slab0=$(slab_objs)
cp /proc/slabinfo slabinfo-before.txt
i=0
while [ $i -lt "$n" ]; do
	insmod /pmlab/pmsynth.ko || fail "insmod $i"
	pmsynth_load "$scen" || fail "load $i"
	[ $i -eq 0 ] && loaded=$(pmsynth_value status devices) && loaded_links=$(links)
	rmmod pmsynth || fail "rmmod $i"
	i=$((i + 1))
done
slab1=$(slab_objs)
cp /proc/slabinfo slabinfo-after.txt
echo "slab objects: $slab0 before, $slab1 after $n rounds of $loaded devices" | tee slab.txt
tcheck "each round created devices and links ($loaded devices, $((loaded_links - links0)) links)" \
	[ "$loaded" -gt 0 ] && [ "$loaded_links" -gt "$links0" ]
teq "after $n rounds: /sys/class/devlink back to the start" "$links0" "$(links)"
tcheck "after $n rounds: no pmsynth devices left" [ ! -e /sys/devices/pmsynth ]
tcheck "after $n rounds: no pmsynth bus left" [ ! -e /sys/bus/pmsynth ]
# One leaked object per device per round would be $loaded * $n objects;
# allow less than one object per round (SLUB's counts include per-CPU slack).
tcheck "after $n rounds: slab objects back to the start ($slab0 -> $slab1, tolerance $n)" \
	[ $((slab1 - slab0)) -lt "$n" ]
