// SPDX-License-Identifier: GPL-2.0
/*
 * records.c - read and validate one transition's pmtrace records
 * (records.h; the format is bpf/README.md's) with json-c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "records.h"
#include "../bpf/pmtrace.h"	/* PMTRACE_FORMAT */
#define MAX_NAMES 65536

static struct hsearch_data name_tab;
static char **names;
static int nnames, tab_ready;
static int *seen_in[DPM_NR_PHASES];	/* names id -> serial of the last file */
static int serial;			/* of the file being read */

int names_id(const char *name, int create)
{
	ENTRY item = { .key = (char *)name }, *found = NULL;

	if (!tab_ready) {
		if (!hcreate_r(MAX_NAMES * 2, &name_tab))
			return -1;
		names = calloc(MAX_NAMES, sizeof(*names));
		for (int p = 0; p < DPM_NR_PHASES; p++)
			seen_in[p] = calloc(MAX_NAMES, sizeof(int));
		tab_ready = 1;
	}
	if (hsearch_r(item, FIND, &found, &name_tab))
		return (int)(long)found->data;
	if (!create || nnames == MAX_NAMES)
		return -1;
	names[nnames] = strdup(name);
	item.key = names[nnames];
	item.data = (void *)(long)nnames;
	if (!hsearch_r(item, ENTER, &found, &name_tab))
		return -1;
	return nnames++;
}

const char *names_get(int id)
{
	return id >= 0 && id < nnames ? names[id] : "?";
}

