/* SPDX-License-Identifier: GPL-2.0 */
/*
 * percentile.h - nearest-rank percentiles of nanosecond samples, for the
 * analyses that report p50/p99 (rpm-latency, rpm-callbacks).
 */
#ifndef PERCENTILE_H
#define PERCENTILE_H

#include <stdlib.h>

static inline int ll_compare(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* sort @v[@n] in place, for percentile() */
static inline void ll_sort(long long *v, int n)
{
	qsort(v, n, sizeof(*v), ll_compare);
}

/* nearest-rank percentile @q (0..1] of the sorted @v[@n], @n > 0 */
static inline long long percentile(const long long *v, int n, double q)
{
	int k = (int)(q * n + 0.999999);

	return v[(k < 1 ? 1 : k > n ? n : k) - 1];
}

#endif /* PERCENTILE_H */
