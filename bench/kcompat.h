/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - the few kernel interfaces lab/pmsynth/pmsynth-scenario.c
 * uses, for building that parser into the host tools (scenario-read.c):
 * one parser, so the host reader and the module refuse the same scenarios
 * with the same messages.  The kstrto*() functions follow lib/kstrtox.c
 * (6.12): an optional sign, no blanks, one trailing newline allowed,
 * -ERANGE on overflow, -EINVAL otherwise.
 */
#ifndef KCOMPAT_H
#define KCOMPAT_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#define BIT(n)			(1UL << (n))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define MAX_ERRNO		4095
#define GFP_KERNEL		0
#define kcalloc(n, size, gfp)	calloc(n, size)
#define kvcalloc(n, size, gfp)	calloc(n, size)
#define kfree(p)		free(p)
#define kvfree(p)		free(p)

/* include/linux/pm.h */
#define DPM_FLAG_NO_DIRECT_COMPLETE	BIT(0)
#define DPM_FLAG_SMART_SUSPEND		BIT(2)
#define DPM_FLAG_MAY_SKIP_RESUME	BIT(3)

/* digits of @s in @base (0: 0x hex, 0 octal, else decimal) into @res */
static inline int kc_parse_ull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	bool any = false;

	if (!base || base == 16) {
		if (s[0] == '0' && tolower((unsigned char)s[1]) == 'x' &&
		    isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		} else if (!base) {
			base = s[0] == '0' ? 8 : 10;
		}
	}
	for (; *s; s++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isalpha((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
		any = true;
	}
	if (!any)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

static inline int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return kc_parse_ull(s, base, res);
}

static inline int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '-') {
		ret = kc_parse_ull(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = v ? -(long long)(v - 1) - 1 : 0;
		return 0;
	}
	ret = kstrtoull(s, base, &v);
	if (ret)
		return ret;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int ret = kstrtoll(s, base, &v);

	if (ret)
		return ret;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (!ret)
		*res = v;
	return ret;
}

/* lib/kstrtox.c: y/Y/t/T/1, n/N/f/F/0, on/off */
static inline int kstrtobool(const char *s, bool *res)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (tolower((unsigned char)s[1]) == 'n' || tolower((unsigned char)s[1]) == 'f') {
			*res = tolower((unsigned char)s[1]) == 'n';
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

/* lib/string_helpers.c: leading and trailing white space removed */
static inline char *strim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static inline int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n;

	if (!size)
		return 0;
	n = vsnprintf(buf, size, fmt, ap);
	if (n < 0)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

/* any spread will do: the parser only places names in its hash table */
static inline unsigned int full_name_hash(const void *salt, const char *name, size_t len)
{
	unsigned int h = 2166136261u;

	(void)salt;
	while (len--)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

#endif /* KCOMPAT_H */
