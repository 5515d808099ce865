# phase-times.gp - sync vs async time of each system-sleep phase, and the
# critical-path bound, as clustered bars (log scale), from the phases.dat
# bench/critpath writes.
#
#   gnuplot -e "data='phases.dat'; out='phases.png'; title='dag-500'" plots/phase-times.gp
#
# data: one line per phase, "PHASE SYNC_MS ASYNC_MS BOUND_MS GRAPH_MS
# CPU_FLOOR_MS" ("critpath -d", run by run-bench.sh into each scenario's
# results directory; NaN: no CPU accounting).
if (!exists("data")) data = 'phases.dat'
if (!exists("out")) out = 'phases.png'
if (!exists("title")) title = ''
set terminal pngcairo size 1000,500 noenhanced font ",10"
set output out
set title 'suspend/resume phases, sync vs async vs bound (graph, CPU floor): '.title
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set logscale y
set ylabel 'ms (mean per transition, log scale)'
set xtics rotate by -30
set grid ytics
set key top right
plot data using 2:xtic(1) title 'sync (pm_async=0)', \
     '' using 3 title 'async (pm_async=1)', \
     '' using 5 title 'graph bound (critical path)', \
     '' using 6 title 'CPU floor (CPU work of sync)'
