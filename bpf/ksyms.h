/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - kernel text symbols from /proc/kallsyms, for naming the
 * functions a trace event gives as addresses (rpm callbacks).
 */
#ifndef KSYMS_H
#define KSYMS_H

/*
 * The name of the kernel function at @addr ("0x..." when none is known,
 * e.g. kallsyms hides addresses from this user), valid until the next
 * call.  The table is read on first use.
 */
const char *ksym_name(unsigned long long addr);

#endif /* KSYMS_H */
