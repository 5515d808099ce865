// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs2scen - a pmsynth scenario from a running machine's device graph.
 *
 *   sysfs2scen devices.txt links.txt > machine.txt
 *   sysfs2scen --sysfs[=ROOT] > machine.txt
 *
 * where devices.txt and links.txt are what bench/sysfs-list.sh writes on
 * the machine to import (a device directory a line, with its subsystem,
 * power/async, whether it has power/ (pm), of_node and
 * waiting_for_supplier after a tab; "SUPPLIER
 * CONSUMER" per /sys/class/devlink entry); --sysfs reads the same two
 * lists from the running system's sysfs (or a copy of it at ROOT), only
 * reading.  A bare path (no tab) is a device with no attributes: sync,
 * dependencies unknown.
 *
 * Every directory of DEVICES becomes a device, under the nearest of its
 * ancestor directories that is also listed (the sysfs device tree),
 * except those with pm=0: a device the PM core does not list
 * (device_pm_not_required(): no power/ directory, no callbacks, no
 * record in a transition) is left out, its children under its ancestor.  Every
 * "SUPPLIER CONSUMER" line of LINKS becomes a pm_link (master = supplier),
 * under the rules of scenario_link(): no self/ancestor links, duplicates
 * merged, a link that would close a cycle dropped (first come, first
 * kept).  Blank lines (the loop above prints one when there are no device
 * links) are skipped; a line naming a device not in DEVICES is counted as
 * unavailable.  Latencies: the import model of scenario-model.h.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scenario-graph.h"

struct args {
	const char *devices_file, *links_file;
	const char *sysfs;		/* --sysfs: read this sysfs root */
	struct scen_import_opts import;
};

/* The device paths, sorted: path i is device i of the graph. */
struct dev_path {
	char *path;
	int line;		/* in DEVICES */
	/* from the line's attributes; -1: not given */
	int async;		/* power/async: enabled 1, disabled 0 */
	int of_node;		/* has a devicetree node */
	int waiting;		/* waiting_for_supplier */
	int pm;			/* has power/ (the PM core lists it) */
	char subsystem[64];	/* "bus/pci", "class/net"; "" not given */
};

/*
 * The subsystems whose devices Linux 6.12 makes asynchronous
 * (device_enable_async_suspend() in their cores), as the device's
 * "subsystem" link names them.
 */
static const char *const async_subsystems[] = {
	"bus/pci", "bus/pci_express", "bus/usb", "bus/usb-serial", "bus/scsi",
	"class/scsi_host", "class/scsi_device", "bus/i2c", "bus/hid", "bus/mmc",
	"bus/sdio", "class/mmc_host", "bus/mei", "bus/hdaudio", "class/ieee80211",
};

static const char doc[] =
"Write a pmsynth scenario from a machine's sysfs device directories (DEVICES,\n"
"one path a line) and device links (LINKS, \"SUPPLIER CONSUMER\" paths a line),\n"
"or from this machine's sysfs itself (--sysfs; nothing is written there)."
"\v"
"Making DEVICES and LINKS on the machine to import (any user can read them):\n"
"  bench/sysfs-list.sh DIR     (DIR/devices.txt, DIR/links.txt)\n"
"then, anywhere:\n"
"  sysfs2scen DIR/devices.txt DIR/links.txt > machine.txt\n"
"A DEVICES line is a path, optionally a tab and KEY=VALUE attributes:\n"
"subsystem=bus/NAME|class/NAME, async=enabled|disabled (power/async),\n"
"of_node=0|1, waiting_for_supplier=0|1, pm=0|1 (has power/; pm=0: left out,\n"
"the PM core does not list it).  A device is async as power/async\n"
"says, else as 6.12 makes its subsystem; its dependencies count as known\n"
"when it is async that way, or it has a DT node and no supplier waited for\n"
"(bench/scenarios/README.md).\n"
"or, on that machine, in one step:\n"
"  sysfs2scen --sysfs > machine.txt\n"
"  sysfs2scen --sysfs=/mnt/copy-of-sys > machine.txt\n";

enum { OPT_SYSFS = 0x100 };

static const struct argp_option options[] = {
	{ "sysfs", OPT_SYSFS, "ROOT", OPTION_ARG_OPTIONAL,
	  "read the device directories and device links from sysfs at ROOT (default /sys) "
	  "instead of DEVICES and LINKS", 0 },
	{ 0 }
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->import;
		break;
	case OPT_SYSFS:
		a->sysfs = arg ? arg : "/sys";
		break;
	case ARGP_KEY_ARG:
		if (a->sysfs)
			argp_error(state, "--sysfs reads sysfs itself: no DEVICES or LINKS");
		if (state->arg_num == 0)
			a->devices_file = arg;
		else if (state->arg_num == 1)
			a->links_file = arg;
		else
			argp_error(state, "too many arguments");
		break;
	case ARGP_KEY_END:
		if (!a->links_file && !a->sysfs)
			argp_error(state, "need DEVICES and LINKS, or --sysfs");
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
	struct dev_path key = { .path = (char *)path };
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

/* "KEY=VALUE ..." after a DEVICES line's tab, into @d; 0 or -1 (said). */
static int parse_attrs(struct dev_path *d, const char *file, int lineno, char *attrs)
{
	char *save, *tok, *val;

	for (tok = strtok_r(attrs, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		val = strchr(tok, '=');
		if (!val)
			goto bad;
		*val = '\0';
		val++;
		if (!strcmp(tok, "async") && !strcmp(val, "enabled"))
			d->async = 1;
		else if (!strcmp(tok, "async") && !strcmp(val, "disabled"))
			d->async = 0;
		else if (!strcmp(tok, "of_node") && (!strcmp(val, "0") || !strcmp(val, "1")))
			d->of_node = *val - '0';
		else if (!strcmp(tok, "waiting_for_supplier") &&
			 (!strcmp(val, "0") || !strcmp(val, "1")))
			d->waiting = *val - '0';
		else if (!strcmp(tok, "pm") && (!strcmp(val, "0") || !strcmp(val, "1")))
			d->pm = *val - '0';
		else if (!strcmp(tok, "subsystem") && *val && strlen(val) < sizeof(d->subsystem))
			snprintf(d->subsystem, sizeof(d->subsystem), "%s", val);
		else
			goto bad;
	}
	return 0;
bad:
	if (val)
		val[-1] = '=';	/* the whole KEY=VALUE in the message */
	fprintf(stderr, "sysfs2scen: %s:%d: '%s' is not one of async=enabled|disabled, "
			"of_node=0|1, waiting_for_supplier=0|1, pm=0|1, subsystem=bus/NAME|class/NAME\n",
		file, lineno, tok);
	return -1;
}

/* devices left out: without power/, which the PM core does not list */
static int not_pm;

/*
 * One DEVICES line (not blank) into @paths[*@n], unless it says pm=0;
 * 0 or -1 (said).
 */
static int add_path(struct dev_path *paths, int *n, const char *file, int lineno,
		    char *line)
{
	char *tab = strchr(line, '\t');
	struct dev_path *d = &paths[*n];

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
	d->async = -1;
	d->of_node = -1;
	d->waiting = -1;
	d->pm = -1;
	d->subsystem[0] = '\0';
	if (tab) {
		*tab = '\0';
		if (parse_attrs(d, file, lineno, tab + 1))
			return -1;
	}
	if (!d->pm) {		/* device_pm_not_required(): no part in a transition */
		not_pm++;
		return 0;
	}
	d->path = strdup(line);
	if (!d->path) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return -1;
	}
	d->line = lineno;
	(*n)++;
	return 0;
}

static bool async_subsystem(const char *subsystem)
{
	size_t i;

	for (i = 0; i < sizeof(async_subsystems) / sizeof(async_subsystems[0]); i++)
		if (!strcmp(subsystem, async_subsystems[i]))
			return true;
	return false;
}

/*
 * Device @d's async flag and whether its dependencies are all known:
 * async from power/async when the line gives it, else from its subsystem
 * (async_subsystems[]).  Known: it is async by the kernel's own choice (its
 * subsystem vouches for its dependencies), or it has a devicetree node and
 * no supplier fw_devlink still waits for (every DT dependency linked).
 */
static void async_flags(const struct dev_path *d, struct scen_dev *sd)
{
	bool sub = async_subsystem(d->subsystem);

	sd->async = d->async >= 0 ? d->async : sub;
	sd->deps_unknown = !(d->async >= 0 ? d->async : sub) &&
			   !(d->of_node == 1 && d->waiting == 0);
}

/* DEVICES (@f, named @file) into @paths, sorted; their number, or -1 (said). */
static int read_devices(FILE *f, const char *file, struct dev_path *paths)
{
	char *line = NULL;
	size_t cap = 0;
	int n = 0, lineno = 0, i, err = 0, first, again;
	ssize_t len;

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
		async_flags(&paths[i], &g->devs[i]);
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
		/* a consumer whose supplier is not listed: a dependency lost */
		if (c >= 0)
			g->devs[c].deps_unknown = 1;
		scenario_unavailable(g);
		return 0;
	}
	switch (scenario_link(g, c, s)) {
	case SCEN_NOMEM:
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return -1;
	case SCEN_CYCLE:
		g->devs[c].deps_unknown = 1;	/* dropped to break a cycle */
		break;
	default:
		break;
	}
	return 0;
}

/* LINKS (@f, named @file) into @g's pm_links; 0 or -1 (said). */
static int read_links(struct scen_graph *g, const struct dev_path *paths, int n,
		      FILE *f, const char *file)
{
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, err = 0;
	ssize_t len;

	while (!err) {
		len = next_line(f, file, lineno + 1, &line, &cap);
		if (len <= 0) {
			err = len < 0;
			break;
		}
		err = add_link(g, paths, n, file, ++lineno, line);
	}
	free(line);
	return err ? -1 : 0;
}

static FILE *walk_out;

/* @path/@name's first line into @buf (@size), "" when unreadable. */
static void read_attr(const char *path, const char *name, char *buf, size_t size)
{
	char f[PATH_MAX + 64];
	FILE *in;

	buf[0] = '\0';
	snprintf(f, sizeof(f), "%s/%s", path, name);
	in = fopen(f, "r");
	if (!in)
		return;
	if (!fgets(buf, size, in))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(in);
}

/* A device's line: its path, a tab, the attributes parse_attrs() reads. */
static void print_dev(const char *path)
{
	char f[PATH_MAX + 64], link[PATH_MAX], v[32], *cls;
	ssize_t len;

	fprintf(walk_out, "%s\t", path);
	snprintf(f, sizeof(f), "%s/subsystem", path);
	len = readlink(f, link, sizeof(link) - 1);
	if (len > 0) {
		link[len] = '\0';
		cls = strrchr(link, '/');
		while (cls && cls > link && cls[-1] != '/')
			cls--;		/* "bus/pci" of "../../../bus/pci" */
		if (cls && strlen(cls) < sizeof(((struct dev_path *)0)->subsystem))
			fprintf(walk_out, "subsystem=%s ", cls);
	}
	read_attr(path, "power/async", v, sizeof(v));
	if (!strcmp(v, "enabled") || !strcmp(v, "disabled"))
		fprintf(walk_out, "async=%s ", v);
	snprintf(f, sizeof(f), "%s/power", path);
	fprintf(walk_out, "pm=%d ", !access(f, F_OK));
	snprintf(f, sizeof(f), "%s/of_node", path);
	fprintf(walk_out, "of_node=%d", !access(f, F_OK));
	read_attr(path, "waiting_for_supplier", v, sizeof(v));
	if (!strcmp(v, "0") || !strcmp(v, "1"))
		fprintf(walk_out, " waiting_for_supplier=%s", v);
	fputc('\n', walk_out);
}

/* nftw: every directory with a "uevent" file is a device. */
static int walk_dev(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char uevent[PATH_MAX];

	(void)st;
	(void)ftw;
	if (type != FTW_D)
		return 0;
	if (snprintf(uevent, sizeof(uevent), "%s/uevent", path) < (int)sizeof(uevent) &&
	    !access(uevent, F_OK))
		print_dev(path);
	return 0;
}

/* ROOT/class/devlink/ * as "SUPPLIER CONSUMER" lines on @out; 0 or -1. */
static int walk_links(const char *root, FILE *out)
{
	char dir[PATH_MAX + 16], l[2 * PATH_MAX], sup[PATH_MAX], con[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/devlink", root);
	d = opendir(dir);
	if (!d)		/* a kernel before device links: none */
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(l, sizeof(l), "%s/%s/supplier", dir, e->d_name);
		if (!realpath(l, sup))
			continue;
		snprintf(l, sizeof(l), "%s/%s/consumer", dir, e->d_name);
		if (!realpath(l, con))
			continue;
		fprintf(out, "%s %s\n", sup, con);
	}
	closedir(d);
	return 0;
}

/*
 * The DEVICES and LINKS lists of the sysfs at @root, in memory (*@devs,
 * *@links, opened for reading); 0, or -1 with the cause on stderr.
 */
static int read_sysfs(const char *root, FILE **devs, FILE **links)
{
	static char *dbuf, *lbuf;
	size_t dlen, llen;
	char top[PATH_MAX], devices[PATH_MAX + 16];
	FILE *d, *l;
	int err;

	if (!realpath(root, top)) {
		fprintf(stderr, "sysfs2scen: --sysfs=%s: %s\n", root, strerror(errno));
		return -1;
	}
	snprintf(devices, sizeof(devices), "%s/devices", top);
	d = open_memstream(&dbuf, &dlen);
	l = open_memstream(&lbuf, &llen);
	if (!d || !l) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return -1;
	}
	walk_out = d;
	err = nftw(devices, walk_dev, 64, FTW_PHYS);
	if (err)
		fprintf(stderr, "sysfs2scen: --sysfs: walking %s: %s\n", devices,
			err < 0 ? strerror(errno) : "stopped");
	if (!err && walk_links(top, l)) {
		fprintf(stderr, "sysfs2scen: --sysfs: %s/class/devlink: %s\n", top,
			strerror(errno));
		err = -1;
	}
	fclose(d);
	fclose(l);
	if (err)
		return -1;
	*devs = dlen ? fmemopen(dbuf, dlen, "r") : fopen("/dev/null", "r");
	*links = llen ? fmemopen(lbuf, llen, "r") : fopen("/dev/null", "r");
	if (!*devs || !*links) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return -1;
	}
	return 0;
}

