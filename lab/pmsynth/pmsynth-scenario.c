// SPDX-License-Identifier: GPL-2.0
/*
 * pmsynth-scenario.c - parse and validate a scenario text.
 *
 * The whole text is checked before anything is created: a scenario is
 * either valid as a whole or refused with one message naming the line and
 * the cause.  Grammar (README.md has the full reference):
 *
 *   # comment
 *   @defaults [lat=PH:US,..] [mode=PH:sleep|spin,..] [async=0|1]
 *             [direct_complete=0|1] [flags=FLAG,..|none] [driver=0|1]
 *             [autosuspend=MS|off] [deps=known|unknown] [jitter=PCT] [seed=N]
 *   NAME [parent=NAME] [masters=NAME,..] [oracle_masters=NAME,..]
 *        [async=0|1] [deps=known|unknown] [lat=PH:US,..] [mode=PH:MODE,..]
 *        [autosuspend=MS|off]
 *        [direct_complete=0|1] [flags=FLAG,..|none] [driver=0|1]
 *        [fault=PH:ERRNO[:once|always],..]
 *
 * PH is a callback name, or "all", "system" (the eight system-sleep ones)
 * or "runtime" (the three runtime ones).  A parent must be defined on an
 * earlier line; masters may be defined anywhere.
 *
 * Locking: none; the caller owns @text and @sc.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/pm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/vmalloc.h>
#else
#include "../../bench/kcompat.h"	/* the host build: bench/scenario-read.c */
#endif
#include "pmsynth-spec.h"

const char * const pmsynth_phase_names[PS_NR_PHASES] = {
	[PS_PREPARE]		= "prepare",
	[PS_SUSPEND]		= "suspend",
	[PS_SUSPEND_LATE]	= "suspend_late",
	[PS_SUSPEND_NOIRQ]	= "suspend_noirq",
	[PS_RESUME_NOIRQ]	= "resume_noirq",
	[PS_RESUME_EARLY]	= "resume_early",
	[PS_RESUME]		= "resume",
	[PS_COMPLETE]		= "complete",
	[PS_RUNTIME_SUSPEND]	= "runtime_suspend",
	[PS_RUNTIME_RESUME]	= "runtime_resume",
	[PS_RUNTIME_IDLE]	= "runtime_idle",
};

#define HASH_BITS_NAMES	13

struct parse_ctx {
	struct pmsynth_scenario *sc;
	struct pmsynth_spec defaults;
	int *hash;			/* name hash -> index + 1, open addressing */
	char **master_text;		/* per spec: unresolved masters list */
	char **oracle_text;
	char *err;
	size_t errlen;
	int line;
};

static int fail(struct parse_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = scnprintf(c->err, c->errlen, "line %d: ", c->line);
	va_start(ap, fmt);
	vscnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/**
 * pmsynth_phase_lookup - callback index for a name
 * @name: a name from pmsynth_phase_names
 *
 * Return: the phase, or -1 when @name is not a callback name.
 */
int pmsynth_phase_lookup(const char *name)
{
	int i;

	for (i = 0; i < PS_NR_PHASES; i++)
		if (!strcmp(name, pmsynth_phase_names[i]))
			return i;
	return -1;
}

/* Phase set for PH: a bit mask of phases, 0 when unknown. */
static u32 phase_set(const char *name)
{
	int ph;

	if (!strcmp(name, "all"))
		return BIT(PS_NR_PHASES) - 1;
	if (!strcmp(name, "system"))
		return BIT(PS_NR_SYSTEM) - 1;
	if (!strcmp(name, "runtime"))
		return (BIT(PS_NR_PHASES) - 1) & ~(BIT(PS_NR_SYSTEM) - 1);
	ph = pmsynth_phase_lookup(name);
	return ph < 0 ? 0 : BIT(ph);
}

static unsigned int slot(const char *name)
{
	return full_name_hash(NULL, name, strlen(name)) & (BIT(HASH_BITS_NAMES) - 1);
}

static int lookup(struct parse_ctx *c, const char *name)
{
	unsigned int i = slot(name);

	while (c->hash[i]) {
		if (!strcmp(c->sc->specs[c->hash[i] - 1].name, name))
			return c->hash[i] - 1;
		i = (i + 1) & (BIT(HASH_BITS_NAMES) - 1);
	}
	return -1;
}

static void insert(struct parse_ctx *c, const char *name, int index)
{
	unsigned int i = slot(name);

	while (c->hash[i])
		i = (i + 1) & (BIT(HASH_BITS_NAMES) - 1);
	c->hash[i] = index + 1;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= PMSYNTH_NAME_LEN || s[0] == '@' || s[0] == '.')
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || strchr("/,=", *s))
			return false;
	return true;
}

