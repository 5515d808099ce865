// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs2scen - a pmsynth scenario from a running machine's device graph.
 *
 *   sysfs2scen devices.txt links.txt > machine.txt
 *
 * where devices.txt is what "find /sys/devices -name uevent -printf '%h\n'"
 * prints, and links.txt what a loop over /sys/class/devlink printing
 * "$(readlink -f $l/supplier) $(readlink -f $l/consumer)" prints
 * (bench/scenarios/import.sh runs both).
 *
 * Every directory of DEVICES becomes a device, under the nearest of its
 * ancestor directories that is also listed (the sysfs device tree).  Every
 * "SUPPLIER CONSUMER" line of LINKS becomes a pm_link (master = supplier),
 * under the rules of scenario_link(): no self/ancestor links, duplicates
 * merged, a link that would close a cycle dropped (first come, first
 * kept).  Blank lines (the loop above prints one when there are no device
 * links) are skipped; a line naming a device not in DEVICES is counted as
 * unavailable.  Latencies: the import model of scenario-model.h.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "scenario-graph.h"

struct args {
	const char *devices_file, *links_file;
	struct scen_import_opts import;
};

/* The device paths, sorted: path i is device i of the graph. */
struct dev_path {
	char *path;
	int line;		/* in DEVICES */
};

static const char doc[] =
"Write a pmsynth scenario from a machine's sysfs device directories (DEVICES,\n"
"one path a line) and device links (LINKS, \"SUPPLIER CONSUMER\" paths a line).";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->import;
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num == 0)
			a->devices_file = arg;
		else if (state->arg_num == 1)
			a->links_file = arg;
		else
			argp_error(state, "too many arguments");
		break;
	case ARGP_KEY_END:
		if (!a->links_file)
			argp_error(state, "need DEVICES and LINKS");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct dev_path *)a)->path, ((const struct dev_path *)b)->path);
}

/* The index of @path among the first @n of @paths, or -1. */
static int find(const struct dev_path *paths, int n, const char *path)
{
	struct dev_path key = { (char *)path, 0 };
	const struct dev_path *p = bsearch(&key, paths, n, sizeof(*paths), cmp_path);

	return p ? (int)(p - paths) : -1;
}

/*
 * The next line of @f into *@line without its end of line: its length, 0 at
 * the end of the file, -1 (said on stderr) on a read error or a NUL byte.
 */
static ssize_t next_line(FILE *f, const char *file, int lineno, char **line, size_t *cap)
{
	ssize_t len = getline(line, cap, f);

	if (len < 0) {
		if (ferror(f)) {
			fprintf(stderr, "sysfs2scen: %s:%d: %s\n", file, lineno, strerror(errno));
			return -1;
		}
		return 0;
	}
	if ((size_t)len != strlen(*line)) {
		fprintf(stderr, "sysfs2scen: %s:%d: NUL byte in the line\n", file, lineno);
		return -1;
	}
	(*line)[strcspn(*line, "\r\n")] = '\0';
	return len;
}

/* One DEVICES line (not blank) into @paths[*@n]; 0 or -1 (said). */
static int add_path(struct dev_path *paths, int *n, const char *file, int lineno,
		    const char *line)
{
	if (line[0] != '/') {
		fprintf(stderr, "sysfs2scen: %s:%d: '%s' is not an absolute path\n",
			file, lineno, line);
		return -1;
	}
	if (*n == SCEN_MAX_DEVS) {
		fprintf(stderr, "sysfs2scen: %s:%d: more than %d devices\n",
			file, lineno, SCEN_MAX_DEVS);
		return -1;
	}
	paths[*n].path = strdup(line);
	if (!paths[*n].path) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return -1;
	}
	paths[(*n)++].line = lineno;
	return 0;
}

