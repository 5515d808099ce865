// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-graph.c - the device graph shared by scengen, dt2scen and
 * sysfs2scen; see scenario-graph.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "scenario-graph.h"

/* Twice the largest number of names, a power of two: probes stay short. */
#define NAME_SLOTS (2 * SCEN_MAX_DEVS)

int scenario_init(struct scen_graph *g)
{
	int i;

	memset(g, 0, sizeof(*g));
	g->names = malloc(NAME_SLOTS * sizeof(*g->names));
	if (!g->names) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < NAME_SLOTS; i++)
		g->names[i] = -1;
	return 0;
}

void scenario_free(struct scen_graph *g)
{
	int i;

	for (i = 0; i < g->ndevs; i++) {
		free(g->devs[i].masters);
		free(g->devs[i].deps);
	}
	free(g->devs);
	free(g->names);
	free(g->next_suffix);
	free(g->stack);
	free(g->seen);
	free(g->fwd);
	free(g->back);
	memset(g, 0, sizeof(*g));
}

/* *@p (an array) resized to @n elements of @size; 0 or -1. */
static int resize(void *p, int n, size_t size)
{
	void *q = realloc(*(void **)p, n * size);

	if (!q)
		return -1;
	*(void **)p = q;
	return 0;
}

/* Room for SCEN_MAX_DEVS devices at most, doubled as needed. */
static int grow(struct scen_graph *g)
{
	int cap = g->cap ? 2 * g->cap : 64;

	if (cap > SCEN_MAX_DEVS)
		cap = SCEN_MAX_DEVS;
	if (resize(&g->devs, cap, sizeof(*g->devs)) ||
	    resize(&g->next_suffix, cap, sizeof(*g->next_suffix)) ||
	    resize(&g->stack, cap, sizeof(*g->stack)) ||
	    resize(&g->seen, cap, sizeof(*g->seen)) ||
	    resize(&g->fwd, cap, sizeof(*g->fwd)) ||
	    resize(&g->back, cap, sizeof(*g->back))) {
		errno = ENOMEM;
		return -1;
	}
	memset(g->seen + g->cap, 0, (cap - g->cap) * sizeof(*g->seen));
	g->cap = cap;
	return 0;
}

/* Room for one more in an array of *@n ints with capacity *@cap. */
static int reserve(int **v, int n, int *cap)
{
	int c = *cap ? 2 * *cap : 4;

	if (n < *cap)
		return 0;
	if (resize(v, c, sizeof(**v)))
		return -1;
	*cap = c;
	return 0;
}

/* The slot of @name in the name table: its device, or a free one (-1). */
static int *name_slot(struct scen_graph *g, const char *name)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	const char *p;
	int *slot;

	for (p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (;; h++) {
		slot = &g->names[h & (NAME_SLOTS - 1)];
		if (*slot < 0 || !strcmp(g->devs[*slot].name, name))
			return slot;
	}
}

int scenario_add(struct scen_graph *g, const char *base, int parent)
{
	char b[SCEN_NAME_LEN], name[SCEN_NAME_LEN];
	struct scen_dev *d;
	int *slot, owner, k;

	if (g->ndevs == SCEN_MAX_DEVS) {
		errno = ENOSPC;
		return -1;
	}
	if (g->ndevs == g->cap && grow(g))
		return -1;
	if (parent >= 0 && reserve(&g->devs[parent].deps, g->devs[parent].ndeps,
				   &g->devs[parent].deps_cap)) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(b, sizeof(b), "%s", base);
	scen_sanitize(b);
	snprintf(name, sizeof(name), "%s", b);
	slot = name_slot(g, name);
	if (*slot >= 0) {
		/*
		 * BASE is taken: every BASE.k below the owner's counter was
		 * taken when last tried, and names are never given back.
		 */
		owner = *slot;
		k = g->next_suffix[owner];
		do {
			snprintf(name, sizeof(name), "%s.%d", b, k++);
			slot = name_slot(g, name);
		} while (*slot >= 0);
		g->next_suffix[owner] = k;
	}
	d = &g->devs[g->ndevs];
	memcpy(d->name, name, sizeof(d->name));
	d->parent = parent;
	d->masters = NULL;
	d->nmasters = 0;
	d->cap = 0;
	d->async = 1;
	d->deps_unknown = 0;
	d->order = g->ndevs;	/* last in the order, after its parent */
	d->deps = NULL;
	d->ndeps = 0;
	d->deps_cap = 0;
	if (parent >= 0)
		g->devs[parent].deps[g->devs[parent].ndeps++] = g->ndevs;
	g->next_suffix[g->ndevs] = 2;
	*slot = g->ndevs;
	return g->ndevs++;
}

