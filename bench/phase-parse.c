// SPDX-License-Identifier: GPL-2.0
/*
 * phase-parse.c - tracefs text traces read into phase and device callback
 * times (phase-parse.h).
 *
 * A trace line is "  TASK-PID  [CPU] FLAGS  SECONDS.USECS: EVENT: PAYLOAD"
 * (no FLAGS without the irq-info option, "(TGID)" after TASK-PID with
 * record-tgid); the header of the file and blank lines are skipped, any
 * other line is an error.  The payloads used (include/trace/events/power.h):
 *
 *   suspend_resume: ACTION[VAL] begin|end
 *   device_pm_callback_start: DRIVER DEVICE, parent: PARENT, OPS[EVENT]
 *   device_pm_callback_end: DRIVER DEVICE, err=ERR
 *
 * A phase is ACTION[VAL], or ACTION alone for CPU_OFF/CPU_ON (which carry
 * the CPU number: one row for all CPUs).  A device callback is matched
 * from its start to its end by pid and device, and its time goes to the
 * dpm_* phase open at its end.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase-parse.h"

#define DEV_HASH	(2 * PP_MAX_DEVS)	/* chain heads of pp_set.dev_hash */
#define CB_HASH		(2 * PP_MAX_OPEN)	/* chain heads of pp_reader.cb_hash */
#define TS_DIGITS	16	/* significant digits of a timestamp a double keeps */
#define TS_LEN		40	/* longest timestamp field */
#define QUOTE_LEN	40	/* at most this much of a bad field is quoted */
#define QUOTE_BUF	(QUOTE_LEN + 4)

struct line_hdr {		/* an event line's header */
	int pid;
	double ts;		/* seconds */
	const char *event;	/* the event's name, event_len bytes */
	size_t event_len;
	const char *payload;	/* after "EVENT: ", or NULL */
};

static int vfail(struct pp_reader *r, struct pp_err *err, int with_line, const char *fmt,
		 va_list ap) __attribute__((format(printf, 4, 0)));
static int fail(struct pp_reader *r, struct pp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_file(struct pp_reader *r, struct pp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int vfail(struct pp_reader *r, struct pp_err *err, int with_line, const char *fmt,
		 va_list ap)
{
	int n;

	if (with_line)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%ld: ", r->file, r->lineno);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", r->file);
	if (n < 0 || n >= (int)sizeof(err->msg) - 1)
		return -1;
	vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
	return -1;
}

/* An error at the current line: "FILE:LINE: cause".  Returns -1. */
static int fail(struct pp_reader *r, struct pp_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, err, 1, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error of the whole file: "FILE: cause".  Returns -1. */
static int fail_file(struct pp_reader *r, struct pp_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, err, 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* At most QUOTE_LEN bytes of @s (@len) for a message, unprintable ones as '?'. */
static const char *quote(char q[QUOTE_BUF], const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < QUOTE_LEN; i++)
		q[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	snprintf(q + i, QUOTE_BUF - i, "%s", i < len ? "..." : "");
	return q;
}

static unsigned int name_hash(const char *name, int n)
{
	unsigned int h = 2166136261u ^ (unsigned int)n;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

void pp_set_init(struct pp_set *s)
{
	memset(s, 0, sizeof(*s));
}

void pp_set_free(struct pp_set *s)
{
	free(s->devs);
	free(s->dev_hash);
	memset(s, 0, sizeof(*s));
}

int pp_find_phase(const struct pp_set *s, const char *name)
{
	int i;

	for (i = 0; i < s->nphases; i++)
		if (!strcmp(s->phases[i].name, name))
			return i;
	return -1;
}

/* A table of @n int chain heads, all -1 (empty); NULL when out of memory. */
static int *new_heads(int n)
{
	int *h = malloc(n * sizeof(*h));

	if (h)
		memset(h, 0xff, n * sizeof(*h));
	return h;
}

/* @arr (@*cap elements of @size) grown to hold @need, at most @max; NULL if no memory. */
static void *grow(void *arr, int *cap, int need, int max, size_t size)
{
	int n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return arr;
	while (n < need)
		n *= 2;
	if (n > max)
		n = max;
	p = realloc(arr, n * size);
	if (p)
		*cap = n;
	return p;
}

/*
 * The timestamp field @s (@len bytes): DIGITS[.DIGITS], at most TS_DIGITS
 * significant digits (a double keeps them all).  0, or -1 if malformed.
 */
static int parse_ts(const char *s, size_t len, double *ts)
{
	char buf[TS_LEN + 1];
	size_t i, first = len, last = 0, dots = 0, sig;

	if (!len || len > TS_LEN || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[len - 1]))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] == '.') {
			if (dots++)
				return -1;
			continue;
		}
		if (!isdigit((unsigned char)s[i]))
			return -1;
		if (s[i] != '0' && first == len)
			first = i;
		if (s[i] != '0' || !dots)
			last = i;
	}
	/* significant: from the first non-zero digit to the last one that counts */
	sig = first < len ? last - first + 1 : 0;
	if (sig && memchr(s + first, '.', last - first))
		sig--;
	if (sig > TS_DIGITS)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*ts = strtod(buf, NULL);
	return 0;
}

