# pmlab - device power-management patch series and its QEMU/BPF lab.
#
#   make bench    build what is needed, run the benches in the guest, print the table
#   make check    build what is needed, run every host and guest test
#
# Other targets: deps kernel initramfs module pmsynth tools bpf guest debug checkpatch bisect
# fuzz clean.  make fuzz runs each libFuzzer harness of the host readers for FUZZ_TIME
# seconds (default 600; FUZZ= names a subset: records scenario dt-walk phase-parse).
# Variables: KCONFIG=lab|debug, JOB= (a lab/jobs guest job), ARGS=, SMP=, CLOCK=virtual|real,
# TIMEOUT=, M= (external module directory for "make module"); bench:
# SCENARIOS=, REPS=, JOBS= (bench/run-bench.sh).

TOP       := $(CURDIR)
BUILD     := $(TOP)/build
TREE      := $(BUILD)/linux
TARBALL   ?= /usr/src/linux-source-6.12.tar.xz
KCONFIG   ?= lab
JOBS      ?= 3

ifeq ($(KCONFIG),lab)
OBJ       := $(BUILD)/obj
FRAGMENTS := lab/kernel.config
else ifeq ($(KCONFIG),debug)
OBJ       := $(BUILD)/obj-debug
FRAGMENTS := lab/kernel.config lab/kernel-debug.config
else
$(error KCONFIG must be lab or debug, got '$(KCONFIG)')
endif

BZIMAGE   := $(OBJ)/arch/x86/boot/bzImage
INITRAMFS := $(BUILD)/initramfs.cpio
KMAKE     := $(MAKE) -C $(TREE) O=$(OBJ) ARCH=x86_64
# the kernel proper is built with M= cleared: "make module M=dir" exports M
GUEST_TOOLS := /usr/bin/bpftrace /usr/sbin/bpftool /usr/bin/trace-cmd /bin/busybox

export KERNEL := $(BZIMAGE)
export INITRAMFS

PMSYNTH   := lab/pmsynth/pmsynth.ko
TOOLS     := $(BUILD)/tools

.PHONY: fuzz all deps tree kernel initramfs module pmsynth tools bpf guest bench check debug checkpatch bisect clean

all: kernel initramfs pmsynth tools bpf

deps:
	@lab/deps.sh

# Unpack + apply the series (a no-op when the series is unchanged).
tree: deps
	@lab/kernel-tree.sh $(TARBALL) $(TREE) $(TOP)/patches

$(OBJ)/.pmlab-config: $(FRAGMENTS) lab/kernel-config.sh $(TREE)/.pmlab-series
	@lab/kernel-config.sh $(TREE) $(OBJ) $(FRAGMENTS)
	@touch $@

kernel: tree
	@$(MAKE) --no-print-directory $(OBJ)/.pmlab-config
	@echo "kernel: building $(BZIMAGE) (KCONFIG=$(KCONFIG))"
	@$(KMAKE) -s -j$(JOBS) M= bzImage modules
	@echo "kernel: $(BZIMAGE) ready"

$(INITRAMFS): lab/mkinitramfs.sh lab/guest/init lab/guest/pmlib.sh $(GUEST_TOOLS) | deps
	@mkdir -p $(BUILD)
	@lab/mkinitramfs.sh $@ lab/guest

initramfs: deps
	@$(MAKE) --no-print-directory $(INITRAMFS)

# Hook for out-of-tree modules: make module M=path/to/module
module: kernel
	@test -n "$(M)" || { echo "module: set M=<module directory>" >&2; exit 1; }
	@$(KMAKE) -s M=$(abspath $(M)) modules

# The synthetic-device module, built against the lab kernel.
pmsynth: kernel
	@$(KMAKE) -s M=$(TOP)/lab/pmsynth modules

# Host tools: scenario writers and analysis.
tools: deps
	@$(MAKE) -s -C bench O=$(TOOLS)

# BPF tools (vmlinux.h from the lab kernel's BTF) in build/bpf.
bpf: kernel
	@$(MAKE) -s -C bpf O=$(BUILD)/bpf VMLINUX=$(OBJ)/vmlinux

guest: kernel initramfs pmsynth
	@test -n "$(JOB)" || { echo "guest: set JOB=<name> (a guest job of lab/jobs)" >&2; exit 1; }
	@EXTRA="$(TOP)/$(PMSYNTH) $(EXTRA)" lab/run-guest.sh $(JOB) $(TOP)/results/guest/$(JOB) $(ARGS)

bench: kernel initramfs pmsynth tools bpf
	@bench/run-bench.sh $(TOP)/results/bench

check: kernel initramfs pmsynth tools bpf debug
	@tests/run-tests.sh

# libFuzzer harnesses of the host readers (records, scenario, DTB walk,
# phase-times lines) under ASan/UBSan, FUZZ_TIME seconds each; findings
# are saved in build/fuzz/fuzz-findings.
FUZZ_TIME ?= 600
fuzz: deps
	@$(MAKE) -s -C bench O=$(BUILD)/fuzz FUZZ_TIME=$(FUZZ_TIME) FUZZ="$(FUZZ)" fuzz

# The reliability kernel (KCONFIG=debug: lockdep, KASAN, atomic-sleep and
# hung-task checks) and pmsynth built for it in build/pmsynth-debug, for
# tests/guest/debug-kernel.t; built once, shared by its runs.
debug: tree
	@$(MAKE) --no-print-directory KCONFIG=debug kernel
	@mkdir -p $(BUILD)/pmsynth-debug
	@cp -p lab/pmsynth/Kbuild lab/pmsynth/*.c lab/pmsynth/*.h $(BUILD)/pmsynth-debug/
	@$(MAKE) -C $(TREE) O=$(BUILD)/obj-debug ARCH=x86_64 -s M=$(BUILD)/pmsynth-debug modules

# checkpatch.pl --strict over the series; fails on any finding.
checkpatch: tree
	@lab/checkpatch.sh $(TREE) $(TOP)/patches

# Build the kernel after each patch of the series (bisectability).
bisect: kernel
	@lab/bisect-series.sh $(TREE) $(OBJ)

clean:
	rm -rf $(BUILD) $(TOP)/results
