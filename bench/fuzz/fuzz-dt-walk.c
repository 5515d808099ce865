// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dt-walk - libFuzzer harness of dt2scen's reader: dt_walk() on the
 * input as a DTB, then the scenario printed (to /dev/null) when it was
 * accepted.  Seeds: bench/fuzz/corpus/dt-walk.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dt-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct dt_walk_result r;
	struct scen_graph g;
	void *blob;

	if (!null)
		null = fopen("/dev/null", "w");
	/* libfdt wants the blob 8-byte aligned: a malloc'ed copy, as dt2scen reads */
	blob = malloc(size ? size : 1);
	if (!blob)
		return 0;
	memcpy(blob, data, size);
	if (!scenario_init(&g)) {
		if (!dt_walk(blob, size, &g, &r) && null)
			scenario_print(&g, null, "fuzz", NULL, "seed=1");
		scenario_free(&g);
	}
	free(blob);
	return 0;
}
