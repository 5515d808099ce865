# pmsynth-leak SCENARIO [N]: N times (default 100) insmod, load SCENARIO,
# rmmod; afterwards every device and link is gone and slab usage is back.
#
# Warm-up first: 20 rounds, so one-time allocations are made and the
# device_link_wq worker pool (link release blocks in SRCU, so the pool
# grows; idle workers live 5 minutes) reaches its size.  Slab counts are
# taken after dropping caches.  SLUB's active-object counts move by whole
# slabs (512 objects for kmalloc-8) and include per-CPU slabs and
# RCU-deferred frees: measured here, 100 rounds of 100 devices grow them by
# about 1200 objects, and load/unload alone by under 2 objects a round.  So
# the tolerance is 1 object per 4 device-rounds: one leaked object per
# device per round would be 4 times over it.
#
# summary: N insmod/load/transition/rmmod rounds; slab counts back afterwards
. /pmlab/pmlib.sh
scen=/pmlab/$1 n=${2:-100}
slab_objs() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 2
	awk 'NR > 2 { s += $2 } END { print s }' /proc/slabinfo
}
links() { ls /sys/class/devlink | wc -l; }
round() {
	insmod /pmlab/pmsynth.ko || fail "insmod"
	pmsynth_load "$scen" || fail "load"
	[ -n "${loaded:-}" ] || { loaded=$(pmsynth_value status devices); loaded_links=$(links); }
	rmmod pmsynth || fail "rmmod"
}
links0=$(links)
i=0
while [ $i -lt 20 ]; do round; i=$((i + 1)); done
slab0=$(slab_objs)
cp /proc/slabinfo slabinfo-before.txt
i=0
while [ $i -lt "$n" ]; do round; i=$((i + 1)); done
slab1=$(slab_objs)
cp /proc/slabinfo slabinfo-after.txt
tol=$((n * loaded / 4))
echo "slab objects: $slab0 before, $slab1 after $n rounds of $loaded devices (tolerance $tol)" | tee slab.txt
tcheck "each round created devices and links ($loaded devices, $((loaded_links - links0)) links)" \
	[ "$loaded" -gt 0 ] && [ "$loaded_links" -gt "$links0" ]
teq "after $n rounds: /sys/class/devlink back to the start" "$links0" "$(links)"
tcheck "after $n rounds: no pmsynth devices left" [ ! -e /sys/devices/pmsynth ]
tcheck "after $n rounds: no pmsynth bus left" [ ! -e /sys/bus/pmsynth ]
tcheck "after $n rounds: slab objects back to the start ($slab0 -> $slab1, tolerance $tol)" \
	[ $((slab1 - slab0)) -lt "$tol" ]
