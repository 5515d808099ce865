# gantt.gp - per-device timelines of two transitions side by side (sync
# and async), from bench/gantt's data: a row per device, every device
# phase shaded, each device record's parts as bars: queued for a worker
# (grey), blocked or in the PM core before its callback (orange), the
# callback (blue).
#
# gnuplot -e "left='DIR/sync'; right='DIR/async'; lt='sync'; rt='async';
#             out='gantt.png'; title='...'" plots/gantt.gp
# left, right: bench/gantt OUT prefixes (OUT.phases, OUT.bars); lt, rt:
# their panel titles; out: .png (pngcairo) or .svg; title: the figure's
# (scenario, kernel, clock).
if (!exists("left") || !exists("right") || !exists("out") || !exists("title")) {
	print "gantt.gp: set left, right, out and title (-e)"; exit status 1
}
if (!exists("lt")) lt = "left"
if (!exists("rt")) rt = "right"
rows(f) = int(system(sprintf("sed -n 's/^# rows \\([0-9]*\\) of.*/\\1/p' '%s.bars'", f)))
of(f) = system(sprintf("sed -n 's/^# rows [0-9]* of \\([0-9]*\\) devices/\\1/p' '%s.bars'", f))
nl = rows(left); nr = rows(right)
n = (nl > nr) ? nl : nr
if (n < 1) { print "gantt.gp: no device rows in ".left.".bars"; exit status 1 }
h = 220 + 14 * n
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1600, h dynamic noenhanced font "Sans,9"
} else {
	set terminal pngcairo size 1600, h noenhanced font "Sans,9"
}
set output out
color(k) = (k == 0) ? 0xaaaaaa : (k == 1) ? 0xff8c00 : 0x3a75b0
band(i) = (int(i) % 2) ? 0xe8eef8 : 0xf8f0e0
set multiplot layout 1, 2 title title font "Sans,12"
set yrange [n - 0.5:-1.5]
set ytics scale 0 font "Sans,7"
set xlabel "ms from the transition's first phase"
set grid x
set key outside bottom center horizontal
set style fill solid 1.0 noborder
panel(f, t) = sprintf("%s (%d of %s devices)", t, rows(f), of(f))

set title panel(left, lt)
plot left.".phases" using (($2 + $3) / 2):(n / 2.0 - 1):(($3 - $2) / 2):(n / 2.0 + 0.5):(band($0)) \
		with boxxyerror lc rgb variable notitle, \
	'' using (($2 + $3) / 2):(-1):1 with labels font "Sans,7" notitle, \
	left.".bars" using (($3 + $4) / 2):1:(($4 - $3) / 2):(0.35):(color($2)):ytic(5) \
		with boxxyerror lc rgb variable notitle, \
	NaN with boxes lc rgb "#aaaaaa" title "queued for a worker", \
	NaN with boxes lc rgb "#ff8c00" title "blocked / PM core", \
	NaN with boxes lc rgb "#3a75b0" title "callback"

set title panel(right, rt)
plot right.".phases" using (($2 + $3) / 2):(n / 2.0 - 1):(($3 - $2) / 2):(n / 2.0 + 0.5):(band($0)) \
		with boxxyerror lc rgb variable notitle, \
	'' using (($2 + $3) / 2):(-1):1 with labels font "Sans,7" notitle, \
	right.".bars" using (($3 + $4) / 2):1:(($4 - $3) / 2):(0.35):(color($2)):ytic(5) \
		with boxxyerror lc rgb variable notitle, \
	NaN with boxes lc rgb "#aaaaaa" title "queued for a worker", \
	NaN with boxes lc rgb "#ff8c00" title "blocked / PM core", \
	NaN with boxes lc rgb "#3a75b0" title "callback"
unset multiplot