static bool is_ancestor(const struct scen_graph *g, int anc, int d)
{
	for (d = g->devs[d].parent; d >= 0; d = g->devs[d].parent)
		if (d == anc)
			return true;
	return false;
}

static void new_marks(struct scen_graph *g)
{
	if (!++g->gen) {	/* wrapped: forget every old mark */
		memset(g->seen, 0, g->cap * sizeof(*g->seen));
		g->gen = 1;
	}
}

/*
 * The devices depending on @from (itself included) placed before @limit,
 * into g->fwd; their number, or -1 when one of them is at @limit.
 */
static int search_dependents(struct scen_graph *g, int from, int limit)
{
	int sp = 0, n = 0, v, i, w;

	g->stack[sp++] = from;
	g->seen[from] = g->gen;
	while (sp) {
		v = g->stack[--sp];
		if (g->devs[v].order == limit)
			return -1;
		g->fwd[n].order = g->devs[v].order;
		g->fwd[n++].dev = v;
		for (i = 0; i < g->devs[v].ndeps; i++) {
			w = g->devs[v].deps[i];
			if (g->seen[w] != g->gen && g->devs[w].order <= limit) {
				g->seen[w] = g->gen;
				g->stack[sp++] = w;
			}
		}
	}
	return n;
}

/* The devices @from (itself included) depends on placed after @limit. */
static int search_suppliers(struct scen_graph *g, int from, int limit)
{
	int sp = 0, n = 0, v, i, w;

	g->stack[sp++] = from;
	g->seen[from] = g->gen;
	while (sp) {
		v = g->stack[--sp];
		g->back[n].order = g->devs[v].order;
		g->back[n++].dev = v;
		for (i = -1; i < g->devs[v].nmasters; i++) {
			w = i < 0 ? g->devs[v].parent : g->devs[v].masters[i];
			if (w >= 0 && g->seen[w] != g->gen && g->devs[w].order > limit) {
				g->seen[w] = g->gen;
				g->stack[sp++] = w;
			}
		}
	}
	return n;
}

static int cmp_order(const void *a, const void *b)
{
	return ((const struct scen_visit *)a)->order - ((const struct scen_visit *)b)->order;
}

/*
 * Would "@c depends on @s" close a cycle (does @s depend, through parents
 * and masters, on @c)?  If not, the order is repaired for the new link:
 * dynamic topological ordering (Pearce and Kelly, 2006), which searches
 * only the devices placed between the two, and nothing when @s is already
 * before @c (a link to an earlier device, the common case).
 */
static bool closes_cycle(struct scen_graph *g, int c, int s)
{
	int lo = g->devs[c].order, hi = g->devs[s].order, nf, nb, i, j, k;

	if (hi < lo)
		return false;
	new_marks(g);
	nf = search_dependents(g, c, hi);
	if (nf < 0)
		return true;
	nb = search_suppliers(g, s, lo);
	/*
	 * @s and what it needs first, then @c and what needs it, in the
	 * places they held between them
	 */
	qsort(g->fwd, nf, sizeof(*g->fwd), cmp_order);
	qsort(g->back, nb, sizeof(*g->back), cmp_order);
	for (i = 0, j = 0, k = 0; k < nb + nf; k++) {
		int place = j == nf || (i < nb && g->back[i].order < g->fwd[j].order) ?
			    g->back[i++].order : g->fwd[j++].order;

		if (k < nb)
			g->devs[g->back[k].dev].order = place;
		else
			g->devs[g->fwd[k - nb].dev].order = place;
	}
	return false;
}

enum scen_link_result scenario_link(struct scen_graph *g, int c, int s)
{
	struct scen_dev *d = &g->devs[c], *sd = &g->devs[s];
	int i;

	g->stats.refs++;
	if (s == c || is_ancestor(g, s, c)) {
		g->stats.ancestor++;
		return SCEN_ANCESTOR;
	}
	for (i = 0; i < d->nmasters; i++) {
		if (d->masters[i] == s) {
			g->stats.duplicate++;
			return SCEN_DUPLICATE;
		}
	}
	if (reserve(&d->masters, d->nmasters, &d->cap) ||
	    reserve(&sd->deps, sd->ndeps, &sd->deps_cap)) {
		g->stats.refs--;
		return SCEN_NOMEM;
	}
	if (closes_cycle(g, c, s)) {
		g->stats.cycle++;
		return SCEN_CYCLE;
	}
	d->masters[d->nmasters++] = s;
	sd->deps[sd->ndeps++] = c;
	g->stats.links++;
	return SCEN_LINKED;
}

