#!/usr/bin/env bash
# make bench's KVM path, end to end, on a machine without KVM: the quick
# plan's kernels (7.4's way, =n, =y) built as bench.sh builds them for a KVM
# host (BENCH_BUILD_ONLY), then booted BENCH_RUNS times each (default 2),
# interleaved, with -accel kvm -cpu host and pinned vCPU threads, by a
# guest booted at EL2 that runs KVM (guest/checks/kvm_bench, as make
# kvm-guest does; its kernel =n's with KVM and the PMU driver, which KVM
# needs to give its guests a PMU); the run ends as bench.sh's does
# (bench-summary.sh): the report, with perf stat's counters, and the runs'
# medians and intervals.  The vCPUs under it are QEMU's TCG: the figures
# are of no machine; what this shows is that the hardware path runs and
# reports.  Writes build/bench-quick-kvm/ (report.md, stats.md).
#
# usage: bench-kvm-el2.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

host=bench-kvm-host
export BENCH_RUNS=${BENCH_RUNS:-2}
ACCEL=kvm BENCH_QUICK=1 BENCH_VARIANTS="m n y" BENCH_BUILD_ONLY=1 BENCH_KBUILD=1 \
	BENCH_KBUILD_CPUS=2 "$top/scripts/bench.sh"
logs=$LOGS/bench-quick-kvm
results=$BUILD/bench-quick-kvm
# shellcheck disable=SC1091
. "$logs/run.env"
"$top/scripts/build-kernel.sh" "$host" guest "$GEOMETRY" local-mapping-n bench perf kvm-host

# The EL2 guest's initramfs: make kvm-guest's (Debian's QEMU in it), with
# each kernel of the plan, its workload initramfs (the one bench.sh built),
# the plain one for the memory boots, and the plan's parameters.
"$top/scripts/build-initramfs.sh" "$host" --kvm-host
root=$BUILD/out/$host/initramfs-kvm-bench
rm -rf "$root"
cp -a "$BUILD/out/$host/initramfs-kvm-host" "$root"
rm -rf "$root/l2"
mkdir -p "$root/l2/bench"
for v in $variants; do
	out=$BUILD/out/$prefix-$v
	mkdir -p "$root/l2/bench/$v"
	cp "$out/arch/arm64/boot/Image" "$out/initramfs.cpio.gz" "$root/l2/bench/$v/"
	off=$(pcpu_off "$out")
	echo "${off:+guest.tlb_reach.pcpu_off=$off}" > "$root/l2/bench/$v/args"
done
# The plain initramfs for the memory boots (bench.sh's too), built after
# the workload one was copied
for v in $variants; do
	tree=$KSRC
	[ "$v" = m ] && tree=$m74_tree
	KSRC=$tree "$top/scripts/build-initramfs.sh" "$prefix-$v"
	cp "$BUILD/out/$prefix-$v/initramfs.cpio.gz" "$root/l2/bench/$v/initramfs-mem.cpio.gz"
done
echo "$variants" > "$root/l2/bench/variants"
echo "$params $smp_params" > "$root/l2/bench/args"
echo "$smp" > "$root/l2/bench/smp"
echo "$overhead_smp" > "$root/l2/bench/overhead_smp"
echo "$work_checks" > "$root/l2/bench/work_checks"
echo "$smp_checks" > "$root/l2/bench/smp_checks"
# (the kernel build's plan for the EL2 guest's CPUs but one: 2)
echo "$kbuild_params" > "$root/l2/bench/kbuild_params"
echo "$kbuild_cpus" > "$root/l2/bench/kbuild_cpus"
echo "$kbuild_mem" > "$root/l2/bench/kbuild_mem"
(cd "$BUILD/out/$host" && "$KSRC/usr/gen_initramfs.sh" -o initramfs-kvm-bench.cpio -u 0 -g 0 \
	"$root" initramfs.extra)
gzip -f -n "$BUILD/out/$host/initramfs-kvm-bench.cpio"

log=$LOGS/kvm-bench.log
rm -f "$logs"/*.log
rc=0
# The kernel build's root filesystem, the EL2 guest's first disk, which
# it hands on to each nested kernel build
QEMU_ARGS="-drive file=${kbuild_img//,/,,},format=raw,if=none,id=kb,readonly=on -device virtio-blk-device,drive=kb" \
QEMU_MACHINE=virt,gic-version=3,virtualization=on MEM=4G SMP=3 \
	GUEST_INITRD=$BUILD/out/$host/initramfs-kvm-bench.cpio.gz GUEST_CHECKS=kvm_bench \
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-5400} \
	"$top/scripts/boot-guest.sh" "$host" max kvm-bench guest.kvm_bench.runs="$runs" || rc=$?
# Each nested boot's console, as bench.sh would have logged it
sed -n 's/^# kb|\([^|]*\)| .*/\1/p' "${log%.log}.ktap" | sort -u | while read -r name; do
	sed -n "s/^# kb|$name| //p" "${log%.log}.ktap" > "$logs/$name.log"
done
[ "$rc" -eq 0 ] || die "the EL2 guest failed (log: $log, the nested boots': $logs)"
grep -a 'kvm_bench:' "$log" | tr -d '\r'
"$top/scripts/guest-results.py" --passed /kvm_bench "${log%.log}.ktap" ||
	die "a nested boot failed (log: $log, the nested boots': $logs)"

# kvm_bench pinned the online vCPUs, vCPU n to the EL2 guest's CPU n + 1
printf 'pin=%q\n' "1,2 of the EL2 guest's CPUs (guest/checks/kvm_bench)" >> "$logs/run.env"
printf 'kbuild_pin=%q\n' "1,2 of the EL2 guest's CPUs" >> "$logs/run.env"
BENCH_QEMU="$(sed -n "s/.*kvm_bench: \(QEMU emulator[^,]*\),.*/\1/p" "$log" | head -n 1) (Debian's, in the EL2 guest)" \
BENCH_HOST_CPU="the EL2 guest's 3 vCPUs: QEMU TCG -cpu max on $(lscpu | sed -n 's/^Model name: *//p' | head -n 1) (no hardware figure)" \
BENCH_HOST_GOVERNOR=none \
BENCH_HOST_KERNEL="$host: the series' =n with KVM and perf ($(git -C "$KSRC" log -1 --format=%h series))" \
	"$top/scripts/bench-summary.sh" "$logs" "$results"
grep -q '^| perf ' "$results/stats.md" && grep -q ' \[' "$results/stats.md" ||
	die "no intervals or perf counter rows in $results/stats.md"
echo "the KVM path ran $runs runs a kernel: $results/report.md, $results/stats.md"
