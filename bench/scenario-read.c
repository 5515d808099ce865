// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-read.c - a pmsynth scenario file back into a dependency graph
 * (scenario-read.h).  Only what orders devices is kept: parent=, masters=
 * and the spin/sleep mode of each system-sleep callback; oracle_masters=
 * declares no device link and so orders nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "scenario-read.h"

struct pending {		/* names resolved once every line is read */
	char *parent;
	char *masters;
	int line;
};

static const char * const device_keys[] = {
	"parent", "masters", "async", "lat", "mode", "autosuspend", "fault",
	"oracle_masters", NULL,
};
static const char * const default_keys[] = {
	"lat", "mode", "async", "autosuspend", "jitter", "seed", NULL,
};

static int known(const char * const *keys, const char *key)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, key))
			return 1;
	return 0;
}

/* "PH:sleep|spin,..." applied to @spin; -1 on a malformed item. */
static int parse_mode(const char *val, unsigned int *spin)
{
	char *copy = strdup(val), *item, *save = NULL;
	int ret = 0;

	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		unsigned int mask;
		int p;

		if (!colon) {
			ret = -1;
			break;
		}
		*colon = '\0';
		if (!strcmp(item, "all") || !strcmp(item, "system"))
			mask = (1u << DPM_NR_PHASES) - 1;
		else if (!strcmp(item, "runtime") || !strncmp(item, "runtime_", 8))
			mask = 0;	/* not a system-sleep phase */
		else if ((p = dpm_phase_of(item)) >= 0)
			mask = 1u << p;
		else {
			ret = -1;
			break;
		}
		if (!strcmp(colon + 1, "spin"))
			*spin |= mask;
		else if (!strcmp(colon + 1, "sleep"))
			*spin &= ~mask;
		else {
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

static const struct scenario *sort_ctx;

static int by_name_cmp(const void *a, const void *b)
{
	return strcmp(sort_ctx->nodes[*(const int *)a].name,
		      sort_ctx->nodes[*(const int *)b].name);
}

int scenario_find(const struct scenario *s, const char *name)
{
	int lo = 0, hi = s->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, i = s->by_name[mid];
		int c = strcmp(name, s->nodes[i].name);

		if (!c)
			return i;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/* 0: no cycle through @i; marks 1 = on the path, 2 = done. */
static int acyclic(const struct scenario *s, int i, char *mark)
{
	int k, next;

	if (mark[i] == 2)
		return 1;
	if (mark[i] == 1)
		return 0;
	mark[i] = 1;
	for (k = -1; k < s->nodes[i].nmasters; k++) {
		next = k < 0 ? s->nodes[i].parent : s->nodes[i].masters[k];
		if (next >= 0 && !acyclic(s, next, mark))
			return 0;
	}
	mark[i] = 2;
	return 1;
}

static int hash_file(const char *buf, size_t len, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n, i;

	if (!EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL))
		return -1;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return 0;
}

#define FAIL(...) do { fprintf(stderr, __VA_ARGS__); goto bad; } while (0)

/* Resolve parents and masters, check the graph, index names. */
static int resolve(struct scenario *s, struct pending *pend)
{
	char *mark = NULL;
	int i;

	s->by_name = malloc(sizeof(int) * ((size_t)s->n + 1));
	for (i = 0; i < s->n; i++)
		s->by_name[i] = i;
	sort_ctx = s;
	qsort(s->by_name, s->n, sizeof(int), by_name_cmp);
	for (i = 1; i < s->n; i++)
		if (!strcmp(s->nodes[s->by_name[i]].name, s->nodes[s->by_name[i - 1]].name))
			FAIL("%s:%d: duplicate device name '%s'\n", s->path,
			     pend[s->by_name[i]].line, s->nodes[s->by_name[i]].name);
	for (i = 0; i < s->n; i++) {
		struct scen_node *d = &s->nodes[i];
		char *m, *save = NULL;

		if (pend[i].parent) {
			d->parent = scenario_find(s, pend[i].parent);
			if (d->parent < 0 || d->parent >= i)
				FAIL("%s:%d: parent '%s' is not defined on an earlier line\n",
				     s->path, pend[i].line, pend[i].parent);
		}
		for (m = pend[i].masters ? strtok_r(pend[i].masters, ",", &save) : NULL; m;
		     m = strtok_r(NULL, ",", &save)) {
			int k = scenario_find(s, m);

			if (k < 0)
				FAIL("%s:%d: unknown master '%s'\n", s->path, pend[i].line, m);
			if (k == i)
				FAIL("%s:%d: '%s' is its own master\n", s->path, pend[i].line, m);
			d->masters = realloc(d->masters, sizeof(int) * (d->nmasters + 1));
			d->masters[d->nmasters++] = k;
			s->nlinks++;
		}
	}
	mark = calloc((size_t)s->n + 1, 1);
	for (i = 0; i < s->n; i++)
		if (!acyclic(s, i, mark))
			FAIL("%s:%d: '%s' is in a dependency cycle (parents and masters)\n",
			     s->path, pend[i].line, s->nodes[i].name);
	free(mark);
	return 0;
bad:
	free(mark);
	return -1;
}

int scenario_read(const char *path, struct scenario *s)
{
	struct pending *pend = NULL;
	char *buf = NULL, *line, *next, *base;
	unsigned int def_spin = 0;
	size_t len = 0;
	int lineno = 0, ret = -1, seen_device = 0;
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	base = strrchr(path, '/');
	s->name = strdup(base ? base + 1 : path);
	if (strlen(s->name) > 4 && !strcmp(s->name + strlen(s->name) - 4, ".txt"))
		s->name[strlen(s->name) - 4] = '\0';
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		goto out;
	}
	if (getdelim(&buf, &len, '\0', f) < 0 && !feof(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		fclose(f);
		goto out;
	}
	len = buf ? strlen(buf) : 0;
	fclose(f);
	if (hash_file(buf ? buf : "", len, s->sha256))
		FAIL("%s: cannot compute its sha256\n", path);
	for (line = buf; line && *line; line = next) {
		char *hash = strchr(line, '#'), *tok, *tsave = NULL;
		struct scen_node *d = NULL;
		int defaults;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (hash)
			*hash = '\0';
		tok = strtok_r(line, " \t\r", &tsave);
		if (!tok)
			continue;
		defaults = !strcmp(tok, "@defaults");
		if (defaults && seen_device)
			FAIL("%s:%d: @defaults after the first device\n", path, lineno);
		if (!defaults) {
			seen_device = 1;
			s->nodes = realloc(s->nodes, sizeof(*s->nodes) * (s->n + 1));
			pend = realloc(pend, sizeof(*pend) * (s->n + 1));
			d = &s->nodes[s->n];
			memset(d, 0, sizeof(*d));
			memset(&pend[s->n], 0, sizeof(*pend));
			pend[s->n].line = lineno;
			s->n++;
			d->name = strdup(tok);
			d->parent = -1;
			d->spin = def_spin;
		}
		while ((tok = strtok_r(NULL, " \t\r", &tsave))) {
			char *eq = strchr(tok, '=');

			if (!eq)
				FAIL("%s:%d: '%s' is not KEY=VALUE\n", path, lineno, tok);
			*eq = '\0';
			if (!known(defaults ? default_keys : device_keys, tok))
				FAIL("%s:%d: unknown key '%s'\n", path, lineno, tok);
			if (!strcmp(tok, "mode") && parse_mode(eq + 1, defaults ? &def_spin : &d->spin))
				FAIL("%s:%d: bad mode '%s'\n", path, lineno, eq + 1);
			else if (!strcmp(tok, "parent"))
				pend[s->n - 1].parent = eq + 1;
			else if (!strcmp(tok, "masters"))
				pend[s->n - 1].masters = eq + 1;
		}
	}
	if (!s->n)
		FAIL("%s: no devices\n", path);
	ret = resolve(s, pend);
	goto out;
bad:
	ret = -1;
out:
	free(pend);
	free(buf);
	if (ret)
		scenario_free(s);
	return ret;
}

void scenario_free(struct scenario *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		free(s->nodes[i].name);
		free(s->nodes[i].masters);
	}
	free(s->nodes);
	free(s->by_name);
	free(s->path);
	free(s->name);
	memset(s, 0, sizeof(*s));
}
