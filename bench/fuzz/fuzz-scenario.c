// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-scenario - libFuzzer harness of the scenario reader (scenario-read.c
 * around pmsynth's own parser, lab/pmsynth/pmsynth-scenario.c): each input
 * is one scenario file, parsed, looked up and freed.
 */
#include <stdint.h>
#include <stdio.h>
#include "scenario-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario s;
	int i;

	if (scenario_parse("fuzz", (const char *)data, size, &s))
		return 0;
	for (i = 0; i < s.n; i++)
		if (scenario_find(&s, s.nodes[i].name) != i)
			__builtin_trap();	/* names are unique: each finds itself */
	scenario_free(&s);
	return 0;
}
