/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - what records.c calls of the names table (names.c) while it
 * reads a file; the table's own interface is in records.h.
 */
#ifndef NAMES_H
#define NAMES_H

struct names;

/*
 * The id of a device record named @name in phase @p of the file being
 * read: @name itself the first time, then "NAME#2", "NAME#3"...; -1 when
 * the table is full or memory ran out.
 */
int names_record_id(struct names *nm, int p, const char *name);

/* A new file is read: every name is unseen again in every phase. */
void names_next_file(struct names *nm);

#endif /* NAMES_H */
