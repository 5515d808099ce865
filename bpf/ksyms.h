/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - kernel text symbols from /proc/kallsyms, for naming the
 * functions a trace event gives as addresses (rpm callbacks).
 */
#ifndef KSYMS_H
#define KSYMS_H

#include <stddef.h>

struct ksyms;

/*
 * The text symbols of /proc/kallsyms; a table without symbols (each
 * address then named "0x...") when it cannot be read, with a message
 * saying so.  NULL only when out of memory.
 */
struct ksyms *ksyms_load(void);

/*
 * The name of the kernel function at @addr, or "0x..." in @buf (@size
 * bytes) when none is known (e.g. kallsyms hides addresses from this user).
 */
const char *ksym_name(const struct ksyms *k, unsigned long long addr, char *buf, size_t size);

/*
 * The name of the kernel function @addr lies in (the last text symbol at
 * or below it: a sampled instruction pointer or return address), or
 * "0x..." in @buf when there is none.
 */
const char *ksym_within(const struct ksyms *k, unsigned long long addr, char *buf, size_t size);

void ksyms_free(struct ksyms *k);

#endif /* KSYMS_H */
