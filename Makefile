# pmlab - device power-management patch series and its QEMU/BPF lab.
#
# "make help" lists every target and variable: it prints the "#>" lines
# of this file, so each target and variable is documented where it is
# defined ("#> name  text" above a target, "#> NAME=default  text" above a
# variable) and tests/host/make-help.t fails when one is missing.

TOP       := $(CURDIR)
BUILD     := $(TOP)/build
#> LINUX=6.12  the kernel version built: 6.12 (the series' base) or 6.1 (with SERIES=none: Debian's linux-source-6.1)
LINUX     ?= 6.12
#> TARBALL=/usr/src/linux-source-$(LINUX).tar.xz  the kernel source
TARBALL   ?= /usr/src/linux-source-$(LINUX).tar.xz
#> SERIES=patches  the patches applied to the tree; none: the stock kernel (build/linux-$(LINUX)-stock, build/obj-$(LINUX)-stock)
SERIES    ?= patches
#> KCONFIG=lab  lab | debug (lockdep, KASAN, hung-task checks: build/obj-debug) for make kernel
KCONFIG   ?= lab
#> JOBS=3  kernel build jobs; for make bench, virtual-clock guests side by side (default 2)
JOBS      ?= 3

ifeq ($(SERIES),patches)
ifneq ($(LINUX),6.12)
$(error the series applies to 6.12, LINUX=$(LINUX) is for SERIES=none (the stock kernel))
endif
TREE      := $(BUILD)/linux
PATCHDIR  := $(TOP)/patches
OBJ_SUFFIX :=
else ifeq ($(SERIES),none)
ifneq ($(filter-out 6.12 6.1,$(LINUX)),)
$(error LINUX must be 6.12 or 6.1, got '$(LINUX)')
endif
TREE      := $(BUILD)/linux-$(LINUX)-stock
PATCHDIR  := none
OBJ_SUFFIX := -$(LINUX)-stock
else
$(error SERIES must be patches or none, got '$(SERIES)')
endif

