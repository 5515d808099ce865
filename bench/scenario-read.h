/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario-read.h - read a pmsynth scenario file (bench/scenarios/README.md)
 * back into the dependency graph the analysis needs: each device's parent
 * and pm_link masters, and which system-sleep phases spin rather than
 * sleep.  The reader refuses what pmsynth refuses, with pmsynth's own
 * parser and messages ("FILE: line N: cause").
 */
#ifndef SCENARIO_READ_H
#define SCENARIO_READ_H

#include <stddef.h>
#include "dpm-phase.h"

struct scen_node {
	char *name;
	int parent;		/* node index or -1 */
	int *masters;		/* pm_link suppliers */
	int nmasters;
	unsigned int spin;	/* bit (1 << phase): that callback spins */
	int async;		/* async=1: opted in to async suspend/resume */
	int deps_unknown;	/* deps=unknown: the importer could not tell them all */
};

struct scenario {
	char *path;
	char *name;		/* file name without directory and ".txt" */
	char sha256[65];	/* of the file's bytes, lower-case hex */
	struct scen_node *nodes;
	int n, nlinks;
	int *by_name;		/* node indices sorted by name */
};

/*
 * Read @path into @s.  Returns 0, or -1 after printing "PATH: line N: cause"
 * (or the I/O error) to stderr; @s is then empty.
 */
int scenario_read(const char *path, struct scenario *s);

/* The same for the @len bytes at @text, named @path in messages. */
int scenario_parse(const char *path, const char *text, size_t len, struct scenario *s);

/* The node called @name, or -1. */
int scenario_find(const struct scenario *s, const char *name);

void scenario_free(struct scenario *s);

#endif /* SCENARIO_READ_H */
