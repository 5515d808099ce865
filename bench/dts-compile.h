/* SPDX-License-Identifier: GPL-2.0 */
/* dts-compile.h - a .dts source compiled to a DTB the way the kernel does. */
#ifndef DTS_COMPILE_H
#define DTS_COMPILE_H
#include <stdio.h>
#include <sys/types.h>

#define DTS_MAX_INCLUDES 16

struct dts_compile {
	const char *incdirs[DTS_MAX_INCLUDES];	/* -I, in order */
	int nincs;
	const char *kernel_tree;		/* its include-prefixes, or NULL */
	pid_t pid;				/* the bash running cpp | dtc */
};

int dts_is_source(const char *path, FILE *f);
FILE *dts_compile_start(struct dts_compile *c, const char *path);
int dts_compile_finish(struct dts_compile *c, const char *tool, const char *path);
const char *dts_default_tree(void);
#endif