ifeq ($(KCONFIG),lab)
OBJ       := $(BUILD)/obj$(OBJ_SUFFIX)
FRAGMENTS := lab/kernel.config
else ifeq ($(KCONFIG),debug)
ifeq ($(SERIES),none)
$(error KCONFIG=debug is the series' kernel: no SERIES=none)
endif
OBJ       := $(BUILD)/obj-debug
FRAGMENTS := lab/kernel.config lab/kernel-debug.config
else
$(error KCONFIG must be lab or debug, got '$(KCONFIG)')
endif
# the lab kernel (the series, lab configuration): pmtrace's BTF, pmsynth's build
LAB_OBJ   := $(BUILD)/obj

BZIMAGE   := $(OBJ)/arch/x86/boot/bzImage
KMAKE     := $(MAKE) -C $(TREE) O=$(OBJ) ARCH=x86_64
# the kernel proper is built with M= cleared: "make module M=dir" exports M
GUEST_TOOLS := /usr/bin/bpftrace /usr/sbin/bpftool /usr/bin/trace-cmd /bin/busybox
PMSYNTH   := lab/pmsynth/pmsynth.ko
TOOLS     := $(BUILD)/tools

#> INITRAMFS=build/initramfs.cpio  the guest's base initramfs (tools, init)
INITRAMFS ?= $(BUILD)/initramfs.cpio
export INITRAMFS

# Your own kernel: KERNEL= (environment or command line) boots that bzImage
# in make guest/run/shell instead of the lab kernel, which is then not
# built; pmsynth is built against KSRC (its build directory) in
# build/pmsynth-own, after lab/own-kernel.sh checked its .config.
#> KERNEL=build/obj/arch/x86/boot/bzImage  the bzImage make guest/run/shell boot (yours: see KSRC)
#> KSRC=  your kernel's build directory (.config, Module.symvers); default: KERNEL's, 4 levels up
ifeq ($(origin KERNEL),undefined)
KERNEL    := $(BZIMAGE)
endif
ifeq ($(abspath $(KERNEL)),$(BZIMAGE))
GUEST_DEPS    := kernel pmsynth bpf
GUEST_PMSYNTH := $(TOP)/$(PMSYNTH)
GUEST_PMTRACE := $(BUILD)/bpf/pmtrace
else
OWN_KERNEL    := 1
KSRC          ?= $(abspath $(dir $(KERNEL))../../..)
GUEST_DEPS    := own-pmsynth
GUEST_PMSYNTH := $(BUILD)/pmsynth-own/pmsynth.ko
# pmtrace is CO-RE: the lab build runs on your kernel when it has the events
GUEST_PMTRACE := $(wildcard $(BUILD)/bpf/pmtrace)
ifneq ($(filter bench sweep check bisect,$(MAKECMDGOALS)),)
$(error make $(filter bench sweep check bisect,$(MAKECMDGOALS)) works on the lab kernel (the series); KERNEL=$(KERNEL) is for make guest, run and shell)
endif
endif
export KERNEL
ifneq ($(strip $(KSRC)),)
export KSRC
endif

#> SCENARIO=dag-100  make guest/run/shell: a scenario name (bench/scenarios) or file loaded in pmsynth; none: no synthetic devices
#> SCENARIOS=  make bench: scenario names or files (default: the eight of bench/run-bench.sh)
#> REPS=3  make bench: transitions per mode and scenario
#> RPM_CHAIN=1 10 40  make bench: chain lengths of the runtime PM latency rows (none: no rows; 6.12 overflows its stack near 57)
#> RPM_ROUNDS=50  make bench: rounds per chain length and request kind (sync, queued)
#> RPM_LAT_US=100  make bench: each runtime callback's sleep in the latency row, us
#> PCI_RPM=1  make bench: the PCI runtime PM rows (an NVMe controller under vfio-pci on q35; 0: no rows)
#> BATTERY_REPS=3  make bench: transitions per mode of the ACPI battery rows (0: no rows)
#> BATTERY_SYNC=20  make bench: the synchronous 1-ms devices after the battery in its second row
#> TUNE=dt-sdm845-db845c-realistic  make bench: the async tuner's rows' scenario (none: no rows)
#> SWEEP_SHAPES=tree dag  make sweep: scenario shapes (scengen)
#> SWEEP_DEVICES=100 250 500 1000 2000  make sweep: device counts of the curve against devices (4 vCPUs)
#> SWEEP_CPUS=1 3 4 8  make sweep: vCPU counts of the curve against vCPUs (2 stalls on QEMU 7.2's virtual clock)
#> SWEEP_AT=500  make sweep: the device count of the curve against vCPUs
#> SWEEP_SPIN=100 250 500 1000  make sweep: device counts of the spin DAG on the real clock (none: no spin points)
#> SSHLOGIN=  make sweep: GNU parallel --sshlogin hosts that run points too (same checkout path, shared results)
#> JOB=  make guest: the guest job to run (make list shows them)
#> ARGS=  make guest: the job's arguments
#> CMD=  make run: a shell command line run in the guest
#> SCRIPT=  make run: a script file of yours run in the guest (instead of CMD)
#> EXTRA=  more files or directories for the guest's /pmlab
#> SMP=4  guest vCPUs
#> MEM=2G  guest RAM
#> CLOCK=virtual  virtual (-icount: deterministic, one instruction clock for all vCPUs) | real
#> ACCEL=auto  auto | tcg | kvm (auto: KVM only on the real clock and only if a probe boot works)
#> TIMEOUT=600  seconds before a guest is killed (make shell: none unless set)
#> APPEND=  more kernel command-line arguments for the guest
#> MACHINE=  QEMU machine, pc or q35, for make guest/run/shell (default: the job's qemu-machine line, else pc)
#> DEVICES=  more QEMU -device specs for the guest, e.g. nvme,serial=x (default: the job's qemu-devices line)
#> ACPI_TABLES=  compiled ACPI tables (.aml) for the guest's firmware, e.g. build/acpi/battery.aml
#> LIVE=  1: stream the guest's console while it runs (make run and make shell always do)
#> M=  make module: an out-of-tree module directory
#> FUZZ_TIME=600  make fuzz: seconds per harness
#> FUZZ=  make fuzz: some of the harnesses (records scenario dt-walk phase-parse)
FUZZ_TIME ?= 600

# CMD, ARGS and APPEND reach the guest as typed: make does not expand them
# (a $ in CMD='echo $((6 * 7))' is the shell's); each is handed to the
# script single-quoted, only when set.
shell-quote = '$(subst ','\'',$(1))'
as-typed = $(foreach v,CMD ARGS APPEND,$(if $(filter undefined,$(origin $(v))),,$(v)=$(call shell-quote,$(value $(v)))))
unexport CMD ARGS APPEND

.PHONY: help list all deps tree kernel initramfs module pmsynth own-pmsynth tools bpf acpi guest run shell tune soak stock \
	bench sweep check debug checkpatch bisect fuzz clean

