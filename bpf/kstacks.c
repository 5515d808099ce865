// SPDX-License-Identifier: GPL-2.0
/*
 * kstacks - on-CPU kernel stacks of the device phases of a system
 * transition, as folded stacks (flame graph input).
 *
 * Usage: kstacks [-F HZ] [-o FILE] -c COMMAND
 *
 * Loads kstacks.bpf.c, samples every online CPU at HZ (default 4999) while
 * COMMAND runs (/bin/sh -c, e.g. "echo mem > /sys/power/state"), then
 * writes one line per (phase, stack): "PHASE;OUTERMOST;...;INNERMOST
 * COUNT", frames named from /proc/kallsyms (two stacks that differ only
 * within a function give two equal lines: consumers add them).  Samples
 * outside the
 * device phases and on idle CPUs are not counted; the totals of each kind
 * go to standard error.  On the lab's virtual clock a sample is a fixed
 * number of instructions, so the counts say where the CPU work went.
 * Limit: a CPU taken offline during the transition (pm_test=core and
 * real suspend do so after suspend_noirq) loses its perf event for good,
 * so the resume-side phases are sampled on the boot CPU only.
 * Exit status: COMMAND's, or 1 after a message when the tracing could
 * not be set up or read.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kstacks.h"
#include "kstacks.skel.h"
#include "ksyms.h"

static const char * const phase_names[KSTACKS_NR_PHASES] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

struct args {
	long hz;
	const char *out, *command;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;
	char *end;

	switch (key) {
	case 'F':
		errno = 0;
		a->hz = strtol(arg, &end, 10);
		if (!*arg || *end || errno || a->hz < 1 || a->hz > 100000)
			argp_error(state, "-F %s: want 1..100000 Hz", arg);
		break;
	case 'o':
		a->out = arg;
		break;
	case 'c':
		a->command = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (the command goes in -c)", arg);
		break;
	case ARGP_KEY_END:
		if (!a->command)
			argp_error(state, "no command: -c 'echo mem > /sys/power/state'");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option options[] = {
	{ "frequency", 'F', "HZ", 0, "Samples per second and CPU (default 4999)", 0 },
	{ "output", 'o', "FILE", 0, "Write the folded stacks to FILE (default: stdout)", 0 },
	{ "command", 'c', "COMMAND", 0, "Run COMMAND (/bin/sh -c) while sampling", 0 },
	{ 0 }
};

static const struct argp argp = {
	options, parse_opt, NULL,
	"On-CPU kernel stacks of the device phases while COMMAND runs, as folded stacks.\v"
	"Example:\n  kstacks -o async.folded -c 'echo mem > /sys/power/state'\n"
	"Exit status: COMMAND's, or 1 after a message naming the cause.",
	NULL, NULL, NULL
};

/* a perf event sampling @cpu at @hz, attached to @prog; -1 after a message */
static int attach_cpu(struct bpf_program *prog, int cpu, long hz, struct bpf_link **link)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_freq = hz,
		.freq = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "kstacks: perf_event_open on CPU %d: %s\n", cpu, strerror(errno));
		return -1;
	}
	*link = bpf_program__attach_perf_event(prog, fd);
	if (!*link) {
		fprintf(stderr, "kstacks: attaching to CPU %d's perf event: %s\n", cpu,
			strerror(errno));
		close(fd);
		return -1;
	}
	return 0;
}

static int run(const char *command)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "kstacks: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		fprintf(stderr, "kstacks: /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "kstacks: waiting for the command: %s\n", strerror(errno));
			return -1;
		}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* one folded line per counted (phase, stack) to @f; -1 after a message */
static int dump(struct kstacks_bpf *skel, FILE *f)
{
	int counts = bpf_map__fd(skel->maps.counts), stacks = bpf_map__fd(skel->maps.stacks);
	struct kstacks_key key, next, *prev = NULL;
	unsigned long long ips[KSTACKS_DEPTH];
	struct ksyms *ks = ksyms_load();
	char buf[32];
	__u64 n;
	int i, depth;

	if (!ks) {
		fprintf(stderr, "kstacks: out of memory\n");
		return -1;
	}
	while (!bpf_map_get_next_key(counts, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(counts, &key, &n) || key.phase < 1 ||
		    key.phase > KSTACKS_NR_PHASES)
			continue;
		memset(ips, 0, sizeof(ips));
		if (bpf_map_lookup_elem(stacks, &key.stack_id, ips))
			continue;
		for (depth = 0; depth < KSTACKS_DEPTH && ips[depth]; depth++)
			;
		fputs(phase_names[key.phase - 1], f);
		for (i = depth - 1; i >= 0; i--)	/* outermost first */
			/* callers' frames are return addresses: the call is just before */
			fprintf(f, ";%s",
				ksym_within(ks, i ? ips[i] - 1 : ips[i], buf, sizeof(buf)));
		fprintf(f, " %llu\n", (unsigned long long)n);
	}
	ksyms_free(ks);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { .hz = 4999 };
	struct bpf_link **links = NULL;
	struct kstacks_state st;
	__u32 zero = 0;
	struct kstacks_bpf *skel;
	int ncpus, cpu, status = 1, ret = 1;
	FILE *f = stdout;

	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 1;
	ncpus = libbpf_num_possible_cpus();
	skel = kstacks_bpf__open_and_load();
	if (ncpus < 1 || !skel) {
		fprintf(stderr, "kstacks: cannot load the BPF program: %s\n", strerror(errno));
		goto out;
	}
	links = calloc(ncpus, sizeof(*links));
	if (!links || kstacks_bpf__attach(skel)) {
		fprintf(stderr, "kstacks: cannot attach to power:suspend_resume: %s\n",
			strerror(errno));
		goto out;
	}
	for (cpu = 0; cpu < ncpus; cpu++)
		if (attach_cpu(skel->progs.sample, cpu, a.hz, &links[cpu]) && errno != ENODEV)
			goto out;	/* ENODEV: a possible CPU that is not online */
	status = run(a.command);
	for (cpu = 0; cpu < ncpus; cpu++)
		bpf_link__destroy(links[cpu]);
	free(links);
	links = NULL;
	if (status < 0)
		goto out;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.state), &zero, &st)) {
		fprintf(stderr, "kstacks: cannot read the sample counts: %s\n", strerror(errno));
		goto out;
	}
	fprintf(stderr, "kstacks: %llu samples: %llu counted, %llu on idle CPUs, %llu outside "
		"the device phases, %llu lost\n", st.samples,
		st.samples - st.idle - st.outside - st.lost, st.idle, st.outside, st.lost);
	if (a.out)
		f = fopen(a.out, "w");
	if (!f) {
		fprintf(stderr, "kstacks: cannot write %s: %s\n", a.out, strerror(errno));
		goto out;
	}
	if (!dump(skel, f) && (f == stdout ? !fflush(f) : !fclose(f)))
		ret = status;
	else if (f != stdout)
		fprintf(stderr, "kstacks: writing %s failed\n", a.out);
out:
	if (links)
		for (cpu = 0; cpu < ncpus; cpu++)
			bpf_link__destroy(links[cpu]);
	free(links);
	kstacks_bpf__destroy(skel);
	return ret;
}
