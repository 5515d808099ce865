#!/bin/sh
# mkrecords.sh SCENARIO MODE CPUS < SPEC > RECORDS: hand-made pmtrace
# records (bpf/README.md) of one transition, for the analysis tests.
#
# SPEC lines, times in microseconds:
#   phase PHASE START END
#   PHASE DEVICE QUEUED START CALLBACK_START CALLBACK_US END [WAITED_ON,...]
# Every phase and scenario device SPEC does not name gets a filler record
# (phase 1..1 us, device done at 1 us without a callback: no time, no
# dependency).  The begin record names SCENARIO's sha256 and device and
# pm_link counts, as lab/scenarios/bench.sh does.
set -eu
scen=$1 mode=$2 cpus=$3
sha=$(sha256sum "$scen" | cut -d' ' -f1)
name=$(basename "$scen" .txt)
devs=$(grep -v '^[[:space:]]*\(#\|@\|$\)' "$scen" | awk '{ print $1 }' | tr '\n' ' ')
links=$(sed -n 's/.*masters=\([^ ]*\).*/\1/p' "$scen" | tr ',' '\n' | grep -c . || true)
awk -v name="$name" -v sha="$sha" -v devs="$devs" -v links="$links" -v mode="$mode" -v cpus="$cpus" '
function dev(ph, d, q, s, cs, cb, e, w,    n, i, a, out) {
	out = ""
	n = split(w, a, ",")
	for (i = 1; i <= n; i++)
		out = out (i > 1 ? "," : "") sprintf("{\"on\":\"%s\",\"relation\":\"parent\",\"ns\":0}", a[i])
	printf "{\"type\":\"device\",\"device\":\"%s\",\"phase\":\"%s\",\"event\":2,\"async\":%d,\"cpu\":0,\"tid\":1,\"queued\":%d,\"start\":%d,\"callback_start\":%d,\"end\":%d,\"queue_ns\":0,\"callback_ns\":%d,\"wait_ns\":{\"parent\":0,\"child\":0,\"supplier\":0,\"consumer\":0},\"waits\":[%s],\"error\":0}\n", d, ph, mode == "async", q * 1000, s * 1000, cs * 1000, e * 1000, cb * 1000, out
	n_rec++
}
BEGIN {
	np = split("prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete", phases, " ")
	nd = split(devs, dl, " ")
	printf "{\"type\":\"begin\",\"format\":\"pmtrace-records-1\",\"meta\":{\"scenario\":\"%s\",\"scenario_sha256\":\"%s\",\"devices\":\"%d\",\"links\":\"%d\",\"mode\":\"%s\",\"cpus\":\"%d\"}}\n", name, sha, nd, links, mode, cpus
}
$1 == "phase" { ps[$2] = $3; pe[$2] = $4; next }
NF >= 7 { dev($1, $2, $3, $4, $5, $6, $7, $8); have[$1, $2] = 1 }
END {
	for (p = 1; p <= np; p++) {
		ph = phases[p]
		for (i = 1; i <= nd; i++)
			if (!((ph, dl[i]) in have))
				dev(ph, dl[i], 0, 1, 0, 0, 1, "")
		printf "{\"type\":\"phase\",\"name\":\"dpm_%s\",\"val\":2,\"start\":%d,\"end\":%d}\n", ph, (ph in ps ? ps[ph] : 1) * 1000, (ph in pe ? pe[ph] : 1) * 1000
		n_rec++
	}
	printf "{\"type\":\"end\",\"records\":%d,\"dropped\":0}\n", n_rec
}'