#> help  this list
help:
	@lab/make-help.sh help Makefile

#> list  the scenarios and guest jobs, a line each (test fixtures apart)
list:
	@lab/make-help.sh list Makefile

#> all  everything make bench needs (kernel, initramfs, pmsynth, tools, bpf, acpi)
all: kernel initramfs pmsynth tools bpf acpi

#> deps  install the missing Debian packages (quick when all are present)
deps:
	@lab/deps.sh $(if $(filter-out 6.12,$(LINUX)),linux-source-$(LINUX))

#> tree  unpack the kernel into build/linux and apply patches/series (no-op when unchanged)
tree: deps
	@lab/kernel-tree.sh $(TARBALL) $(TREE) $(PATCHDIR)

$(OBJ)/.pmlab-config: $(FRAGMENTS) lab/kernel-config.sh $(TREE)/.pmlab-series
	@ALLOW_UNKNOWN=$(if $(filter-out 6.12,$(LINUX)),1) lab/kernel-config.sh $(TREE) $(OBJ) $(FRAGMENTS)
	@touch $@

#> kernel  configure (tinyconfig + lab/kernel.config) and build the lab kernel's bzImage
kernel: tree
	@$(MAKE) --no-print-directory $(OBJ)/.pmlab-config
	@echo "kernel: building $(BZIMAGE) (KCONFIG=$(KCONFIG))"
	@$(KMAKE) -s -j$(JOBS) M= bzImage modules
	@echo "kernel: $(BZIMAGE) ready"

$(BUILD)/initramfs.cpio: lab/mkinitramfs.sh lab/guest/init lab/guest/pmlib.sh $(GUEST_TOOLS) | deps
	@mkdir -p $(BUILD)
	@lab/mkinitramfs.sh $@ lab/guest

# make soak's: busybox and the init alone
$(BUILD)/initramfs-lean.cpio: lab/mkinitramfs.sh lab/guest/init lab/guest/pmlib.sh /bin/busybox | deps
	@mkdir -p $(BUILD)
	@LEAN=1 lab/mkinitramfs.sh $@ lab/guest

# guest helpers built here, passed to the jobs that use them in EXTRA
GUEST_HELPERS := $(BUILD)/guest/vfio-hold
$(BUILD)/guest/%: lab/guest/%.c | deps
	@mkdir -p $(BUILD)/guest
	@$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

#> initramfs  build/initramfs.cpio (busybox, bpftrace, bpftool, trace-cmd, the guest init), build/initramfs-lean.cpio (busybox and the init: make soak) and build/guest's helpers
initramfs: deps
	@$(MAKE) --no-print-directory $(BUILD)/initramfs.cpio $(BUILD)/initramfs-lean.cpio $(GUEST_HELPERS)

#> module  build the out-of-tree module in M= against the lab kernel
module: kernel
	@test -n "$(M)" || { echo "module: set M=<module directory>" >&2; exit 1; }
	@$(KMAKE) -s M=$(abspath $(M)) modules

#> pmsynth  the synthetic-device module lab/pmsynth/pmsynth.ko (KSRC=: for your kernel; SERIES=none: build/pmsynth-$(LINUX)-stock)
ifeq ($(SERIES),none)
pmsynth: kernel
	@lab/own-kernel.sh $(OBJ) $(BUILD)/pmsynth$(OBJ_SUFFIX)
else ifeq ($(strip $(KSRC)),)
pmsynth: kernel
	@$(KMAKE) -s M=$(TOP)/lab/pmsynth modules
else
pmsynth: own-pmsynth
endif

# Your kernel (KERNEL=, KSRC=): its .config checked against what the lab
# needs (lab/kernel-required.config), pmsynth built for it in build/pmsynth-own
own-pmsynth: deps
	@test -f "$(KERNEL)" || { echo "own-kernel: KERNEL=$(KERNEL) is not a file (a bzImage)" >&2; exit 1; }
	@lab/own-kernel.sh "$(KSRC)" $(BUILD)/pmsynth-own

#> tools  host tools in build/tools: critpath, phase-times, rpm-latency, rpm-callbacks, flamefold, trace-events, scengen, dt2scen, sysfs2scen
tools: deps
	@$(MAKE) -s -C bench O=$(TOOLS)

#> bpf  build/bpf/pmtrace (vmlinux.h generated from the lab kernel's BTF; it runs on the stock kernels too)
bpf: kernel
	@$(MAKE) -s -C bpf O=$(BUILD)/bpf VMLINUX=$(LAB_OBJ)/vmlinux

