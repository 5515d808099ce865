// SPDX-License-Identifier: GPL-2.0
/*
 * dts-compile - a device tree source compiled to a DTB the way the kernel's
 * build does it: cpp (-nostdinc, -undef, -D__DTS__, the kernel's
 * scripts/dtc/include-prefixes and the source's own directory on the
 * include path) piped into dtc.  Used by dt2scen for .dts input.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dts-compile.h"

extern char **environ;

/*
 * dts_is_source - does @path name a device tree source?  By its name
 * (.dts, .dtsi) or, for other names, by its first non-blank bytes being
 * "/dts-v1/" or a cpp directive.  Reads from and rewinds @f (a seekable
 * file; standard input is taken to be a DTB).
 */
int dts_is_source(const char *path, FILE *f)
{
	const char *dot = strrchr(path, '.');
	char head[16];
	size_t n, i = 0;

	if (dot && (!strcmp(dot, ".dts") || !strcmp(dot, ".dtsi")))
		return 1;
	if (f == stdin)
		return 0;
	n = fread(head, 1, sizeof(head) - 1, f);
	rewind(f);
	head[n] = '\0';
	while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n'))
		i++;
	return !strncmp(head + i, "/dts-v1/", 8) || !strncmp(head + i, "#include", 8);
}

/* The lab's kernel tree beside the tools: build/tools/../linux, or NULL. */
const char *dts_default_tree(void)
{
	static char tree[PATH_MAX];
	char exe[PATH_MAX], *slash;
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if (snprintf(tree, sizeof(tree), "%s/../linux", exe) >= (int)sizeof(tree))
		return NULL;
	if (stat(tree, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	return tree;
}

/*
 * dts_compile_start - start "cpp ... @path | dtc -I dts -O dtb" and return
 * the read end of its output, or NULL (errno set).  The include path: each
 * of @c->incdirs, the kernel tree's scripts/dtc/include-prefixes when
 * @c->kernel_tree is set, then @path's directory.  Arguments go to bash as
 * positional parameters, never through its parser.
 */
FILE *dts_compile_start(struct dts_compile *c, const char *path)
{
	static const char script[] =
		"src=$1; shift; set -o pipefail; "
		"cpp -nostdinc \"$@\" -undef -D__DTS__ -x assembler-with-cpp \"$src\" | "
		"dtc -q -I dts -O dtb -o - -";
	char prefixes[PATH_MAX], dir[PATH_MAX], *slash;
	const char *argv[8 + 2 * (DTS_MAX_INCLUDES + 2)];
	posix_spawn_file_actions_t fa;
	int fds[2], n = 0, i, err;
	FILE *out;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	argv[n++] = "bash";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n++] = "bash";
	argv[n++] = path;
	for (i = 0; i < c->nincs; i++) {
		argv[n++] = "-I";
		argv[n++] = c->incdirs[i];
	}
	if (c->kernel_tree) {
		snprintf(prefixes, sizeof(prefixes), "%s/scripts/dtc/include-prefixes",
			 c->kernel_tree);
		argv[n++] = "-I";
		argv[n++] = prefixes;
	}
	argv[n++] = "-I";
	argv[n++] = dir;
	argv[n] = NULL;

	if (pipe(fds))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	err = posix_spawn(&c->pid, "/bin/bash", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		errno = err;
		return NULL;
	}
	out = fdopen(fds[0], "rb");
	if (!out)
		close(fds[0]);
	return out;
}

/*
 * dts_compile_finish - wait for the compiler started by dts_compile_start()
 * (after its output was read and closed); 0 when cpp and dtc succeeded,
 * else -1 with the cause on stderr.
 */
int dts_compile_finish(struct dts_compile *c, const char *tool, const char *path)
{
	int status;

	while (waitpid(c->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: %s: waiting for cpp | dtc: %s\n", tool, path,
				strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "%s: %s: cpp | dtc failed (%s %d): the source does not compile%s\n",
		tool, path, WIFEXITED(status) ? "exit status" : "signal",
		WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		c->kernel_tree ? "" :
		"; no kernel tree for its #includes (--kernel-tree DIR, or -I DIR)");
	return -1;
}
