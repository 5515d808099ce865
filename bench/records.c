// SPDX-License-Identifier: GPL-2.0
/*
 * records.c - read and validate one transition's pmtrace records
 * (records.h; the format is bpf/README.md's) with json-c.
 *
 * Every line is one JSON object and nothing else.  Every field the
 * analysis uses is checked: present, of its type, within its range, and
 * device records in order (the phase's start <= start <= callback start,
 * callback end <= end <= the phase's end; queued within the phase: the
 * worker may start a device before the thread that queued it has traced
 * dpm_device_queued).  A problem is reported as "PATH:LINE: RECORD record:
 * field 'NAME' ...: cause".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <json-c/json.h>
#include <json-c/linkhash.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"
#include "records.h"
#include "../bpf/pmtrace.h"	/* PMTRACE_FORMAT */

/* the format before "absent" (pmtrace-records-4), read as well */
#define PMTRACE_FORMAT_3 "pmtrace-records-3"

#define MAX_ERRNO	4095
#define MAX_TID		4194304		/* the kernel's PID_MAX_LIMIT */
#define MAX_CPUS	8192

/* one record being read, for messages */
struct rec {
	const char *path;
	long long line;
	const char *type;
	json_object *o;
};

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static int bad_field(const struct rec *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "PATH:LINE: TYPE record: field 'KEY' CAUSE"; returns -1 */
static int bad_field(const struct rec *r, const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%lld: %s record: field '%s' ", r->path, r->line, r->type, key);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* string field @key of @o (the record, or an object inside it) */
static int get_str(const struct rec *r, json_object *o, const char *key, const char **out)
{
	json_object *v = field(o, key);

	if (!v)
		return bad_field(r, key, "missing");
	if (!json_object_is_type(v, json_type_string))
		return bad_field(r, key, "is a %s, not a string",
				 json_type_to_name(json_object_get_type(v)));
	*out = json_object_get_string(v);
	if (!**out)
		return bad_field(r, key, "is empty");
	return 0;
}

/*
 * integer field @key of @o in [@lo, @hi].  json-c caps integers beyond 64
 * bits at INT64_MIN/MAX: the range check refuses those too.
 */
static int get_int(const struct rec *r, json_object *o, const char *key, long long lo,
		   long long hi, long long *out)
{
	json_object *v = field(o, key);
	long long n;

	if (!v)
		return bad_field(r, key, "missing");
	if (!json_object_is_type(v, json_type_int))
		return bad_field(r, key, "is a %s, not an integer",
				 json_type_to_name(json_object_get_type(v)));
	n = json_object_get_int64(v);
	if (n < lo || n > hi || (n == INT64_MAX && json_object_get_uint64(v) != (uint64_t)n))
		return bad_field(r, key, "= %s: out of range (%lld..%lld)",
				 json_object_to_json_string(v), lo, hi);
	*out = n;
	return 0;
}

static int get_time(const struct rec *r, json_object *o, const char *key, long long *out)
{
	return get_int(r, o, key, 0, RECORDS_MAX_VALUE, out);
}

/* begin record's meta: an optional decimal string in [@lo, @hi], -1 if absent */
static int meta_num(const struct rec *r, json_object *meta, const char *key, long long lo,
		    long long hi, long long *out)
{
	json_object *v = field(meta, key);
	const char *s;
	char *end;

	*out = -1;
	if (!v)
		return 0;
	s = json_object_get_string(v);
	errno = 0;
	*out = strtoll(s, &end, 10);
	if (!json_object_is_type(v, json_type_string) || !*s || *end || errno ||
	    *out < lo || *out > hi)
		return bad_field(r, key, "(in meta) = %s: want a number %lld..%lld in a string",
				 json_object_to_json_string(v), lo, hi);
	return 0;
}

static int meta_str(json_object *meta, const char *key, char **out)
{
	json_object *v = field(meta, key);

	*out = NULL;
	if (!v || !json_object_is_type(v, json_type_string))
		return 0;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -1;
}

/* what a kernel without the series' events leaves out (bpf/README.md) */
static const char * const absent_dpm[] = {
	"queued", "start", "queue_ns", "wait_ns", "waits", "outcome", "uncalled",
};

static const char * const absent_rpm[] = { "rpm_callback", "rpm_request" };

#define NR_ABSENT_DPM ((int)(sizeof(absent_dpm) / sizeof(absent_dpm[0])))
#define NR_ABSENT_RPM ((int)(sizeof(absent_rpm) / sizeof(absent_rpm[0])))

/* @s's index in absent_dpm[] then absent_rpm[], or -1 */
static int absent_index(const char *s)
{
	int k;

	for (k = 0; k < NR_ABSENT_DPM; k++)
		if (!strcmp(s, absent_dpm[k]))
			return k;
	for (k = 0; k < NR_ABSENT_RPM; k++)
		if (!strcmp(s, absent_rpm[k]))
			return NR_ABSENT_DPM + k;
	return -1;
}

/*
 * The begin record's "absent" (format 4): the names of one group, all of
 * them or none (pmtrace drops the dpm or the rpm events as a whole).
 */
static int read_absent(struct transition *t, const struct rec *r)
{
	json_object *a = field(r->o, "absent");
	int i, n, k, dpm = 0, rpm = 0;
	unsigned int seen = 0;

	if (!t->format4 && a)
		return bad_field(r, "absent", "in a %s file (format 4 has it)", PMTRACE_FORMAT_3);
	if (!t->format4)
		return 0;
	if (!a)
		return bad_field(r, "absent", "missing");
	if (!json_object_is_type(a, json_type_array))
		return bad_field(r, "absent", "is not an array");
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *s = json_object_is_type(v, json_type_string) ?
				json_object_get_string(v) : "";

		k = absent_index(s);
		if (k < 0)
			return bad_field(r, "absent", "entry %d = %s: not a field or record "
					 "pmtrace can lack", i, json_object_to_json_string(v));
		if (seen & (1u << k))
			return bad_field(r, "absent", "entry %d = %s: listed twice", i,
					 json_object_to_json_string(v));
		seen |= 1u << k;
		if (k < NR_ABSENT_DPM)
			dpm++;
		else
			rpm++;
	}
	if ((dpm && dpm != NR_ABSENT_DPM) || (rpm && rpm != NR_ABSENT_RPM))
		return bad_field(r, "absent", "names part of a group (%d of the %d dpm_device "
				 "fields, %d of the %d rpm records): pmtrace drops a group whole",
				 dpm, NR_ABSENT_DPM, rpm, NR_ABSENT_RPM);
	t->no_dpm = dpm > 0;
	t->no_rpm = rpm > 0;
	return 0;
}

static int read_begin(struct transition *t, const struct rec *r)
{
	json_object *meta = field(r->o, "meta");
	const char *type = NULL, *format = NULL;
	json_object *v = field(r->o, "type");

	if (v && json_object_is_type(v, json_type_string))
		type = json_object_get_string(v);
	if (!type || strcmp(type, "begin")) {
		fprintf(stderr, "%s:1: no begin record: not a pmtrace records file\n", r->path);
		return -1;
	}
	if (get_str(r, r->o, "format", &format))
		return -1;
	/* format 3 is 4 without "absent" and "parent": every event was there */
	t->format4 = !strcmp(format, PMTRACE_FORMAT);
	if (!t->format4 && strcmp(format, PMTRACE_FORMAT_3)) {
		fprintf(stderr, "%s: record format '%s', this analysis reads '%s' and '%s'%s\n",
			t->path, format, PMTRACE_FORMAT_3, PMTRACE_FORMAT,
			strcmp(format, PMTRACE_FORMAT_3) < 0 ?
			": recorded by an older pmtrace; record again" : "");
		return -1;
	}
	if (read_absent(t, r))
		return -1;
	if (meta && !json_object_is_type(meta, json_type_object))
		return bad_field(r, "meta", "is not an object");
	if (meta_str(meta, "scenario", &t->scenario) ||
	    meta_str(meta, "scenario_sha256", &t->sha256) || meta_str(meta, "mode", &t->mode) ||
	    meta_str(meta, "clock", &t->clock))
		return -1;
	if (meta_num(r, meta, "devices", 0, RECORDS_MAX_NAMES, &t->devices) ||
	    meta_num(r, meta, "links", 0, RECORDS_MAX_VALUE, &t->links) ||
	    meta_num(r, meta, "cpus", 1, MAX_CPUS, &t->cpus))
		return -1;
	if (meta)
		t->meta = json_object_get(meta);
	t->runtime_only = t->mode && !strcmp(t->mode, "runtime");
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
static int read_cpu_times(struct transition *t, int p, const struct rec *r)
{
	json_object *cpus = field(r->o, "cpus");
	struct cpu_times *c = &t->cpu[p];
	long long len = t->phase_end[p] - t->phase_start[p], unknown, busy, idle;
	int i, n;

	if (!cpus)
		return 0;
	if (!json_object_is_type(cpus, json_type_array))
		return bad_field(r, "cpus", "is not an array");
	n = json_object_array_length(cpus);
	if (!n || n > MAX_CPUS)
		return bad_field(r, "cpus", "has %d entries (want 1..%d)", n, MAX_CPUS);
	if (get_time(r, r->o, "all_idle_ns", &c->all_idle_ns) ||
	    get_int(r, r->o, "cpus_unknown", 0, n, &unknown))
		return -1;
	if (unknown)		/* a CPU's time missing from the sums: no figures */
		return 0;
	for (i = 0; i < n; i++) {
		json_object *one = json_object_array_get_idx(cpus, i);

		if (!json_object_is_type(one, json_type_object))
			return bad_field(r, "cpus", "entry %d is not an object", i);
		if (get_time(r, one, "busy_ns", &busy) || get_time(r, one, "idle_ns", &idle))
			return -1;
		/* a CPU's two sums are read a few ns apart from the phase's stamps */
		if (busy + idle > len + len / 100 + 1000 ||
		    c->all_idle_ns > idle + len / 100 + 1000) {
			fprintf(stderr, "%s:%lld: dpm_%s: CPU %d busy %lld + idle %lld ns (all "
					"idle %lld) do not fit in the phase's %lld ns\n",
				r->path, r->line, dpm_phase_names[p], i, busy, idle,
				c->all_idle_ns, len);
			return -1;
		}
		if (__builtin_add_overflow(c->busy_ns, busy, &c->busy_ns) ||
		    __builtin_add_overflow(c->idle_ns, idle, &c->idle_ns))
			return bad_field(r, "cpus", "busy_ns or idle_ns summed over the CPUs "
					 "overflows at CPU %d", i);
	}
	c->ncpus = n;
	return 0;
}

static int read_phase(struct transition *t, const struct rec *r)
{
	const char *name;
	int p;

	if (get_str(r, r->o, "name", &name))
		return -1;
	p = strncmp(name, "dpm_", 4) ? -1 : dpm_phase_of(name + 4);
	if (p < 0)
		return 0;	/* CPU_OFF, syscore, ...: not a device phase */
	if (t->phase_end[p]) {
		fprintf(stderr, "%s:%lld: a second %s phase record: one transition per records "
				"file\n",
			r->path, r->line, name);
		return -1;
	}
	if (get_int(r, r->o, "start", 1, RECORDS_MAX_VALUE, &t->phase_start[p]) ||
	    get_int(r, r->o, "end", 1, RECORDS_MAX_VALUE, &t->phase_end[p]))
		return -1;
	if (t->phase_end[p] < t->phase_start[p])
		return bad_field(r, "end", "= %lld: before the phase's start %lld",
				 t->phase_end[p], t->phase_start[p]);
	return read_cpu_times(t, p, r);
}

/* the fields a kernel without dpm_device events leaves null, all null */
static int read_nulls(const struct rec *r)
{
	int k;

	for (k = 0; k < NR_ABSENT_DPM - 1; k++) {	/* "uncalled" is no field */
		json_object *v = NULL;

		if (!json_object_object_get_ex(r->o, absent_dpm[k], &v))
			return bad_field(r, absent_dpm[k], "missing");
		if (v)
			return bad_field(r, absent_dpm[k], "= %s: the begin record lists it as "
					 "absent (want null)", json_object_to_json_string(v));
	}
	return 0;
}

/* the waits array: the devices @d blocked on */
static int read_waits(struct names *nm, struct dev_record *d, const struct rec *r)
{
	json_object *waits = field(r->o, "waits");
	const char *on;
	int i, n;

	if (!waits)
		return bad_field(r, "waits", "missing");
	if (!json_object_is_type(waits, json_type_array))
		return bad_field(r, "waits", "is not an array");
	n = json_object_array_length(waits);
	d->waits = n ? malloc(sizeof(int) * n) : NULL;
	d->wait_ns = n ? malloc(sizeof(long long) * n) : NULL;
	if (n && (!d->waits || !d->wait_ns))
		return bad_field(r, "waits", "too long: out of memory");
	for (i = 0; i < n; i++) {
		json_object *w = json_object_array_get_idx(waits, i);

		if (!json_object_is_type(w, json_type_object))
			return bad_field(r, "waits", "entry %d is not an object", i);
		if (get_str(r, w, "on", &on) || get_time(r, w, "ns", &d->wait_ns[d->nwaits]))
			return -1;
		d->waits[d->nwaits] = names_id(nm, on, 1);
		if (d->waits[d->nwaits] < 0)
			return bad_field(r, "waits", "names more than %d distinct devices",
					 RECORDS_MAX_NAMES);
		d->nwaits++;
	}
	return 0;
}

/*
 * The record's numbers, each within its range.  Without dpm_device events
 * (@no_dpm) the device's work is its callback: start is the callback's,
 * queued 0 (the analyses look at t->no_dpm before reading either).
 */
static int read_device_fields(struct dev_record *d, const struct rec *r, int no_dpm)
{
	long long async, tid, nvcsw, nivcsw;

	if (get_int(r, r->o, "async", 0, 1, &async) ||
	    get_int(r, r->o, "tid", 0, MAX_TID, &tid) ||
	    get_time(r, r->o, "nvcsw", &nvcsw) || get_time(r, r->o, "nivcsw", &nivcsw) ||
	    (!no_dpm && get_time(r, r->o, "queued", &d->queued)) ||
	    (!no_dpm && get_int(r, r->o, "start", 1, RECORDS_MAX_VALUE, &d->start)) ||
	    (no_dpm && get_int(r, r->o, "callback_start", 1, RECORDS_MAX_VALUE, &d->start)) ||
	    get_time(r, r->o, "callback_start", &d->cb_start) ||
	    get_time(r, r->o, "callback_ns", &d->cb_ns) || get_time(r, r->o, "end", &d->end) ||
	    (no_dpm && read_nulls(r)))
		return -1;
	d->async = async;
	d->tid = tid;
	d->switches = nvcsw + nivcsw;
	if (d->cb_start && d->cb_start < d->start)
		return bad_field(r, "callback_start", "= %lld: before the device's start %lld",
				 d->cb_start, d->start);
	if (d->end < d->start)
		return bad_field(r, "end", "= %lld: before the device's start %lld", d->end,
				 d->start);
	if ((d->cb_start ? d->cb_start : d->start) + d->cb_ns > d->end)
		return bad_field(r, "callback_ns",
				 "= %lld: longer than the device's window (callback from %lld, end "
				 "%lld)",
				 d->cb_ns, d->cb_start ? d->cb_start : d->start, d->end);
	return 0;
}

/* "parent" (format 4 only): a name, or null for a device without a parent */
static int read_parent(const struct transition *t, struct dev_record *d, const struct rec *r)
{
	json_object *v = NULL;
	int has = json_object_object_get_ex(r->o, "parent", &v);
	const char *s;

	if (has && !t->format4)
		return bad_field(r, "parent", "in a %s file (format 4 has it)", PMTRACE_FORMAT_3);
	if (!has && t->format4)
		return bad_field(r, "parent", "missing");
	if (!v)
		return 0;
	if (get_str(r, r->o, "parent", &s))
		return -1;
	d->parent = strdup(s);
	return d->parent ? 0 : bad_field(r, "parent", "out of memory");
}

static int read_device(struct names *nm, struct transition *t, const struct rec *r)
{
	const char *dev, *phase;
	struct dev_record *d;
	void *grown;
	int p;

	if (get_str(r, r->o, "device", &dev) || get_str(r, r->o, "phase", &phase))
		return -1;
	p = dpm_phase_of(phase);
	if (p < 0)
		return bad_field(r, "phase", "= \"%s\": not a device phase", phase);
	if (t->nrecs[p] == t->caprecs[p]) {	/* doubling: linear in the records */
		int cap = t->caprecs[p] ? t->caprecs[p] : 32;

		grown = cap <= INT_MAX / 2 ? realloc(t->recs[p], sizeof(*d) * 2 * cap) : NULL;
		if (!grown)
			return bad_field(r, "device", "one record too many: out of memory");
		t->recs[p] = grown;
		t->caprecs[p] = 2 * cap;
	}
	d = &t->recs[p][t->nrecs[p]++];
	memset(d, 0, sizeof(*d));
	d->line = r->line;
	d->dev = names_record_id(nm, p, dev);
	if (d->dev < 0)
		return bad_field(r, "device", "= \"%s\": more than %d distinct device names",
				 dev, RECORDS_MAX_NAMES);
	if (read_device_fields(d, r, t->no_dpm) || read_parent(t, d, r))
		return -1;
	return t->no_dpm ? 0 : read_waits(nm, d, r);
}

/* index of @s in @names (@n of them), or -1 */
static int name_index(const char * const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static const char * const rpm_cb_names[] = { "runtime_idle", "runtime_suspend", "runtime_resume" };
static const char * const rpm_what_names[] = { "queued", "replaced", "run", "cancelled" };
static const char * const rpm_req_names[] = { "none", "idle", "suspend", "autosuspend", "resume" };

/* an rpm_callback or rpm_request record; -1 after a message */
static int read_rpm(struct names *nm, struct transition *t, const struct rec *r, int is_req)
{
	const char *dev, *kind, *req = NULL;
	struct rpm_record *x;
	long long ret = 0;

	if (t->nrpm == t->caprpm) {
		int cap = t->caprpm ? 2 * t->caprpm : 256;

		x = reallocarray(t->rpm, cap, sizeof(*x));
		if (!x)
			return -1;
		t->rpm = x;
		t->caprpm = cap;
	}
	x = &t->rpm[t->nrpm];
	memset(x, 0, sizeof(*x));
	x->line = r->line;
	x->is_request = is_req;
	if (get_str(r, r->o, "device", &dev) ||
	    get_str(r, r->o, is_req ? "what" : "callback", &kind))
		return -1;
	x->kind = is_req ? name_index(rpm_what_names, 4, kind) : name_index(rpm_cb_names, 3, kind);
	if (x->kind < 0)
		return bad_field(r, is_req ? "what" : "callback",
				 "= \"%s\": not one pmtrace writes", kind);
	if (is_req) {
		if (get_str(r, r->o, "request", &req) || get_time(r, r->o, "ts", &x->start))
			return -1;
		x->request = name_index(rpm_req_names, 5, req);
		if (x->request < 0)
			return bad_field(r, "request", "= \"%s\": not a runtime PM request", req);
		x->end = x->start;
	} else {
		if (get_time(r, r->o, "start", &x->start) || get_time(r, r->o, "end", &x->end) ||
		    get_int(r, r->o, "ret", -MAX_ERRNO, INT_MAX, &ret))
			return -1;
		/* start 0: the callback began before pmtrace attached */
		if (x->start && x->end < x->start)
			return bad_field(r, "end", "= %lld: before the start (%lld)", x->end,
					 x->start);
		x->ret = ret;
	}
	x->dev = names_id(nm, dev, 1);
	if (x->dev < 0) {
		fprintf(stderr, "%s:%lld: more than %d device names\n", r->path, r->line,
			RECORDS_MAX_NAMES);
		return -1;
	}
	t->nrpm++;
	return 0;
}

const char *transition_meta(const struct transition *t, const char *key)
{
	json_object *v = t->meta ? field(t->meta, key) : NULL;

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* one line's record; -1 after a message */
static int read_record(struct names *nm, struct transition *t, struct rec *r,
		       long long *end_count)
{
	json_object *v = field(r->o, "type");

	r->type = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
	if (r->line == 1)
		return read_begin(t, r);
	if (!strcmp(r->type, "end")) {
		long long dropped;

		if (get_time(r, r->o, "records", end_count) ||
		    get_time(r, r->o, "dropped", &dropped))
			return -1;
		if (dropped) {
			fprintf(stderr, "%s: pmtrace dropped %lld events: the records are "
					"incomplete\n",
				r->path, dropped);
			return -1;
		}
		return 0;
	}
	if (!strcmp(r->type, "incomplete")) {
		v = field(r->o, "reason");
		fprintf(stderr, "%s:%lld: pmtrace did not finish (%s): the records are "
				"incomplete\n",
			r->path, r->line, v && json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) : "no reason given");
		return -1;
	}
	t->records++;
	if (!strcmp(r->type, "phase"))
		return read_phase(t, r);
	if (!strcmp(r->type, "device"))
		return read_device(nm, t, r);
	if ((!strcmp(r->type, "rpm_callback") || !strcmp(r->type, "rpm_request")) && t->no_rpm)
		return bad_field(r, "type", "= \"%s\": the begin record lists it as absent",
				 r->type);
	if (!strcmp(r->type, "rpm_callback") || !strcmp(r->type, "rpm_request"))
		return read_rpm(nm, t, r, r->type[4] == 'r');
	r->type = "a";
	return bad_field(r, "type", "= %s: not a record type of pmtrace",
			 v ? json_object_to_json_string(v) : "(missing)");
}

/* @line (@len bytes) parsed into r->o: one JSON object, then only the newline */
static int parse_line(struct json_tokener *tok, const char *line, size_t len, struct rec *r)
{
	size_t end;

	if (strlen(line) != len) {
		fprintf(stderr, "%s:%lld: a NUL byte: %s\n", r->path, r->line,
			r->line == 1 ? "not a pmtrace records file" : "corrupt record");
		return -1;
	}
	json_tokener_reset(tok);
	r->o = json_tokener_parse_ex(tok, line, len);
	if (!r->o || !json_object_is_type(r->o, json_type_object)) {
		if (r->line > 1 && line[len - 1] != '\n')
			fprintf(stderr, "%s:%lld: last line cut short: the file is truncated\n",
				r->path, r->line);
		else
			fprintf(stderr, "%s:%lld: not a JSON object: %s\n", r->path, r->line,
				r->line == 1 ? "not a pmtrace records file" : "corrupt record");
		return -1;
	}
	end = json_tokener_get_parse_end(tok);
	while (end < len && (line[end] == ' ' || line[end] == '\t' || line[end] == '\r'))
		end++;
	if (end < len && line[end] != '\n') {
		fprintf(stderr, "%s:%lld: text after the record's JSON object (column %zu)\n",
			r->path, r->line, end + 1);
		return -1;
	}
	if (line[len - 1] != '\n') {
		fprintf(stderr, "%s:%lld: last line cut short: the file is truncated\n",
			r->path, r->line);
		return -1;
	}
	return 0;
}

/* every device record within its phase; every device phase present */
static int check_phases(const struct names *nm, const struct transition *t)
{
	int p, i;

	for (p = 0; p < DPM_NR_PHASES; p++) {
		if (!t->phase_end[p]) {
			fprintf(stderr, "%s: no dpm_%s phase record: not a whole transition\n",
				t->path, dpm_phase_names[p]);
			return -1;
		}
		for (i = 0; i < t->nrecs[p]; i++) {
			const struct dev_record *d = &t->recs[p][i];
			long long first = d->start, last = d->end;

			if (d->queued && d->queued < first)
				first = d->queued;
			if (d->queued > last)
				last = d->queued;
			if (first >= t->phase_start[p] && last <= t->phase_end[p])
				continue;
			fprintf(stderr, "%s:%lld: device record of '%s': %lld..%lld ns, outside "
					"its phase dpm_%s (%lld..%lld)\n",
				t->path, d->line, names_get(nm, d->dev), first, last,
				dpm_phase_names[p], t->phase_start[p], t->phase_end[p]);
			return -1;
		}
	}
	return 0;
}

/* the lines of @f; -1 after a message */
static int read_lines(struct names *nm, FILE *f, struct transition *t)
{
	struct json_tokener *tok = json_tokener_new();
	struct rec r = { .path = t->path };
	long long end_count = -1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = -1;

	if (!tok)
		return -1;
	for (; (len = getline(&line, &cap, f)) > 0; json_object_put(r.o), r.o = NULL) {
		r.line++;
		if (end_count >= 0) {
			fprintf(stderr, "%s:%lld: data after the end record\n", t->path, r.line);
			goto out;
		}
		if (parse_line(tok, line, len, &r) || read_record(nm, t, &r, &end_count))
			goto out;
	}
	if (ferror(f))
		fprintf(stderr, "%s: %s\n", t->path, strerror(errno));
	else if (!r.line)
		fprintf(stderr, "%s: empty: not a pmtrace records file\n", t->path);
	else if (end_count < 0)
		fprintf(stderr, "%s: no end record after line %lld: truncated (pmtrace did not "
				"finish)\n",
			t->path, r.line);
	else if (end_count != t->records)
		fprintf(stderr, "%s: the end record counts %lld records, the file has %lld\n",
			t->path, end_count, t->records);
	else
		ret = t->runtime_only ? 0 : check_phases(nm, t);
out:
	json_object_put(r.o);
	free(line);
	json_tokener_free(tok);
	return ret;
}

int transition_read_stream(struct names *nm, FILE *f, const char *path, struct transition *t)
{
	memset(t, 0, sizeof(*t));
	t->path = strdup(path);
	if (!t->path)
		return -1;
	names_next_file(nm);
	return read_lines(nm, f, t);
}

int transition_read(struct names *nm, const char *path, struct transition *t)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		memset(t, 0, sizeof(*t));
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = transition_read_stream(nm, f, path, t);
	fclose(f);
	return ret;
}

int transition_index(const struct names *nm, struct transition *t)
{
	int p, i, n = names_count(nm);

	for (p = 0; p < DPM_NR_PHASES; p++) {
		free(t->index[p]);
		t->index[p] = malloc(sizeof(int) * (n ? n : 1));
		if (!t->index[p]) {
			fprintf(stderr, "%s: out of memory\n", t->path);
			return -1;
		}
		for (i = 0; i < n; i++)
			t->index[p][i] = -1;
		for (i = 0; i < t->nrecs[p]; i++) {
			int dev = t->recs[p][i].dev;

			if (t->index[p][dev] >= 0) {
				fprintf(stderr, "%s:%lld: a second %s record of device '%s': one "
						"transition per records file\n",
					t->path, t->recs[p][i].line, dpm_phase_names[p],
					names_get(nm, dev));
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
		for (i = 0; i < t->nrecs[p]; i++) {
			free(t->recs[p][i].waits);
			free(t->recs[p][i].wait_ns);
			free(t->recs[p][i].parent);
		}
		free(t->recs[p]);
		free(t->index[p]);
	}
	free(t->path);
	free(t->scenario);
	free(t->sha256);
	free(t->mode);
	free(t->clock);
	free(t->rpm);
	json_object_put(t->meta);
	memset(t, 0, sizeof(*t));
}

double transition_work(const struct transition *t, int p, int real_clock)
{
	const struct cpu_times *c = &t->cpu[p];

	if (real_clock)
		return c->busy_ns;
	return t->phase_end[p] - t->phase_start[p] - c->all_idle_ns;
}