ACPI_AML := $(patsubst lab/acpi/%.asl,$(BUILD)/acpi/%.aml,$(wildcard lab/acpi/*.asl))
$(BUILD)/acpi/%.aml: lab/acpi/%.asl | deps
	@mkdir -p $(BUILD)/acpi
	@iasl -p $(basename $@) $< > $(BUILD)/acpi/$*.log 2>&1 || \
		{ cat $(BUILD)/acpi/$*.log >&2; rm -f $@; exit 1; }

#> acpi  the guest's extra ACPI tables: build/acpi/battery.aml (a PNP0C0A battery, iasl)
acpi: $(ACPI_AML)

# what make guest/run/shell put in the guest's /pmlab besides EXTRA
LAB_FILES = $(GUEST_PMSYNTH) $(GUEST_PMTRACE) $(GUEST_HELPERS) $(wildcard $(TOP)/tracepoints/*.bt)

#> guest  boot and run one guest job: make guest JOB=name [ARGS=...] [SCENARIO=...]
guest: $(GUEST_DEPS) initramfs tools
	@$(as-typed) LAB_FILES="$(LAB_FILES)" lab/lab-run.sh job "$(JOB)" $(TOP)/results/guest

#> run  run CMD='...' or SCRIPT=file in the guest with the lab's setup, output live
run: $(GUEST_DEPS) initramfs tools
	@$(as-typed) LAB_FILES="$(LAB_FILES)" lab/lab-run.sh run "" $(TOP)/results/run

#> shell  an interactive shell in the guest on its serial console (Ctrl-A x quits QEMU)
shell: $(GUEST_DEPS) initramfs tools
	@$(as-typed) LAB_FILES="$(LAB_FILES)" lab/lab-run.sh shell "" $(TOP)/results/shell

#> bench  build what is needed, run the benches in the guest, print the table
bench: kernel initramfs pmsynth tools bpf acpi
	@bench/run-bench.sh $(TOP)/results/bench

#> sweep  speed-up curves against devices and vCPUs (bench/sweep.sh, GNU parallel; resumes)
sweep: kernel initramfs pmsynth tools bpf
	@bench/sweep.sh $(TOP)/results/sweep

#> tune  the async opt-in tuner in the guest: measure, recommend, measure again (SCENARIO=, REPS=)
tune: kernel initramfs pmsynth tools bpf
	@bench/tune.sh $(or $(SCENARIO),dt-sdm845-db845c-realistic) $(TOP)/results/tune

#> soak  randomized transitions with faults on the debug kernel until the first failure (SEED=, ROUNDS=, PER_ROUND=, JOBS=)
soak: debug initramfs tools
	@bench/soak.sh $(TOP)/results/soak

#> check  build what is needed, run every host and guest test
check: kernel initramfs pmsynth tools bpf acpi debug
	@tests/run-tests.sh

#> fuzz  the libFuzzer harnesses of the host readers under ASan/UBSan, FUZZ_TIME s each
fuzz: deps
	@$(MAKE) -s -C bench O=$(BUILD)/fuzz FUZZ_TIME=$(FUZZ_TIME) FUZZ="$(FUZZ)" fuzz

#> debug  the reliability kernel (KCONFIG=debug) and pmsynth for it, for make check
debug: tree
	@$(MAKE) --no-print-directory KCONFIG=debug kernel
	@mkdir -p $(BUILD)/pmsynth-debug
	@cp -p lab/pmsynth/Kbuild lab/pmsynth/*.c lab/pmsynth/*.h $(BUILD)/pmsynth-debug/
	@$(MAKE) -C $(TREE) O=$(BUILD)/obj-debug ARCH=x86_64 -s M=$(BUILD)/pmsynth-debug modules

#> stock  the stock 6.12 kernel (the lab configuration, no series: build/obj-6.12-stock), for make check; 6.1: make kernel SERIES=none LINUX=6.1
stock:
	@$(MAKE) --no-print-directory SERIES=none LINUX=6.12 kernel

#> checkpatch  checkpatch.pl --strict over the series; fails on any finding
checkpatch: tree
	@lab/checkpatch.sh $(TREE) $(TOP)/patches

#> bisect  build the kernel after each patch of the series
bisect: tree
	@lab/bisect-series.sh $(TREE) $(BUILD)/bisect

#> clean  remove build/ and results/
clean:
	rm -rf $(BUILD) $(TOP)/results
