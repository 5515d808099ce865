// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c - kernel text symbols from /proc/kallsyms (ksyms.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"

struct ksym {
	unsigned long long addr;
	char *name;
};

struct ksyms {
	struct ksym *syms;
	size_t nsyms, cap;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int add(struct ksyms *k, unsigned long long addr, const char *name)
{
	if (k->nsyms == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 65536;
		struct ksym *grown = realloc(k->syms, cap * sizeof(*k->syms));

		if (!grown)
			return -ENOMEM;
		k->syms = grown;
		k->cap = cap;
	}
	k->syms[k->nsyms].name = strdup(name);
	if (!k->syms[k->nsyms].name)
		return -ENOMEM;
	k->syms[k->nsyms++].addr = addr;
	return 0;
}

/* text symbols (t, T) with a non-zero address */
struct ksyms *ksyms_load(void)
{
	struct ksyms *k = calloc(1, sizeof(*k));
	FILE *f = fopen("/proc/kallsyms", "r");
	char name[256], type;
	unsigned long long addr;

	if (!k || !f) {
		if (k)
			fprintf(stderr, "pmtrace: /proc/kallsyms: %s: callbacks stay addresses\n",
				strerror(errno));
		if (f)
			fclose(f);
		return k;
	}
	while (fscanf(f, "%llx %c %255s%*[^\n]", &addr, &type, name) == 3) {
		if ((type != 't' && type != 'T') || !addr)
			continue;
		if (add(k, addr, name)) {
			fprintf(stderr,
				"pmtrace: /proc/kallsyms: out of memory after %zu symbols:"
				" the others stay addresses\n", k->nsyms);
			break;
		}
	}
	fclose(f);
	qsort(k->syms, k->nsyms, sizeof(*k->syms), by_addr);
	return k;
}

/* the index of the last symbol at or below @addr, plus one; 0: none */
static size_t below(const struct ksyms *k, unsigned long long addr)
{
	size_t lo = 0, hi = k ? k->nsyms : 0;

	while (lo < hi) {		/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const char *ksym_name(const struct ksyms *k, unsigned long long addr, char *buf, size_t size)
{
	size_t i = below(k, addr);

	if (i && k->syms[i - 1].addr == addr)
		return k->syms[i - 1].name;
	snprintf(buf, size, "0x%llx", addr);
	return buf;
}

const char *ksym_within(const struct ksyms *k, unsigned long long addr, char *buf, size_t size)
{
	size_t i = below(k, addr);

	if (i)
		return k->syms[i - 1].name;
	snprintf(buf, size, "0x%llx", addr);
	return buf;
}

void ksyms_free(struct ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nsyms; i++)
		free(k->syms[i].name);
	free(k->syms);
	free(k);
}
