// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-records - libFuzzer harness of the records reader (records.c): each
 * input is one records file, read, indexed and freed with a fresh names
 * table.  A crash, leak, sanitizer report or hang is a finding.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include "records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct names *nm = names_new();
	struct transition t;
	FILE *f;

	if (!nm)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f) {
		if (!transition_read_stream(nm, f, "fuzz", &t))
			transition_index(nm, &t);
		transition_free(&t);
		fclose(f);
	}
	names_free(nm);
	return 0;
}