int names_count(void)
{
	return nnames;
}

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *str_field(json_object *o, const char *key)
{
	json_object *v = field(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* an integer field, or -1 when absent or not a number */
static long long int_field(json_object *o, const char *key)
{
	json_object *v = field(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

static char *meta_str(json_object *meta, const char *key)
{
	const char *v = str_field(meta, key);

	return v ? strdup(v) : NULL;
}

static long long meta_num(json_object *meta, const char *key)
{
	const char *v = str_field(meta, key);
	char *end;
	long long n;

	if (!v)
		return -1;
	n = strtoll(v, &end, 10);
	return *v && !*end ? n : -1;
}

static int read_begin(struct transition *t, json_object *o)
{
	const char *type = str_field(o, "type"), *format = str_field(o, "format");
	json_object *meta = field(o, "meta");

	if (!type || strcmp(type, "begin") || !format)
		return -1;
	if (strcmp(format, PMTRACE_FORMAT)) {
		fprintf(stderr, "%s: record format '%s', this analysis reads '%s'%s\n",
			t->path, format, PMTRACE_FORMAT,
			strcmp(format, PMTRACE_FORMAT) < 0 ?
			": recorded by an older pmtrace; record again" : "");
		return -2;
	}
	t->scenario = meta_str(meta, "scenario");
	t->sha256 = meta_str(meta, "scenario_sha256");
	t->mode = meta_str(meta, "mode");
	t->clock = meta_str(meta, "clock");
	t->devices = meta_num(meta, "devices");
	t->links = meta_num(meta, "links");
	t->cpus = meta_num(meta, "cpus");
	/* "legacy": async with the lab-only 6.12 scheduling (pm_async=2) */
	t->async = t->mode && (!strcmp(t->mode, "async") || !strcmp(t->mode, "legacy"));
	return 0;
}

/*
 * A phase record's CPU accounting, if it has one ("cpus", "all_idle_ns",
 * "cpus_unknown"): every CPU's busy + idle must fit in the phase, and the
 * all-idle time in every CPU's idle time.  With CPUs of unknown state the
 * sums lack their time: the phase counts as one without accounting.
 */
static int read_cpu_times(struct transition *t, int p, json_object *o)
{
	json_object *cpus = field(o, "cpus");
	struct cpu_times *c = &t->cpu[p];
	long long len = t->phase_end[p] - t->phase_start[p];
	int i, n;

	if (!cpus)
		return 0;
	if (!json_object_is_type(cpus, json_type_array))
		return -1;
	n = json_object_array_length(cpus);
	c->all_idle_ns = int_field(o, "all_idle_ns");
	c->unknown = int_field(o, "cpus_unknown");
	if (!n || c->all_idle_ns < 0 || c->unknown < 0)
		return -1;
	if (c->unknown)		/* a CPU's time missing from the sums: no figures */
		return 0;
	for (i = 0; i < n; i++) {
		json_object *one = json_object_array_get_idx(cpus, i);
		long long busy = int_field(one, "busy_ns"), idle = int_field(one, "idle_ns");

		if (busy < 0 || idle < 0)
			return -1;
		/* a CPU's two sums are read a few ns apart from the phase's stamps */
		if (busy + idle > len + len / 100 + 1000 || c->all_idle_ns > idle + len / 100 + 1000) {
			fprintf(stderr, "%s: dpm_%s: CPU %d busy %lld + idle %lld ns (all idle %lld) do not fit in the phase's %lld ns\n",
				t->path, dpm_phase_names[p], i, busy, idle, c->all_idle_ns, len);
			return -2;
		}
		c->busy_ns += busy;
		c->idle_ns += idle;
	}
	c->ncpus = n;
	return 0;
}

static int read_phase(struct transition *t, json_object *o)
{
	const char *name = str_field(o, "name");
	int p;

	if (!name)
		return -1;
	if (strncmp(name, "dpm_", 4) || (p = dpm_phase_of(name + 4)) < 0)
		return 0;	/* CPU_OFF, syscore, ...: not a device phase */
	if (t->phase_end[p]) {
		fprintf(stderr, "%s: two %s phase records: one transition per records file\n",
			t->path, name);
		return -2;
	}
	t->phase_start[p] = int_field(o, "start");
	t->phase_end[p] = int_field(o, "end");
	if (t->phase_start[p] <= 0 || t->phase_end[p] < t->phase_start[p])
		return -1;
	return read_cpu_times(t, p, o);
}

static int read_device(struct transition *t, json_object *o)
{
	const char *dev = str_field(o, "device"), *phase = str_field(o, "phase");
	json_object *waits = field(o, "waits");
	struct dev_record *r;
	int p, i, n;

	if (!dev || !phase || (p = dpm_phase_of(phase)) < 0 || !waits ||
	    !json_object_is_type(waits, json_type_array))
		return -1;
	t->recs[p] = realloc(t->recs[p], sizeof(*r) * (t->nrecs[p] + 1));
	r = &t->recs[p][t->nrecs[p]++];
	memset(r, 0, sizeof(*r));
	r->dev = names_id(dev, 1);
	/*
	 * dev_name() is unique on a bus, not system-wide (the guest has two
	 * PNP0A06:00): a name's second device in a phase is "NAME#2", and so on.
	 */
	for (i = 2; r->dev >= 0 && seen_in[p][r->dev] == serial; i++) {
		char alias[256];

		snprintf(alias, sizeof(alias), "%s#%d", dev, i);
		r->dev = names_id(alias, 1);
	}
	if (r->dev >= 0)
		seen_in[p][r->dev] = serial;
	r->async = int_field(o, "async");
	r->error = int_field(o, "error");
	r->tid = int_field(o, "tid");
	r->switches = int_field(o, "nvcsw");
	if (r->switches >= 0)
		r->switches = int_field(o, "nivcsw") < 0 ? -1 : r->switches + int_field(o, "nivcsw");
	r->queued = int_field(o, "queued");
	r->start = int_field(o, "start");
	r->cb_start = int_field(o, "callback_start");
	r->cb_ns = int_field(o, "callback_ns");
	r->end = int_field(o, "end");
	if (r->dev < 0 || r->async < 0 || r->tid < 0 || r->switches < 0 || r->queued < 0 ||
	    r->start <= 0 || r->cb_start < 0 || r->cb_ns < 0 || r->end < r->start)
		return -1;
	n = json_object_array_length(waits);
	r->waits = n ? malloc(sizeof(int) * n) : NULL;
	for (i = 0; i < n; i++) {
		const char *on = str_field(json_object_array_get_idx(waits, i), "on");

		if (!on)
			return -1;
		r->waits[r->nwaits++] = names_id(on, 1);
	}
	return 0;
}

int transition_read(const char *path, struct transition *t)
{
	struct json_tokener *tok = json_tokener_new();
	long long lineno = 0, end_count = -1, dropped = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = -1, p;
	FILE *f;

	memset(t, 0, sizeof(*t));
	t->path = strdup(path);
	serial++;
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		goto out;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		json_object *o;
		const char *type;
		int err = 0;

		lineno++;
		if (line[len - 1] != '\n') {
			fprintf(stderr, "%s:%lld: last line cut short: the file is truncated\n",
				path, lineno);
			goto out;
		}
		if (end_count >= 0) {
			fprintf(stderr, "%s:%lld: data after the end record\n", path, lineno);
			goto out;
		}
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, line, len);
		if (!o || !json_object_is_type(o, json_type_object)) {
			fprintf(stderr, "%s:%lld: not a JSON object: %s\n", path, lineno,
				lineno == 1 ? "not a pmtrace records file" : "corrupt record");
			json_object_put(o);
			goto out;
		}
		type = str_field(o, "type");
		if (lineno == 1) {
			err = read_begin(t, o);
			if (err == -1)
				fprintf(stderr, "%s:1: no begin record: not a pmtrace records file\n",
					path);
		} else if (!type) {
			err = -1;
		} else if (!strcmp(type, "end")) {
			end_count = int_field(o, "records");
			dropped = int_field(o, "dropped");
		} else if (!strcmp(type, "phase")) {
			err = read_phase(t, o);
			t->records++;
		} else if (!strcmp(type, "device")) {
			err = read_device(t, o);
			t->records++;
		} else if (!strcmp(type, "rpm_callback") || !strcmp(type, "rpm_request")) {
			t->records++;
		} else {
			err = -1;
		}
		json_object_put(o);
		if (err == -1 && lineno > 1)
			fprintf(stderr, "%s:%lld: malformed record\n", path, lineno);
		if (err)
			goto out;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		goto out;
	}
	if (!lineno) {
		fprintf(stderr, "%s: empty: not a pmtrace records file\n", path);
		goto out;
	}
	if (end_count < 0) {
		fprintf(stderr, "%s: no end record after line %lld: truncated (pmtrace did not finish)\n",
			path, lineno);
		goto out;
	}
	if (end_count != t->records) {
		fprintf(stderr, "%s: the end record counts %lld records, the file has %lld\n",
			path, end_count, t->records);
		goto out;
	}
	if (dropped) {
		fprintf(stderr, "%s: pmtrace dropped %lld events: the records are incomplete\n",
			path, dropped);
		goto out;
	}
	for (p = 0; p < DPM_NR_PHASES; p++)
		if (!t->phase_end[p]) {
			fprintf(stderr, "%s: no dpm_%s phase record: not a whole transition\n",
				path, dpm_phase_names[p]);
			goto out;
		}
	ret = 0;
out:
	if (f)
		fclose(f);
	free(line);
	json_tokener_free(tok);
	return ret;
}

int transition_index(struct transition *t)
{
	int p, i, n = names_count();

	for (p = 0; p < DPM_NR_PHASES; p++) {
		free(t->index[p]);
		t->index[p] = malloc(sizeof(int) * (n ? n : 1));
		for (i = 0; i < n; i++)
			t->index[p][i] = -1;
		for (i = 0; i < t->nrecs[p]; i++) {
			int dev = t->recs[p][i].dev;

			if (t->index[p][dev] >= 0) {
				fprintf(stderr, "%s: two %s records of device '%s': one transition per records file\n",
					t->path, dpm_phase_names[p], names_get(dev));
				return -1;
			}
			t->index[p][dev] = i;
		}
	}
	return 0;
}

void transition_free(struct transition *t)
{
	int p, i;

	for (p = 0; p < DPM_NR_PHASES; p++) {
		for (i = 0; i < t->nrecs[p]; i++)
			free(t->recs[p][i].waits);
		free(t->recs[p]);
		free(t->index[p]);
	}
	free(t->path);
	free(t->scenario);
	free(t->sha256);
	free(t->mode);
	free(t->clock);
	memset(t, 0, sizeof(*t));
}
