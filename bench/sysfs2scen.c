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

static char *paths[SCEN_MAX_DEVS];
static const char *devices_file, *links_file;

static const char doc[] =
"Write a pmsynth scenario from a machine's sysfs device directories (DEVICES,\n"
"one path a line) and device links (LINKS, \"SUPPLIER CONSUMER\" paths a line).";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_ARG:
		if (state->arg_num == 0)
			devices_file = arg;
		else if (state->arg_num == 1)
			links_file = arg;
		else
			argp_error(state, "too many arguments");
		break;
	case ARGP_KEY_END:
		if (!links_file)
			argp_error(state, "need DEVICES and LINKS");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int find(const char *path)
{
	char **p = bsearch(&path, paths, scen_ndevs, sizeof(char *), cmp_str);

	return p ? (int)(p - paths) : -1;
}

static FILE *open_or_die(const char *file)
{
	FILE *f = fopen(file, "r");

	if (!f) {
		fprintf(stderr, "sysfs2scen: %s: %s\n", file, strerror(errno));
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &scenario_import_argp, 0, NULL, 0 }, { 0 }
	};
	static const struct argp argp = { NULL, parse_arg, "DEVICES LINKS", doc, children, NULL, NULL };
	char *line = NULL, *sup, *con, *slash;
	int n = 0, lineno = 0, i, p;
	size_t cap = 0;
	FILE *f;

	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	f = open_or_die(devices_file);
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0])
			continue;
		if (line[0] != '/') {
			fprintf(stderr, "sysfs2scen: %s:%d: '%s' is not an absolute path\n",
				devices_file, lineno, line);
			return 1;
		}
		if (n == SCEN_MAX_DEVS) {
			fprintf(stderr, "sysfs2scen: %s: more than %d devices\n",
				devices_file, SCEN_MAX_DEVS);
			return 1;
		}
		paths[n++] = strdup(line);
	}
	fclose(f);
	if (!n) {
		fprintf(stderr, "sysfs2scen: %s: no device paths\n", devices_file);
		return 1;
	}
	/* sorted, a parent directory comes before everything below it */
	qsort(paths, n, sizeof(char *), cmp_str);
	for (i = 0; i < n; i++) {
		char *dir = strdup(paths[i]);

		p = -1;
		while ((slash = strrchr(dir, '/')) && slash != dir) {
			*slash = '\0';
			scen_ndevs = i;	/* look only among the earlier ones */
			p = find(dir);
			if (p >= 0)
				break;
		}
		scen_ndevs = i;
		free(dir);
		scenario_add(strrchr(paths[i], '/') + 1, p);
	}

	f = open_or_die(links_file);
	lineno = 0;
	while (getline(&line, &cap, f) > 0) {
		char *save;

		lineno++;
		sup = strtok_r(line, " \t\r\n", &save);
		if (!sup)
			continue;
		con = strtok_r(NULL, " \t\r\n", &save);
		if (!con || strtok_r(NULL, " \t\r\n", &save)) {
			fprintf(stderr, "sysfs2scen: %s:%d: expected \"SUPPLIER CONSUMER\"\n",
				links_file, lineno);
			return 1;
		}
		if (find(sup) < 0 || find(con) < 0)
			scenario_unavailable();
		else
			scenario_link(find(con), find(sup));
	}
	fclose(f);
	free(line);

	scenario_print_import("sysfs2scen", devices_file);
	return 0;
}
