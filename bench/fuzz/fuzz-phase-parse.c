// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-phase-parse.c - libFuzzer harness of phase-times' trace reader
 * (phase-parse.c): each input is one trace file read into a fresh set; a
 * second read of it into the same set exercises the check that the files
 * of a set repeat one transition.  Errors are expected; crashes, leaks,
 * sanitizer reports and hangs are findings.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "phase-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_set *s = malloc(sizeof(*s));
	struct pp_err err;

	if (!s)
		return 0;
	pp_set_init(s);
	if (!pp_read_buffer(s, "fuzz.trace", (const char *)data, size, &err))
		pp_read_buffer(s, "fuzz-2.trace", (const char *)data, size, &err);
	pp_set_free(s);
	free(s);
	return 0;
}