/* The digits after the last "-DIGIT" before @end: the pid of "TASK-PID". */
static int parse_pid(const char *line, const char *end, int *pid)
{
	const char *p, *dash = NULL;
	long v = 0;

	for (p = line; p + 1 < end; p++)
		if (*p == '-' && isdigit((unsigned char)p[1]))
			dash = p;
	if (!dash)
		return -1;
	for (p = dash + 1; p < end && isdigit((unsigned char)*p); p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return -1;
	}
	*pid = v;
	return 0;
}

/* The first " [DIGITS] " of @line (the CPU field), and the text after it. */
static const char *cpu_field(const char *line, const char **after)
{
	const char *p = line, *q;

	while ((p = strstr(p, " ["))) {
		for (q = p + 2; isdigit((unsigned char)*q); q++)
			;
		if (q > p + 2 && q[0] == ']' && q[1] == ' ') {
			*after = q + 2;
			return p;
		}
		p++;
	}
	return NULL;
}

static int parse_header(struct pp_reader *r, const char *line, struct line_hdr *h,
			struct pp_err *err)
{
	const char *after, *cpu = cpu_field(line, &after), *colon, *ts;
	char q[QUOTE_BUF];

	if (!cpu)
		return fail(r, err, "not a trace event line (no ' [CPU] ' field): '%s'",
			    quote(q, line, strlen(line)));
	if (parse_pid(line, cpu, &h->pid))
		return fail(r, err, "pid: no TASK-PID of at most %d before the CPU field", INT_MAX);
	colon = strstr(after, ": ");
	if (!colon)
		return fail(r, err, "no 'SECONDS: EVENT: ' after the CPU field");
	for (ts = colon; ts > after && ts[-1] != ' '; ts--)
		;
	if (parse_ts(ts, colon - ts, &h->ts))
		return fail(r, err,
			    "timestamp: expected SECONDS.MICROSECONDS of at most %d digits, got '%s'",
			    TS_DIGITS, quote(q, ts, colon - ts));
	h->event = colon + 2;
	h->payload = strstr(h->event, ": ");
	h->event_len = h->payload ? (size_t)(h->payload - h->event) : strlen(h->event);
	if (h->payload)
		h->payload += 2;
	return 0;
}

static int event_is(const struct line_hdr *h, const char *name)
{
	return h->event_len == strlen(name) && !memcmp(h->event, name, h->event_len);
}

/* --- phases --- */

struct phase_ev {		/* a suspend_resume payload */
	const char *action;	/* action_len bytes */
	size_t action_len;
	unsigned long val;
	int begin;
};

/* "ACTION[VAL] begin|end" into @e: NULL, or what is wrong with it. */
static const char *phase_event(const char *pl, struct phase_ev *e)
{
	const char *sp = strrchr(pl, ' '), *d;

	if (!sp)
		return "expected 'ACTION[N] begin' or 'ACTION[N] end'";
	if (!strcmp(sp + 1, "begin"))
		e->begin = 1;
	else if (!strcmp(sp + 1, "end"))
		e->begin = 0;
	else
		return "expected 'begin' or 'end' after ACTION[N]";
	if (sp == pl || sp[-1] != ']')
		return "expected ACTION[N] before begin or end";
	for (d = sp - 1; d > pl && isdigit((unsigned char)d[-1]); d--)
		;
	if (d == sp - 1 || d - 1 <= pl || d[-1] != '[')
		return "expected ACTION[N] before begin or end";
	if (sp - 1 - d > 10 || strtoul(d, NULL, 10) > UINT_MAX)
		return "N of ACTION[N] beyond 32 bits";
	e->val = strtoul(d, NULL, 10);
	e->action = pl;
	e->action_len = d - 1 - pl;
	return NULL;
}

