// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - device names -> small integers, one table per analysis, shared
 * by its records files (records.h), with the "NAME#K" aliases of
 * same-named devices in one phase of one file (names.h).
 */
#define _GNU_SOURCE
#include <json-c/linkhash.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"
#include "records.h"

struct names {
	struct lh_table *tab;		/* name -> id */
	char **name;			/* id -> name */
	int n, cap;
	int serial;			/* of the file being read */
	int *seen_in[DPM_NR_PHASES];	/* id -> serial of its last record's file */
	int *next_alias[DPM_NR_PHASES];	/* id -> the next "#N" to try for it */
};

struct names *names_new(void)
{
	struct names *nm = calloc(1, sizeof(*nm));

	if (!nm)
		return NULL;
	nm->tab = lh_kchar_table_new(256, NULL);
	if (!nm->tab) {
		free(nm);
		return NULL;
	}
	return nm;
}

void names_free(struct names *nm)
{
	int i;

	if (!nm)
		return;
	lh_table_free(nm->tab);
	for (i = 0; i < nm->n; i++)
		free(nm->name[i]);
	free(nm->name);
	for (i = 0; i < DPM_NR_PHASES; i++) {
		free(nm->seen_in[i]);
		free(nm->next_alias[i]);
	}
	free(nm);
}

static int names_grow(struct names *nm)
{
	int cap = nm->cap ? 2 * nm->cap : 256, p;
	void *q;

	q = realloc(nm->name, sizeof(char *) * cap);
	if (!q)
		return -1;
	nm->name = q;
	for (p = 0; p < DPM_NR_PHASES; p++) {
		q = realloc(nm->seen_in[p], sizeof(int) * cap);
		if (!q)
			return -1;
		nm->seen_in[p] = q;
		q = realloc(nm->next_alias[p], sizeof(int) * cap);
		if (!q)
			return -1;
		nm->next_alias[p] = q;
		memset(nm->seen_in[p] + nm->cap, 0, sizeof(int) * (cap - nm->cap));
		memset(nm->next_alias[p] + nm->cap, 0, sizeof(int) * (cap - nm->cap));
	}
	nm->cap = cap;
	return 0;
}

int names_id(struct names *nm, const char *name, int create)
{
	void *v;

	if (lh_table_lookup_ex(nm->tab, name, &v))
		return (int)(intptr_t)v;
	if (!create || nm->n == RECORDS_MAX_NAMES)
		return -1;
	if (nm->n == nm->cap && names_grow(nm))
		return -1;
	nm->name[nm->n] = strdup(name);
	if (!nm->name[nm->n])
		return -1;
	if (lh_table_insert(nm->tab, nm->name[nm->n], (void *)(intptr_t)nm->n)) {
		free(nm->name[nm->n]);
		return -1;
	}
	return nm->n++;
}

const char *names_get(const struct names *nm, int id)
{
	return id >= 0 && id < nm->n ? nm->name[id] : "?";
}

int names_count(const struct names *nm)
{
	return nm->n;
}

/* "NAME#K", the name of NAME's K-th device in a phase */
static int alias_id(struct names *nm, const char *name, int k, int create)
{
	char *alias;
	int id;

	if (asprintf(&alias, "%s#%d", name, k) < 0)
		return -1;
	id = names_id(nm, alias, create);
	free(alias);
	return id;
}

int names_twin(struct names *nm, const char *name)
{
	return alias_id(nm, name, 2, 0);
}

/*
 * The id of a device record named @name in phase @p of the file being
 * read: @name itself the first time, then the first "NAME#K" not taken in
 * this phase of this file (K from where the last search stopped: linear in
 * the number of duplicates).
 */
int names_record_id(struct names *nm, int p, const char *name)
{
	int base = names_id(nm, name, 1), id = base, k;

	if (base < 0 || nm->seen_in[p][base] != nm->serial) {
		if (base >= 0) {
			nm->seen_in[p][base] = nm->serial;
			nm->next_alias[p][base] = 2;
		}
		return base;
	}
	for (k = nm->next_alias[p][base]; id >= 0; k++) {
		id = alias_id(nm, name, k, 1);
		if (id >= 0 && nm->seen_in[p][id] != nm->serial)
			break;
	}
	if (id < 0)
		return -1;
	nm->next_alias[p][base] = k + 1;
	nm->seen_in[p][id] = nm->serial;
	return id;
}

void names_next_file(struct names *nm)
{
	nm->serial++;
}