void scenario_unavailable(struct scen_graph *g)
{
	g->stats.refs++;
	g->stats.unavailable++;
}

void scenario_summary(const struct scen_graph *g, FILE *f)
{
	const struct scen_stats *s = &g->stats;

	fprintf(f, "%d devices, %d pm_links; %d references: %d unavailable, "
		"%d to self or ancestor, %d duplicate, %d dropped to break cycles",
		g->ndevs, s->links, s->refs, s->unavailable, s->ancestor, s->duplicate,
		s->cycle);
	if (s->lists_cut)
		fprintf(f, "; %d phandle lists cut short (unknown phandle, "
			"#...-cells over 16 or arguments past the end)", s->lists_cut);
}

int scenario_print(const struct scen_graph *g, FILE *f, const char *header,
		   const char *note, const char *defaults)
{
	const struct scen_dev *d;
	int i, j;

	fprintf(f, "# %s\n# ", header);
	scenario_summary(g, f);
	if (note)
		fprintf(f, "\n# %s", note);
	fprintf(f, "\n@defaults %s\n", defaults);
	for (i = 0; i < g->ndevs; i++) {
		d = &g->devs[i];
		fputs(d->name, f);
		if (d->parent >= 0)
			fprintf(f, " parent=%s", g->devs[d->parent].name);
		for (j = 0; j < d->nmasters; j++)
			fprintf(f, "%s%s", j ? "," : " masters=", g->devs[d->masters[j]].name);
		if (!d->async)
			fputs(" async=0", f);
		if (d->deps_unknown)
			fputs(" deps=unknown", f);
		fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}

static const struct argp_option import_options[] = {
	{ "seed", 's', "N", 0, "Jitter seed written into the scenario (default 1)", 0 },
	{ "source", 'S', "NAME", 0, "Source name recorded in the header", 0 },
	{ "all-async", 'A', NULL, 0,
	  "Every device async=1 (default: the machine's own opt-ins, or 6.12's by "
	  "bus and class; bench/scenarios/README.md)", 0 },
	{ 0 },
};

static error_t import_parse(int key, char *arg, struct argp_state *state)
{
	struct scen_import_opts *o = state->input;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		o->seed = 1;
		o->source = NULL;
		o->all_async = 0;
		return 0;
	case 'A':
		o->all_async = 1;
		return 0;
	case 's':
		errno = 0;
		o->seed = strtoul(arg, &end, 0);
		if (errno || *end || !*arg || *arg == '-')
			argp_error(state, "--seed: '%s' is not a number", arg);
		return 0;
	case 'S':
		o->source = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp scenario_import_argp = {
	import_options, import_parse, NULL, NULL, NULL, NULL, NULL
};

int scenario_print_import(struct scen_graph *g, const struct scen_import_opts *o,
			  const char *tool, const char *source)
{
	const char *src = o->source ? o->source : source;
	char header[512], note[256], defaults[512];
	int i, nasync = 0, nunknown = 0;

	for (i = 0; i < g->ndevs; i++) {
		if (o->all_async)
			g->devs[i].async = 1;
		nasync += g->devs[i].async;
		nunknown += g->devs[i].deps_unknown;
	}
	snprintf(header, sizeof(header),
		 "pmsynth scenario imported by %s from %s (latency model: bench/scenario-model.h)",
		 tool, src);
	snprintf(note, sizeof(note), "async: %d of %d devices (%s); dependencies not all known: %d",
		 nasync, g->ndevs,
		 o->all_async ? "--all-async" : "as the machine or 6.12 opts them in", nunknown);
	snprintf(defaults, sizeof(defaults), "%s seed=%lu", SCEN_IMPORT_DEFAULTS, o->seed);
	if (scenario_print(g, stdout, header, note, defaults)) {
		fprintf(stderr, "%s: writing the scenario: %s\n", tool, strerror(errno));
		return -1;
	}
	fprintf(stderr, "%s: %s: ", tool, src);
	scenario_summary(g, stderr);
	fputc('\n', stderr);
	return 0;
}
