// SPDX-License-Identifier: GPL-2.0
/*
 * vfio-hold - open a PCI device as a user-space driver does, through its
 * VFIO no-IOMMU group, run a command while it is open, then close it.
 *
 * Usage: vfio-hold BDF COMMAND [ARG...]
 *
 * For the PCI runtime PM job (lab/jobs/pci-rpm.sh): vfio-pci keeps an idle
 * device runtime-suspended (D3hot) and resumes it when user space opens
 * it, until it is closed.  Prints "vfio-hold: BDF open: vendor V device D"
 * (the IDs read through the device's VFIO config region), runs COMMAND,
 * closes the device and exits with COMMAND's status; any VFIO step that
 * fails exits 2 with the step and the kernel's reason.
 *
 * Needs the vfio module's enable_unsafe_noiommu_mode set before vfio-pci
 * binds the device, and CAP_SYS_RAWIO (no-IOMMU groups).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/vfio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bdf;

static void die(const char *step)
{
	fprintf(stderr, "vfio-hold: %s: %s: %s\n", bdf, step, strerror(errno));
	exit(2);
}

/* a failed check that set no errno */
static void refuse(const char *step)
{
	fprintf(stderr, "vfio-hold: %s: %s\n", bdf, step);
	exit(2);
}

/* The no-IOMMU group node of @bdf: /dev/vfio/noiommu-N */
static void group_path(char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/iommu_group", bdf);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		die("no iommu_group (is vfio-pci bound, in no-IOMMU mode?)");
	target[n] = '\0';
	snprintf(buf, len, "/dev/vfio/noiommu-%s", basename(target));
}

int main(int argc, char **argv)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	struct vfio_region_info reg = {
		.argsz = sizeof(reg), .index = VFIO_PCI_CONFIG_REGION_INDEX,
	};
	int container, group, device, st;
	char path[PATH_MAX];
	uint16_t id[2];
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: vfio-hold BDF COMMAND [ARG...]\n");
		return 2;
	}
	bdf = argv[1];
	group_path(path, sizeof(path));
	container = open("/dev/vfio/vfio", O_RDWR);
	if (container < 0)
		die("open /dev/vfio/vfio");
	if (ioctl(container, VFIO_GET_API_VERSION) != VFIO_API_VERSION)
		refuse("not the VFIO API version this was built for");
	if (ioctl(container, VFIO_CHECK_EXTENSION, VFIO_NOIOMMU_IOMMU) <= 0)
		refuse("no VFIO_NOIOMMU_IOMMU (vfio's enable_unsafe_noiommu_mode off?)");
	group = open(path, O_RDWR);
	if (group < 0)
		die(path);
	if (ioctl(group, VFIO_GROUP_GET_STATUS, &status) < 0)
		die("VFIO_GROUP_GET_STATUS");
	if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE))
		refuse("group not viable (a device of the group has another driver)");
	if (ioctl(group, VFIO_GROUP_SET_CONTAINER, &container) < 0)
		die("VFIO_GROUP_SET_CONTAINER");
	if (ioctl(container, VFIO_SET_IOMMU, VFIO_NOIOMMU_IOMMU) < 0)
		die("VFIO_SET_IOMMU");
	device = ioctl(group, VFIO_GROUP_GET_DEVICE_FD, bdf);
	if (device < 0)
		die("VFIO_GROUP_GET_DEVICE_FD");
	if (ioctl(device, VFIO_DEVICE_GET_REGION_INFO, &reg) < 0)
		die("config region info");
	if (!(reg.flags & VFIO_REGION_INFO_FLAG_READ))
		refuse("config region not readable");
	errno = EIO;
	if (pread(device, id, sizeof(id), reg.offset) != sizeof(id))
		die("config region read");
	printf("vfio-hold: %s open: vendor 0x%04x device 0x%04x\n", bdf, le16toh(id[0]),
	       le16toh(id[1]));
	fflush(stdout);

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(device);
		close(group);
		close(container);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "vfio-hold: cannot run %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	close(device);
	close(group);
	close(container);
	printf("vfio-hold: %s closed\n", bdf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
