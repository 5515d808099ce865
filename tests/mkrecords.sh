#!/bin/sh
# mkrecords.sh SCENARIO MODE CPUS [CLOCK] < SPEC > RECORDS: hand-made
# pmtrace records (bpf/README.md) of one transition, for the analysis
# tests.  CLOCK: virtual (default) or real.
#
# SPEC lines, times in microseconds:
#   phase PHASE START END
#   cpu PHASE ALL_IDLE BUSY[,BUSY...]   CPU accounting: each CPU's busy
#                                       time (idle: the rest of the phase),
#                                       and the time all were idle
#   PHASE DEVICE QUEUED START CALLBACK_START CALLBACK_US END [WAITED_ON,...]
#                                       (WAITED_ON or WAITED_ON:US, how long)
#   worker PHASE DEVICE TID SWITCHES    the thread of DEVICE's record and
#                                       its context switches (default 1, 0)
#   async DEVICE 0|1                    whether an async worker ran DEVICE
#                                       (every phase; default: MODE not sync)
# Every phase and scenario device SPEC does not name gets a filler record
# (phase 1..1 us, device done at 1 us without a callback: no time, no
# dependency); a phase without a cpu line: every CPU idle all along.  The
# begin record names SCENARIO's sha256 and device and pm_link counts, as
# lab/jobs/bench.sh does.
# STOCK=1: records as pmtrace writes them on a kernel without the series'
# events (format 4, "absent"): device records hold the callback alone
# (QUEUED and START are ignored; queued, start, waits... null) and only the
# devices SPEC names get one (no filler: a device without a callback has
# none).
set -eu
stock=${STOCK:-0}
scen=$1 mode=$2 cpus=$3 clock=${4:-virtual}
sha=$(sha256sum "$scen" | cut -d' ' -f1)
name=$(basename "$scen" .txt)
devs=$(grep -v '^[[:space:]]*\(#\|@\|$\)' "$scen" | awk '{ print $1 }' | tr '\n' ' ')
links=$(sed -n 's/.*masters=\([^ ]*\).*/\1/p' "$scen" | tr ',' '\n' | grep -c . || true)
awk -v name="$name" -v sha="$sha" -v devs="$devs" -v links="$links" -v mode="$mode" -v cpus="$cpus" \
	-v clock="$clock" -v stock="$stock" '
function dev(ph, d, q, s, cs, cb, e, w,    n, i, a, out, tid, sw) {
	out = ""
	n = split(w, a, ",")
	for (i = 1; i <= n; i++)
		out = out (i > 1 ? "," : "") sprintf("{\"on\":\"%s\",\"relation\":\"parent\",\"ns\":%d}",
			a[i] ~ /:/ ? substr(a[i], 1, index(a[i], ":") - 1) : a[i],
			a[i] ~ /:/ ? substr(a[i], index(a[i], ":") + 1) * 1000 : 0)
	tid = ((ph, d) in wtid) ? wtid[ph, d] : 1
	sw = ((ph, d) in wsw) ? wsw[ph, d] : 0
	if (stock) {
		printf "{\"type\":\"device\",\"device\":\"%s\",\"phase\":\"%s\",\"event\":2,\"async\":%d,\"cpu\":0,\"tid\":%d,\"parent\":null,\"queued\":null,\"start\":null,\"callback_start\":%d,\"end\":%d,\"queue_ns\":null,\"callback_ns\":%d,\"wait_ns\":null,\"waits\":null,\"error\":0,\"outcome\":null,\"nvcsw\":%d,\"nivcsw\":0}\n", d, ph, (d in adev) ? adev[d] : mode != "sync", tid, cs * 1000, e * 1000, cb * 1000, sw
		n_rec++
		return
	}
	printf "{\"type\":\"device\",\"device\":\"%s\",\"phase\":\"%s\",\"event\":2,\"async\":%d,\"cpu\":0,\"tid\":%d,\"queued\":%d,\"start\":%d,\"callback_start\":%d,\"end\":%d,\"queue_ns\":0,\"callback_ns\":%d,\"wait_ns\":{\"parent\":0,\"child\":0,\"supplier\":0,\"consumer\":0},\"waits\":[%s],\"error\":0,\"nvcsw\":%d,\"nivcsw\":0}\n", d, ph, (d in adev) ? adev[d] : mode != "sync", tid, q * 1000, s * 1000, cs * 1000, e * 1000, cb * 1000, out, sw
	n_rec++
}
function cpu_times(ph, len,    n, i, b, out) {
	out = ""
	if (!(ph in busy)) {
		for (i = 1; i <= cpus; i++)
			b[i] = 0
		idle_all = len
	} else {
		n = split(busy[ph], b, ",")
		idle_all = allidle[ph] * 1000
	}
	for (i = 1; i <= cpus; i++)
		out = out (i > 1 ? "," : "") sprintf("{\"cpu\":%d,\"busy_ns\":%d,\"idle_ns\":%d}", i - 1, b[i] * 1000, len - b[i] * 1000)
	return sprintf(",\"cpus\":[%s],\"all_idle_ns\":%d,\"cpus_unknown\":0", out, idle_all)
}
BEGIN {
	np = split("prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete", phases, " ")
	nd = split(devs, dl, " ")
	printf "{\"type\":\"begin\",\"format\":\"pmtrace-records-%d\",\"meta\":{\"scenario\":\"%s\",\"scenario_sha256\":\"%s\",\"devices\":\"%d\",\"links\":\"%d\",\"mode\":\"%s\",\"cpus\":\"%d\",\"clock\":\"%s\"}%s}\n", stock ? 4 : 3, name, sha, nd, links, mode, cpus, clock, stock ? ",\"absent\":[\"queued\",\"start\",\"queue_ns\",\"wait_ns\",\"waits\",\"outcome\",\"uncalled\",\"rpm_callback\",\"rpm_request\"]" : ""
}
$1 == "phase" { ps[$2] = $3; pe[$2] = $4; next }
$1 == "cpu" { allidle[$2] = $3; busy[$2] = $4; next }
$1 == "worker" { wtid[$2, $3] = $4; wsw[$2, $3] = $5; next }
$1 == "async" { adev[$2] = $3; next }
NF >= 7 { line[++nl] = $0 }
END {
	for (k = 1; k <= nl; k++) {
		split(line[k], f, " ")
		dev(f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8])
		have[f[1], f[2]] = 1
	}
	for (p = 1; p <= np; p++) {
		ph = phases[p]
		for (i = 1; i <= nd && !stock; i++)
			if (!((ph, dl[i]) in have))
				dev(ph, dl[i], 0, 1, 0, 0, 1, "")
		s = (ph in ps ? ps[ph] : 1) * 1000
		e = (ph in pe ? pe[ph] : 1) * 1000
		printf "{\"type\":\"phase\",\"name\":\"dpm_%s\",\"val\":2,\"start\":%d,\"end\":%d%s}\n", ph, s, e, cpu_times(ph, e - s)
		n_rec++
	}
	printf "{\"type\":\"end\",\"records\":%d,\"dropped\":0}\n", n_rec
}'