static int phase_begin(struct pp_reader *r, const char *name, double ts, struct pp_err *err)
{
	struct pp_set *s = r->set;
	int ph = pp_find_phase(s, name);
	struct pp_phase *p;

	if (ph < 0) {
		if (s->nphases == PP_MAX_PHASES)
			return fail(r, err, "%s: more than %d distinct phases (PP_MAX_PHASES)",
				    name, PP_MAX_PHASES);
		ph = s->nphases++;
		p = &s->phases[ph];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", name);
	}
	p = &s->phases[ph];
	if (p->open)
		return fail(r, err, "%s begins again at %.6f while open since %.6f (line %ld)",
			    name, ts, p->begin, p->begin_line);
	p->open = 1;
	p->begin = ts;
	p->begin_line = r->lineno;
	return 0;
}

static int phase_end(struct pp_reader *r, const char *name, double ts, struct pp_err *err)
{
	int ph = pp_find_phase(r->set, name);
	struct pp_phase *p = ph < 0 ? NULL : &r->set->phases[ph];

	if (!p || !p->open)
		return fail(r, err, "%s ends without a begin (at %.6f)", name, ts);
	if (ts < p->begin)
		return fail(r, err, "%s ends at %.6f before it begins at %.6f (line %ld)",
			    name, ts, p->begin, p->begin_line);
	p->total += ts - p->begin;
	p->count++;
	p->open = 0;
	return 0;
}

static int on_suspend_resume(struct pp_reader *r, const struct line_hdr *h, struct pp_err *err)
{
	char name[PP_NAME_LEN], q[QUOTE_BUF];
	struct phase_ev e;
	const char *why;
	int n;

	why = h->payload ? phase_event(h->payload, &e) : "no payload";
	if (why)
		return fail(r, err, "suspend_resume: %s, got '%s'", why,
			    h->payload ? quote(q, h->payload, strlen(h->payload)) : "");
	n = PP_NAME_LEN;
	if (e.action_len < PP_NAME_LEN && !strncmp(e.action, "CPU_", 4))
		n = snprintf(name, sizeof(name), "%.*s", (int)e.action_len, e.action);
	else if (e.action_len < PP_NAME_LEN)
		n = snprintf(name, sizeof(name), "%.*s[%lu]", (int)e.action_len, e.action, e.val);
	if (n >= PP_NAME_LEN)
		return fail(r, err, "suspend_resume: phase name '%s' longer than the limit of %d "
			    "characters (PP_NAME_LEN)", quote(q, e.action, e.action_len),
			    PP_NAME_LEN - 1);
	return e.begin ? phase_begin(r, name, h->ts, err) : phase_end(r, name, h->ts, err);
}

/* --- device callbacks --- */

static const char *last_strstr(const char *s, const char *needle)
{
	const char *p, *last = NULL;

	for (p = strstr(s, needle); p; p = strstr(p + 1, needle))
		last = p;
	return last;
}

/*
 * The device of a callback payload (@start: device_pm_callback_start's,
 * else _end's) into @dev: the last word before ", parent: " or ", err="
 * (DRIVER may be empty, and a device name may hold commas).
 */
static int callback_device(struct pp_reader *r, const struct line_hdr *h, int start,
			   char dev[PP_NAME_LEN], struct pp_err *err)
{
	const char *ev = start ? "device_pm_callback_start" : "device_pm_callback_end";
	const char *delim = start ? ", parent: " : ", err=";
	const char *pl = h->payload ? h->payload : "", *end, *p;
	char q[QUOTE_BUF];

	end = start ? strstr(pl, delim) : last_strstr(pl, delim);
	if (!end)
		return fail(r, err, "%s: expected 'DRIVER DEVICE%s...', got '%s'", ev, delim,
			    quote(q, pl, strlen(pl)));
	for (p = end; p > pl && p[-1] != ' '; p--)
		;
	if (p == end)
		return fail(r, err, "%s: no device name before '%s'", ev, delim);
	if (end - p >= PP_NAME_LEN)
		return fail(r, err, "%s: device name of %td characters ('%s'): longer than the "
			    "limit of %d (PP_NAME_LEN)", ev, end - p, quote(q, p, end - p),
			    PP_NAME_LEN - 1);
	memcpy(dev, p, end - p);
	dev[end - p] = '\0';
	return 0;
}