/* DEVICES and LINKS opened, or made from --sysfs; 0 or -1 (said). */
static int open_inputs(struct args *a, FILE **devs, FILE **links)
{
	static char dname[PATH_MAX + 16], lname[PATH_MAX + 32];

	if (a->sysfs) {
		snprintf(dname, sizeof(dname), "%s/devices", a->sysfs);
		snprintf(lname, sizeof(lname), "%s/class/devlink", a->sysfs);
		a->devices_file = dname;
		a->links_file = lname;
		return read_sysfs(a->sysfs, devs, links);
	}
	*devs = fopen(a->devices_file, "r");
	if (!*devs) {
		fprintf(stderr, "sysfs2scen: %s: %s\n", a->devices_file, strerror(errno));
		return -1;
	}
	*links = fopen(a->links_file, "r");
	if (!*links) {
		fprintf(stderr, "sysfs2scen: %s: %s\n", a->links_file, strerror(errno));
		fclose(*devs);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &scenario_import_argp, 0, NULL, 0 }, { 0 }
	};
	static const struct argp argp = {
		options, parse_arg, "DEVICES LINKS", doc, children, NULL, NULL
	};
	struct dev_path *paths;
	struct args a = { 0 };
	FILE *devs, *links;
	struct scen_graph g;
	int n, i, err;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	if (open_inputs(&a, &devs, &links))
		return 1;
	paths = calloc(SCEN_MAX_DEVS, sizeof(*paths));
	if (!paths) {
		fprintf(stderr, "sysfs2scen: out of memory\n");
		return 1;
	}
	n = read_devices(devs, a.devices_file, paths);
	fclose(devs);
	if (n >= 0 && not_pm)
		fprintf(stderr, "sysfs2scen: %d devices without power/ (not PM-managed: no part in "
				"a transition) left out\n",
			not_pm);
	if (n < 0) {
		fclose(links);
		free(paths);
		return 1;
	}
	err = scenario_init(&g);
	if (err)
		fprintf(stderr, "sysfs2scen: out of memory\n");
	if (!err)
		err = add_devices(&g, paths, n);
	if (!err)
		err = read_links(&g, paths, n, links, a.links_file);
	fclose(links);
	if (!err)
		err = scenario_print_import(&g, &a.import, "sysfs2scen", a.devices_file);
	scenario_free(&g);
	for (i = 0; i < n; i++)
		free(paths[i].path);
	free(paths);
	return err ? 1 : 0;
}
