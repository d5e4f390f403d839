# The workbench's interface; README.md explains the targets, docs/reference.md the variables.
# Every target is a script under scripts/ or tests/ so it can be run by hand.

.PHONY: run shell check tree export series-check mutants bisect bench matrix distro send

run:
	@scripts/run-main.sh

shell:
	@scripts/run-main.sh shell

check:
	@scripts/check.sh

tree:
	@scripts/make-tree.sh

export:
	@scripts/export-series.sh

series-check:
	@scripts/series-check.sh

mutants:
	@tests/mutants.sh

bisect:
	@tests/bisect.sh

bench:
	@scripts/bench.sh

matrix:
	@scripts/matrix.sh

distro:
	@scripts/distro.sh

send:
	@scripts/send.sh

# make check's kernel with DWARF for drgn (configs/kdump.config)
.PHONY: kdump
kdump:
	@scripts/host-tools.sh
	@scripts/drgn-venv.sh
	@scripts/make-tree.sh
	@scripts/build-kernel.sh lm-y-debug-kdump guest $${GEOMETRY:-debian-arm64} local-mapping-y series-kunit debug numa paths memhotplug werror kdump
	@scripts/build-initramfs.sh lm-y-debug-kdump
	@scripts/check-kdump.sh lm-y-debug-kdump max
	@scripts/check-kdump.sh lm-y-debug-kdump cortex-a57

# make check's kernel as a KVM guest of itself at EL2, its vCPU threads
# moved between the host's CPUs (scripts/check-kvm-guest.sh); about 6 min
.PHONY: kvm-guest
kvm-guest:
	@scripts/host-tools.sh
	@scripts/make-tree.sh
	@scripts/build-kernel.sh lm-y-debug guest $${GEOMETRY:-debian-arm64} local-mapping-y series-kunit debug numa paths memhotplug werror
	@scripts/check-kvm-guest.sh lm-y-debug

# make bench's KVM path (several interleaved runs, pinned vCPUs, perf stat,
# medians and intervals) run by a guest booted at EL2, for a machine
# without KVM (scripts/bench-kvm-el2.sh); its figures are of no hardware
.PHONY: bench-kvm-el2
bench-kvm-el2:
	@scripts/bench-kvm-el2.sh
