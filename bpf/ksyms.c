// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c - kernel text symbols from /proc/kallsyms (ksyms.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"

struct ksym {
	unsigned long long addr;
	char *name;
};

static struct ksym *syms;
static size_t nsyms;
static int loaded;

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* text symbols (t, T) with a non-zero address; a short read leaves fewer */
static void load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char name[256], type;
	unsigned long long addr;
	size_t cap = 0;

	loaded = 1;
	if (!f) {
		fprintf(stderr, "pmtrace: /proc/kallsyms: cannot read it, callbacks stay addresses\n");
		return;
	}
	while (fscanf(f, "%llx %c %255s%*[^\n]", &addr, &type, name) == 3) {
		struct ksym *grown;

		if ((type != 't' && type != 'T') || !addr)
			continue;
		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(syms, cap * sizeof(*syms));
			if (!grown)
				break;
			syms = grown;
		}
		syms[nsyms].addr = addr;
		syms[nsyms].name = strdup(name);
		if (!syms[nsyms].name)
			break;
		nsyms++;
	}
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), by_addr);
}

const char *ksym_name(unsigned long long addr)
{
	static char buf[32];
	size_t lo = 0, hi;

	if (!loaded)
		load();
	hi = nsyms;
	while (lo < hi) {		/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && syms[lo - 1].addr == addr)
		return syms[lo - 1].name;
	snprintf(buf, sizeof(buf), "0x%llx", addr);
	return buf;
}
