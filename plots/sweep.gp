# sweep.gp - make sweep's curves: speed-up of async over sync against the
# number of devices (at 4 vCPUs) or of vCPUs (at AT devices), for each
# scenario shape: the series' scheduling, 6.12's, and the bound (what the
# dependency graph and the CPUs allow, critpath's T(sync) / bound); below,
# their efficiencies (bound / T(async), %).
#
# gnuplot -e "data='sweep.dat'; x='devices'; at=500; out='sweep-devices.png';
#             kernel='6.12...'" plots/sweep.gp
# data: bench/sweep.sh's sweep.dat ("shape devices cpus speedup_new
# speedup_612 efficiency_new efficiency_612 speedup_bound"); x: devices or
# cpus; optional: cpus (the devices curve's vCPUs, default 4), clock
# (the title's, default virtual).
if (!exists("data") || !exists("x") || !exists("out") || !exists("at") || !exists("kernel")) {
	print "sweep.gp: set data, x, at, out and kernel (-e)"; exit status 1
}
if (x ne "devices" && x ne "cpus") { print "sweep.gp: x must be devices or cpus"; exit status 1 }
stats data using 2 nooutput	# fails on a missing or empty file
set terminal pngcairo size 1000, 900 noenhanced font "Sans,10"
set output out
shapes = system(sprintf("awk '!/^#/ && !s[$1]++ { printf \"%%s%%s\", n++ ? \" \" : \"\", $1 }' '%s'", data))
if (!exists("cpus")) { cpus = 4 }
if (!exists("clock")) { clock = "virtual" }
if (x eq "devices") {
	col = 2; keep = 3; keepv = cpus
	set xlabel sprintf("devices (%d vCPUs)", cpus)
	set logscale x
	set autoscale xfix
	set title sprintf("Speed-up of async suspend/resume against devices (%s); kernel %s, clock %s", shapes, kernel, clock)
} else {
	col = 3; keep = 2; keepv = at
	set xlabel sprintf("vCPUs (%d devices)", at)
	set xtics 1
	set title sprintf("Speed-up of async suspend/resume against vCPUs (%s); kernel %s, clock %s", shapes, kernel, clock)
}
set multiplot layout 2, 1
set ylabel "speed-up, T(sync) / T(async)"
set grid
set key outside right top
set yrange [0:*]
sel(s, v) = (strcol(1) eq s && column(keep) == keepv) ? v : NaN
plot for [i = 1:words(shapes)] data using (sel(word(shapes, i), column(col))):(column(4)) smooth unique \
		with linespoints lw 2 pt 7 lc i title word(shapes, i)." the series", \
	for [i = 1:words(shapes)] data using (sel(word(shapes, i), column(col))):(column(5)) smooth unique \
		with linespoints lw 1 dt 2 pt 6 lc i title word(shapes, i)." 6.12", \
	for [i = 1:words(shapes)] data using (sel(word(shapes, i), column(col))):(column(8)) smooth unique \
		with lines lw 1 dt 3 lc i title word(shapes, i)." bound"
set title "Efficiency: bound / T(async) (100 %: as fast as the dependency graph and the CPU work allow)"
set ylabel "efficiency, %"
set yrange [0:100]
plot for [i = 1:words(shapes)] data using (sel(word(shapes, i), column(col))):(column(6)) smooth unique \
		with linespoints lw 2 pt 7 lc i title word(shapes, i)." the series", \
	for [i = 1:words(shapes)] data using (sel(word(shapes, i), column(col))):(column(7)) smooth unique \
		with linespoints lw 1 dt 2 pt 6 lc i title word(shapes, i)." 6.12"
unset multiplot