/* PH:VALUE,PH:VALUE...; calls @set for each phase of each item. */
static int per_phase(struct parse_ctx *c, const char *key, char *list,
		     int (*set)(struct parse_ctx *c, struct pmsynth_spec *s,
				int ph, char *val),
		     struct pmsynth_spec *s)
{
	char *item, *val;
	u32 phases;
	int ph, ret;

	while ((item = strsep(&list, ","))) {
		val = strchr(item, ':');
		if (!val)
			return fail(c, "%s: '%s' is not PHASE:VALUE", key, item);
		*val++ = '\0';
		phases = phase_set(item);
		if (!phases)
			return fail(c, "%s: unknown phase '%s'", key, item);
		for (ph = 0; ph < PS_NR_PHASES; ph++) {
			if (!(phases & BIT(ph)))
				continue;
			ret = set(c, s, ph, val);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int set_lat(struct parse_ctx *c, struct pmsynth_spec *s, int ph, char *v)
{
	u32 us;

	if (kstrtou32(v, 10, &us) || us > PMSYNTH_MAX_LAT_US)
		return fail(c, "latency '%s' out of range (0..%u us)", v,
			    PMSYNTH_MAX_LAT_US);
	s->lat_us[ph] = us;
	return 0;
}

static int set_mode(struct parse_ctx *c, struct pmsynth_spec *s, int ph, char *v)
{
	if (!strcmp(v, "sleep"))
		s->mode[ph] = PM_MODE_SLEEP;
	else if (!strcmp(v, "spin"))
		s->mode[ph] = PM_MODE_SPIN;
	else
		return fail(c, "mode '%s' is not sleep or spin", v);
	return 0;
}

static int set_fault(struct parse_ctx *c, struct pmsynth_spec *s, int ph, char *v)
{
	char *how = strchr(v, ':');
	int err;

	if (how)
		*how++ = '\0';
	if (kstrtoint(v, 10, &err) || !err || abs(err) >= MAX_ERRNO)
		return fail(c, "fault errno '%s' out of range (1..%d)", v,
			    MAX_ERRNO - 1);
	s->fault_err[ph] = -abs(err);
	if (!how || !strcmp(how, "always"))
		s->fault_mode[ph] = PM_FAULT_ALWAYS;
	else if (!strcmp(how, "once"))
		s->fault_mode[ph] = PM_FAULT_ONCE;
	else
		return fail(c, "fault mode '%s' is not once or always", how);
	if (how)
		how[-1] = ':';	/* keep the text intact for repeated phases */
	if (pmsynth_fault_loops(ph, s->fault_err[ph], s->fault_mode[ph]))
		return fail(c, "fault %s:%d always: the PM core retries -EAGAIN in prepare forever (use once)",
			    pmsynth_phase_names[ph], abs(err));
	return 0;
}

static int parse_bool(struct parse_ctx *c, const char *key, const char *v, bool *out)
{
	if (kstrtobool(v, out))
		return fail(c, "%s: '%s' is not 0 or 1", key, v);
	return 0;
}

static int parse_autosuspend(struct parse_ctx *c, const char *v, int *out)
{
	int ms;

	if (!strcmp(v, "off")) {
		*out = -1;
		return 0;
	}
	if (kstrtoint(v, 10, &ms) || ms < 0 || ms > PMSYNTH_MAX_AUTOSUSPEND_MS)
		return fail(c, "autosuspend '%s' out of range (0..%d ms, or off)",
			    v, PMSYNTH_MAX_AUTOSUSPEND_MS);
	*out = ms;
	return 0;
}

/* flags=NAME,...: driver flags (the DPM_FLAG_* the PM core acts on) */
static int parse_flags(struct parse_ctx *c, char *v, u32 *out)
{
	static const struct { const char *name; u32 flag; } names[] = {
		{ "no_direct_complete", DPM_FLAG_NO_DIRECT_COMPLETE },
		{ "smart_suspend", DPM_FLAG_SMART_SUSPEND },
		{ "may_skip_resume", DPM_FLAG_MAY_SKIP_RESUME },
	};
	char *item;
	size_t i;

	*out = 0;
	if (!strcmp(v, "none"))
		return 0;
	while ((item = strsep(&v, ","))) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(item, names[i].name))
				break;
		if (i == ARRAY_SIZE(names))
			return fail(c, "flags: unknown flag '%s' (no_direct_complete, smart_suspend, may_skip_resume, none)",
				    item);
		*out |= names[i].flag;
		if (v)
			v[-1] = ',';	/* keep the text intact */
	}
	return 0;
}

/*
 * deps=known|unknown: whether the importer knows all of the device's
 * dependencies (parent and pm_links).  Only the analysis reads it (the
 * async tuner never flips such a device to async); pmsynth keeps it.
 */
static int parse_deps(struct parse_ctx *c, const char *val, bool *unknown)
{
	if (!strcmp(val, "known"))
		*unknown = false;
	else if (!strcmp(val, "unknown"))
		*unknown = true;
	else
		return fail(c, "deps: want known or unknown, got '%s'", val);
	return 0;
}

/* key=value fields common to @defaults and device lines. */
static int common_field(struct parse_ctx *c, struct pmsynth_spec *s,
			char *key, char *val, bool *used)
{
	*used = true;
	if (!strcmp(key, "lat"))
		return per_phase(c, key, val, set_lat, s);
	if (!strcmp(key, "mode"))
		return per_phase(c, key, val, set_mode, s);
	if (!strcmp(key, "async"))
		return parse_bool(c, key, val, &s->async);
	if (!strcmp(key, "deps"))
		return parse_deps(c, val, &s->deps_unknown);
	if (!strcmp(key, "autosuspend"))
		return parse_autosuspend(c, val, &s->autosuspend_ms);
	if (!strcmp(key, "direct_complete"))
		return parse_bool(c, key, val, &s->direct_complete);
	if (!strcmp(key, "driver"))
		return parse_bool(c, key, val, &s->driver);
	if (!strcmp(key, "flags"))
		return parse_flags(c, val, &s->driver_flags);
	*used = false;
	return 0;
}

static int parse_defaults(struct parse_ctx *c, char *rest)
{
	struct pmsynth_scenario *sc = c->sc;
	char *tok, *val;
	bool used;
	int ret;

	while ((tok = strsep(&rest, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return fail(c, "@defaults: '%s' is not key=value", tok);
		*val++ = '\0';
		ret = common_field(c, &c->defaults, tok, val, &used);
		if (ret)
			return ret;
		if (used)
			continue;
		if (!strcmp(tok, "jitter")) {
			if (kstrtou32(val, 10, &sc->jitter_pct) || sc->jitter_pct > 100)
				return fail(c, "jitter '%s' out of range (0..100 %%)", val);
		} else if (!strcmp(tok, "seed")) {
			if (kstrtou64(val, 0, &sc->seed))
				return fail(c, "seed '%s' is not a number", val);
		} else {
			return fail(c, "@defaults: unknown key '%s'", tok);
		}
	}
	return 0;
}

static int parse_device(struct parse_ctx *c, char *name, char *rest)
{
	struct pmsynth_scenario *sc = c->sc;
	struct pmsynth_spec *s;
	char *tok, *val;
	bool used;
	int ret, i;

	if (!valid_name(name))
		return fail(c,
			    "invalid device name '%s' (1..%d printable characters, none of / , =)",
			    name, PMSYNTH_NAME_LEN - 1);
	if (sc->nr == PMSYNTH_MAX_DEVICES)
		return fail(c, "too many devices (at most %d)", PMSYNTH_MAX_DEVICES);
	i = lookup(c, name);
	if (i >= 0)
		return fail(c, "duplicate device name '%s' (first on line %d)",
			    name, sc->specs[i].line);

	s = &sc->specs[sc->nr];
	*s = c->defaults;
	strscpy(s->name, name, sizeof(s->name));
	s->line = c->line;
	s->parent = -1;

	while ((tok = strsep(&rest, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return fail(c, "'%s' is not key=value", tok);
		*val++ = '\0';
		ret = common_field(c, s, tok, val, &used);
		if (ret)
			return ret;
		if (used)
			continue;
		if (!strcmp(tok, "parent")) {
			s->parent = lookup(c, val);
			if (s->parent < 0)
				return fail(c,
					    "unknown parent '%s' (a parent must be defined on an earlier line)",
					    val);
		} else if (!strcmp(tok, "masters")) {
			c->master_text[sc->nr] = val;
		} else if (!strcmp(tok, "oracle_masters")) {
			c->oracle_text[sc->nr] = val;
		} else if (!strcmp(tok, "fault")) {
			ret = per_phase(c, tok, val, set_fault, s);
			if (ret)
				return ret;
		} else {
			return fail(c, "unknown key '%s'", tok);
		}
	}
	/* the PM core skips only driver callbacks for these two */
	if ((s->driver_flags & (DPM_FLAG_SMART_SUSPEND | DPM_FLAG_MAY_SKIP_RESUME)) &&
	    !s->driver)
		return fail(c, "flags smart_suspend and may_skip_resume need driver=1 (the PM core skips driver callbacks only)");
	insert(c, name, sc->nr);
	sc->nr++;
	return 0;
}

/* Resolve a comma list of names into an index array. */
static int resolve(struct parse_ctx *c, int self, char *list, int **out, int *nr)
{
	int n = 1, i, j, idx;
	char *p, *name;

	if (!list)
		return 0;
	for (p = list; *p; p++)
		n += *p == ',';
	*out = kcalloc(n, sizeof(int), GFP_KERNEL);
	if (!*out)
		return -ENOMEM;
	while ((name = strsep(&list, ","))) {
		idx = lookup(c, name);
		if (idx < 0)
			return fail(c, "unknown master '%s'", name);
		if (idx == self)
			return fail(c, "device '%s' is its own master", name);
		for (j = 0; j < *nr; j++)
			if ((*out)[j] == idx)
				return fail(c, "master '%s' listed twice", name);
		i = (*nr)++;
		(*out)[i] = idx;
	}
	return 0;
}

/*
 * Depth-first search for a cycle over "depends on" edges (masters, real
 * or oracle-only, and the parent: a device whose child is also its master
 * closes a cycle too).  Iterative: a chain of 4096 devices must
 * not recurse 4096 deep on the kernel stack.
 */
static int find_cycle(struct parse_ctx *c)
{
	struct pmsynth_scenario *sc = c->sc;
	int *color, *stack, *edge, sp, v, w, nm, start, ret = 0;

	color = kvcalloc(sc->nr, sizeof(int), GFP_KERNEL);
	stack = kvcalloc(sc->nr, sizeof(int), GFP_KERNEL);
	edge = kvcalloc(sc->nr, sizeof(int), GFP_KERNEL);
	if (!color || !stack || !edge) {
		ret = -ENOMEM;
		goto out;
	}
	for (start = 0; start < sc->nr && !ret; start++) {
		if (color[start])
			continue;
		sp = 0;
		stack[sp++] = start;
		color[start] = 1;
		edge[start] = 0;
		while (sp && !ret) {
			struct pmsynth_spec *s;

			v = stack[sp - 1];
			s = &sc->specs[v];
			nm = s->nr_masters + s->nr_oracle_masters;
			if (edge[v] < nm + !!(s->parent >= 0)) {
				if (edge[v] == nm)
					w = s->parent;
				else if (edge[v] < s->nr_masters)
					w = s->masters[edge[v]];
				else
					w = s->oracle_masters[edge[v] - s->nr_masters];
				edge[v]++;
				if (color[w] == 1) {
					c->line = s->line;
					ret = fail(c,
						   "pm_link cycle: '%s' depends on '%s', which depends, directly or not, on '%s'",
						   s->name, sc->specs[w].name, s->name);
				} else if (!color[w]) {
					color[w] = 1;
					edge[w] = 0;
					stack[sp++] = w;
				}
				continue;
			}
			color[v] = 2;
			sp--;
		}
	}
out:
	kvfree(color);
	kvfree(stack);
	kvfree(edge);
	return ret;
}

/**
 * pmsynth_parse - parse and validate a scenario
 * @text: the scenario text (modified in place), NUL-terminated
 * @len: its length
 * @sc: filled on success; freed with pmsynth_scenario_free()
 * @err: receives "line N: cause" on failure
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL for a bad scenario (message in @err) or -ENOMEM.
 * On failure @sc holds nothing.
 */
int pmsynth_parse(char *text, size_t len, struct pmsynth_scenario *sc,
		  char *err, size_t errlen)
{
	struct parse_ctx c = { .sc = sc, .err = err, .errlen = errlen };
	char *line, *name, *rest;
	int ret = -ENOMEM, i;

	memset(sc, 0, sizeof(*sc));
	sc->specs = kvcalloc(PMSYNTH_MAX_DEVICES, sizeof(*sc->specs), GFP_KERNEL);
	c.hash = kvcalloc(BIT(HASH_BITS_NAMES), sizeof(int), GFP_KERNEL);
	c.master_text = kvcalloc(PMSYNTH_MAX_DEVICES, sizeof(char *), GFP_KERNEL);
	c.oracle_text = kvcalloc(PMSYNTH_MAX_DEVICES, sizeof(char *), GFP_KERNEL);
	if (!sc->specs || !c.hash || !c.master_text || !c.oracle_text)
		goto out;
	c.defaults.autosuspend_ms = -1;
	if (strlen(text) != len) {
		scnprintf(err, errlen, "scenario contains a NUL byte (offset %zu)", strlen(text));
		ret = -EINVAL;
		goto out;
	}

	while ((line = strsep(&text, "\n"))) {
		c.line++;
		rest = strchr(line, '#');
		if (rest)
			*rest = '\0';
		line = strim(line);
		if (!*line)
			continue;
		name = strsep(&line, " \t");
		if (!strcmp(name, "@defaults")) {
			if (sc->nr) {
				ret = fail(&c, "@defaults after the first device");
				goto out;
			}
			ret = parse_defaults(&c, line);
		} else {
			ret = parse_device(&c, name, line);
		}
		if (ret)
			goto out;
	}
	if (!sc->nr) {
		strscpy(err, "no devices in the scenario", errlen);
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < sc->nr; i++) {
		struct pmsynth_spec *s = &sc->specs[i];

		c.line = s->line;
		ret = resolve(&c, i, c.master_text[i], &s->masters, &s->nr_masters);
		if (!ret)
			ret = resolve(&c, i, c.oracle_text[i], &s->oracle_masters,
				      &s->nr_oracle_masters);
		if (ret)
			goto out;
		sc->nr_links += s->nr_masters;
	}
	ret = find_cycle(&c);
out:
	kvfree(c.hash);
	kvfree(c.master_text);
	kvfree(c.oracle_text);
	if (ret)
		pmsynth_scenario_free(sc);
	return ret;
}

/**
 * pmsynth_scenario_free - free what pmsynth_parse() allocated
 * @sc: the scenario; its masters arrays not handed over to devices
 */
void pmsynth_scenario_free(struct pmsynth_scenario *sc)
{
	int i;

	if (sc->specs) {
		for (i = 0; i < sc->nr; i++) {
			kfree(sc->specs[i].masters);
			kfree(sc->specs[i].oracle_masters);
		}
	}
	kvfree(sc->specs);
	memset(sc, 0, sizeof(*sc));
}