/* The link to the open callback of @pid and @dev (-1 at the link if none). */
static int *cb_link(struct pp_reader *r, int pid, const char *dev)
{
	int *link = &r->cb_hash[name_hash(dev, pid) % CB_HASH];

	while (*link >= 0 && (r->cbs[*link].pid != pid || strcmp(r->cbs[*link].dev, dev)))
		link = &r->cbs[*link].next;
	return link;
}

/* A free slot of r->cbs, or -1 when out of memory. */
static int cb_alloc(struct pp_reader *r)
{
	struct pp_cb *cbs;
	int i = r->cb_free;

	if (i >= 0) {
		r->cb_free = r->cbs[i].next;
		return i;
	}
	cbs = grow(r->cbs, &r->cbs_cap, r->cbs_used + 1, PP_MAX_OPEN, sizeof(*cbs));
	if (!cbs)
		return -1;
	r->cbs = cbs;
	return r->cbs_used++;
}

static int on_callback_start(struct pp_reader *r, const struct line_hdr *h, struct pp_err *err)
{
	char dev[PP_NAME_LEN];
	struct pp_cb *c;
	int i, *head;

	if (callback_device(r, h, 1, dev, err))
		return -1;
	if (!r->cb_hash) {
		r->cb_hash = new_heads(CB_HASH);
		if (!r->cb_hash)
			return fail(r, err, "out of memory");
	}
	i = *cb_link(r, h->pid, dev);
	if (i >= 0)
		return fail(r, err, "%s: callback starts again at %.6f in pid %d while open "
			    "since %.6f", dev, h->ts, h->pid, r->cbs[i].start);
	if (r->ncbs == PP_MAX_OPEN)
		return fail(r, err, "more than %d device callbacks open at once (PP_MAX_OPEN)",
			    PP_MAX_OPEN);
	i = cb_alloc(r);
	if (i < 0)
		return fail(r, err, "out of memory");
	c = &r->cbs[i];
	memcpy(c->dev, dev, sizeof(dev));
	c->pid = h->pid;
	c->start = h->ts;
	head = &r->cb_hash[name_hash(dev, h->pid) % CB_HASH];
	c->next = *head;
	*head = i;
	r->ncbs++;
	return 0;
}

/* The dpm_* phase open at this moment, or -1. */
static int open_dpm_phase(const struct pp_set *s)
{
	int i;

	for (i = 0; i < s->nphases; i++)
		if (s->phases[i].open && !strncmp(s->phases[i].name, "dpm_", 4))
			return i;
	return -1;
}

/* Add @t seconds to @dev's callback time in phase @ph. */
static int add_dev_time(struct pp_reader *r, const char *dev, int ph, double t,
			struct pp_err *err)
{
	struct pp_set *s = r->set;
	struct pp_dev *devs;
	int *head, i;

	if (!s->dev_hash) {
		s->dev_hash = new_heads(DEV_HASH);
		if (!s->dev_hash)
			return fail(r, err, "out of memory");
	}
	head = &s->dev_hash[name_hash(dev, ph) % DEV_HASH];
	for (i = *head; i >= 0; i = s->devs[i].next)
		if (s->devs[i].phase == ph && !strcmp(s->devs[i].name, dev))
			break;
	if (i < 0) {
		if (s->ndevs == PP_MAX_DEVS)
			return fail(r, err, "%s: more than %d (device, phase) pairs (PP_MAX_DEVS)",
				    dev, PP_MAX_DEVS);
		devs = grow(s->devs, &s->devs_cap, s->ndevs + 1, PP_MAX_DEVS, sizeof(*devs));
		if (!devs)
			return fail(r, err, "out of memory");
		s->devs = devs;
		i = s->ndevs++;
		snprintf(s->devs[i].name, sizeof(s->devs[i].name), "%s", dev);
		s->devs[i].phase = ph;
		s->devs[i].total = 0;
		s->devs[i].next = *head;
		*head = i;
	}
	s->devs[i].total += t;
	return 0;
}

