// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-read.c - a pmsynth scenario file back into a dependency graph
 * (scenario-read.h).  The text is checked by pmsynth's own parser
 * (lab/pmsynth/pmsynth-scenario.c, built here with kcompat.h): what the
 * module refuses is refused here, with the same "line N: cause".  Only
 * what orders devices is kept: parents, masters (real pm_links) and the
 * spin/sleep mode of each system-sleep callback; oracle_masters= declares
 * no device link and so orders nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "scenario-read.h"
#include "kcompat.h"
#include "../lab/pmsynth/pmsynth-spec.h"

#define ERR_LEN 512

static int by_name_cmp(const void *a, const void *b, void *ctx)
{
	const struct scenario *s = ctx;

	return strcmp(s->nodes[*(const int *)a].name, s->nodes[*(const int *)b].name);
}

int scenario_find(const struct scenario *s, const char *name)
{
	int lo = 0, hi = s->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, i = s->by_name[mid];
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

static int hash_bytes(const char *buf, size_t len, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n, i;

	if (!EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL))
		return -1;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return 0;
}

/* pmsynth's devices as scenario nodes; takes over the masters arrays */
static int take_specs(struct scenario *s, struct pmsynth_scenario *sc)
{
	int i, p;

	s->nodes = calloc(sc->nr, sizeof(*s->nodes));
	s->by_name = calloc(sc->nr, sizeof(int));
	if (!s->nodes || !s->by_name)
		return -1;
	for (i = 0; i < sc->nr; i++) {
		struct pmsynth_spec *spec = &sc->specs[i];
		struct scen_node *d = &s->nodes[i];

		d->name = strdup(spec->name);
		if (!d->name)
			return -1;
		s->n++;
		d->parent = spec->parent;
		d->masters = spec->masters;
		d->nmasters = spec->nr_masters;
		d->async = spec->async;
		d->deps_unknown = spec->deps_unknown;
		spec->masters = NULL;
		for (p = 0; p < DPM_NR_PHASES; p++)
			if (spec->mode[p] == PM_MODE_SPIN)
				d->spin |= 1u << p;
		s->by_name[i] = i;
	}
	s->nlinks = sc->nr_links;
	qsort_r(s->by_name, s->n, sizeof(int), by_name_cmp, s);
	return 0;
}

int scenario_parse(const char *path, const char *text, size_t len, struct scenario *s)
{
	struct pmsynth_scenario sc;
	char err[ERR_LEN], *copy, *base;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	base = strrchr(path, '/');
	s->name = strdup(base ? base + 1 : path);
	copy = malloc(len + 1);
	if (!s->path || !s->name || !copy) {
		fprintf(stderr, "%s: out of memory\n", path);
		goto out;
	}
	if (strlen(s->name) > 4 && !strcmp(s->name + strlen(s->name) - 4, ".txt"))
		s->name[strlen(s->name) - 4] = '\0';
	if (len > PMSYNTH_MAX_TEXT) {
		fprintf(stderr, "%s: scenario larger than %d bytes\n", path, PMSYNTH_MAX_TEXT);
		goto out;
	}
	if (hash_bytes(text, len, s->sha256)) {
		fprintf(stderr, "%s: cannot compute its sha256\n", path);
		goto out;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	err[0] = '\0';
	if (pmsynth_parse(copy, len, &sc, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", path, err[0] ? err : "out of memory");
		goto out;
	}
	ret = take_specs(s, &sc);
	if (ret)
		fprintf(stderr, "%s: out of memory\n", path);
	pmsynth_scenario_free(&sc);
out:
	free(copy);
	if (ret)
		scenario_free(s);
	return ret;
}

int scenario_read(const char *path, struct scenario *s)
{
	size_t len = 0, cap = 1 << 16, got;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	int ret = -1;

	memset(s, 0, sizeof(*s));
	if (!f || !buf) {
		fprintf(stderr, "%s: %s\n", path, strerror(f ? ENOMEM : errno));
		goto out;
	}
	/* one byte past pmsynth's limit tells a file over it */
	while (len <= PMSYNTH_MAX_TEXT) {
		if (len == cap) {
			char *grown = realloc(buf, cap * 2);

			if (!grown) {
				fprintf(stderr, "%s: %s\n", path, strerror(ENOMEM));
				goto out;
			}
			buf = grown;
			cap *= 2;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		goto out;
	}
	ret = scenario_parse(path, buf, len, s);
out:
	if (f)
		fclose(f);
	free(buf);
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