/* DEVICES into @paths, sorted; their number, or -1 (said on stderr). */
static int read_devices(const char *file, struct dev_path *paths)
{
	FILE *f = fopen(file, "r");
	char *line = NULL;
	size_t cap = 0;
	int n = 0, lineno = 0, i, err = 0, first, again;
	ssize_t len;

	if (!f) {
		fprintf(stderr, "sysfs2scen: %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (!err) {
		len = next_line(f, file, lineno + 1, &line, &cap);
		if (len <= 0) {
			err = len < 0;
			break;
		}
		lineno++;
		if (line[0])
			err = add_path(paths, &n, file, lineno, line);
	}
	free(line);
	fclose(f);
	if (!err && !n) {
		fprintf(stderr, "sysfs2scen: %s: no device paths\n", file);
		err = 1;
	}
	/* sorted, a parent directory comes before everything below it */
	qsort(paths, n, sizeof(*paths), cmp_path);
	for (i = 1; i < n && !err; i++) {
		first = paths[i - 1].line;
		again = paths[i].line;
		if (strcmp(paths[i - 1].path, paths[i].path))
			continue;
		if (first > again) {
			first = again;
			again = paths[i - 1].line;
		}
		fprintf(stderr, "sysfs2scen: %s:%d: '%s' is listed twice (first on line %d)\n",
			file, again, paths[i].path, first);
		err = 1;
	}
	for (i = 0; i < n && err; i++)
		free(paths[i].path);
	return err ? -1 : n;
}

/* Device i under the nearest listed directory above it; 0 or -1 (said). */
static int add_devices(struct scen_graph *g, const struct dev_path *paths, int n)
{
	char *dir, *slash;
	int i, p;

	for (i = 0; i < n; i++) {
		dir = strdup(paths[i].path);
		if (!dir)
			goto nomem;
		p = -1;
		while (p < 0) {
			slash = strrchr(dir, '/');
			if (!slash || slash == dir)
				break;
			*slash = '\0';
			p = find(paths, i, dir);	/* only among the earlier ones */
		}
		free(dir);
		if (scenario_add(g, strrchr(paths[i].path, '/') + 1, p) < 0)
			goto nomem;
	}
	return 0;
nomem:
	fprintf(stderr, "sysfs2scen: out of memory\n");
	return -1;
}

/* One LINKS line: a pm_link, or an unavailable reference; 0 or -1 (said). */
static int add_link(struct scen_graph *g, const struct dev_path *paths, int n,
		    const char *file, int lineno, char *line)
{
	char *save, *sup, *con;
	int s, c;

	sup = strtok_r(line, " \t", &save);
	if (!sup)
		return 0;
	con = strtok_r(NULL, " \t", &save);
	if (!con || strtok_r(NULL, " \t", &save)) {
		fprintf(stderr, "sysfs2scen: %s:%d: expected \"SUPPLIER CONSUMER\"\n",
			file, lineno);
		return -1;
	}
	s = find(paths, n, sup);
	c = find(paths, n, con);
	if (s < 0 || c < 0) {
		scenario_unavailable(g);
		return 0;
	}
	if (scenario_link(g, c, s) == SCEN_NOMEM) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return -1;
	}
	return 0;
}

static int read_links(struct scen_graph *g, const struct dev_path *paths, int n,
		      const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, err = 0;
	ssize_t len;

	if (!f) {
		fprintf(stderr, "sysfs2scen: %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (!err) {
		len = next_line(f, file, lineno + 1, &line, &cap);
		if (len <= 0) {
			err = len < 0;
			break;
		}
		err = add_link(g, paths, n, file, ++lineno, line);
	}
	free(line);
	fclose(f);
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &scenario_import_argp, 0, NULL, 0 }, { 0 }
	};
	static const struct argp argp = {
		NULL, parse_arg, "DEVICES LINKS", doc, children, NULL, NULL
	};
	struct dev_path *paths;
	struct args a = { 0 };
	struct scen_graph g;
	int n, i, err;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	paths = calloc(SCEN_MAX_DEVS, sizeof(*paths));
	if (!paths) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return 1;
	}
	n = read_devices(a.devices_file, paths);
	if (n < 0) {
		free(paths);
		return 1;
	}
	err = scenario_init(&g);
	if (err)
		fprintf(stderr, "sysfs2scen: out of memory\n");
	if (!err)
		err = add_devices(&g, paths, n);
	if (!err)
		err = read_links(&g, paths, n, a.links_file);
	if (!err)
		err = scenario_print_import(&g, &a.import, "sysfs2scen", a.devices_file);
	scenario_free(&g);
	for (i = 0; i < n; i++)
		free(paths[i].path);
	free(paths);
	return err ? 1 : 0;
}