static int on_callback_end(struct pp_reader *r, const struct line_hdr *h, struct pp_err *err)
{
	char dev[PP_NAME_LEN];
	struct pp_cb *c;
	int i, ph, *link;

	if (callback_device(r, h, 0, dev, err))
		return -1;
	if (!r->cb_hash)
		return 0;
	link = cb_link(r, h->pid, dev);
	i = *link;
	if (i < 0)
		return 0;	/* started before tracing was on */
	c = &r->cbs[i];
	if (h->ts < c->start)
		return fail(r, err, "%s: callback ends at %.6f before it starts at %.6f "
			    "(a trace clock not comparable across CPUs?)", dev, h->ts, c->start);
	ph = open_dpm_phase(r->set);
	if (ph >= 0 && add_dev_time(r, dev, ph, h->ts - c->start, err))
		return -1;
	*link = c->next;
	c->next = r->cb_free;
	r->cb_free = i;
	r->ncbs--;
	return 0;
}

/* --- lines and files --- */

static int parse_line(struct pp_reader *r, const char *line, struct pp_err *err)
{
	const char *p = line + strspn(line, " \t");
	struct line_hdr h = { 0 };

	if (!*p || *p == '#')
		return 0;
	if (!strncmp(p, "CPU:", 4) && strstr(p, "[LOST "))
		return fail(r, err, "the trace lost events (ring buffer overrun): "
			    "its times would be wrong");
	if (parse_header(r, line, &h, err))
		return -1;
	if (event_is(&h, "suspend_resume"))
		return on_suspend_resume(r, &h, err);
	if (event_is(&h, "device_pm_callback_start"))
		return on_callback_start(r, &h, err);
	if (event_is(&h, "device_pm_callback_end"))
		return on_callback_end(r, &h, err);
	return 0;
}

void pp_reader_init(struct pp_reader *r, struct pp_set *s, const char *file)
{
	memset(r, 0, sizeof(*r));
	r->set = s;
	r->file = file;
	r->cb_free = -1;
}

void pp_reader_free(struct pp_reader *r)
{
	free(r->line);
	free(r->cbs);
	free(r->cb_hash);
	memset(r, 0, sizeof(*r));
}

int pp_reader_line(struct pp_reader *r, const char *line, size_t len, struct pp_err *err)
{
	const char *nul = memchr(line, '\0', len);
	char *p;

	r->lineno++;
	if (nul)
		return fail(r, err, "NUL byte at column %td: not a text trace", nul - line + 1);
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (len + 1 > r->line_cap) {
		p = realloc(r->line, len + 1);
		if (!p)
			return fail(r, err, "out of memory");
		r->line = p;
		r->line_cap = len + 1;
	}
	memcpy(r->line, line, len);
	r->line[len] = '\0';
	return parse_line(r, r->line, err);
}

int pp_reader_finish(struct pp_reader *r, struct pp_err *err)
{
	struct pp_set *s = r->set;
	struct pp_phase *p;
	long pairs = 0;
	int i;

	for (i = 0; i < s->nphases; i++) {
		p = &s->phases[i];
		if (p->open)
			return fail_file(r, err, "%s begins and never ends (begin at line %ld, "
					 "%.6f; truncated trace?)", p->name, p->begin_line,
					 p->begin);
		pairs += p->count;
	}
	if (!pairs)
		return fail_file(r, err, "no phase found (no power:suspend_resume begin/end pair)");
	for (i = 0; i < s->nphases; i++) {
		p = &s->phases[i];
		if (!s->nfiles)
			p->first_count = p->count;
		else if (p->count != p->first_count)
			return fail_file(r, err, "%s ends %ld times here but %ld times in the "
					 "first file of its set: the files are not repetitions "
					 "of one transition", p->name, p->count, p->first_count);
		p->count = 0;
	}
	s->nfiles++;
	return 0;
}

int pp_read_buffer(struct pp_set *s, const char *file, const char *buf, size_t len,
		   struct pp_err *err)
{
	struct pp_reader r;
	const char *nl;
	size_t n;
	int ret = 0;

	pp_reader_init(&r, s, file);
	while (len && !ret) {
		nl = memchr(buf, '\n', len);
		n = nl ? (size_t)(nl - buf) + 1 : len;
		ret = pp_reader_line(&r, buf, n, err);
		buf += n;
		len -= n;
	}
	if (!ret)
		ret = pp_reader_finish(&r, err);
	pp_reader_free(&r);
	return ret;
}
