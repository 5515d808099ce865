/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstacks.h - shared by kstacks.bpf.c and its loader kstacks.c: on-CPU
 * kernel stacks sampled during the device phases of system transitions,
 * counted in the kernel per (phase, stack).
 */
#ifndef KSTACKS_H
#define KSTACKS_H

#define KSTACKS_DEPTH		64	/* frames kept per stack */
#define KSTACKS_MAX_STACKS	16384	/* distinct stacks, and (phase, stack) keys */
#define KSTACKS_NR_PHASES	8	/* dpm_prepare ... dpm_complete */

/* counts map key: the phase (1..KSTACKS_NR_PHASES) and the stack's id */
struct kstacks_key {
	unsigned int phase;
	int stack_id;
};

/*
 * state map's one entry (no global variables: Debian 12's libbpf probes
 * for global data with a socket filter, which the lab kernel lacks)
 */
struct kstacks_state {
	unsigned int phase;		/* the device phase in progress, 0: none */
	unsigned int pad;
	unsigned long long samples;	/* every sample, then by what became of it: */
	unsigned long long idle, outside, lost;
};

#endif /* KSTACKS_H */
