#!/usr/bin/env bash
# make bench: build CONFIG_PERCPU_LOCAL_MAPPING=n and =y from the same base
# and config, mainline 7.4's way (bench/mainline-7.4/ on the same tree, the
# option off: the report's reference) and the entry-fixup variant
# (bench/entry-fixup/, likewise), boot each under QEMU with -icount
# shift=0,sleep=off (the guest clock then counts guest instructions,
# deterministically), run the workloads on all four and write the report
# under bench/results/ with bench-report.py.  Wall time under TCG is
# emulated time and is only reported beside the instruction counts.
#
# The workload guests boot with maxcpus=1: every vCPU is a possible CPU
# (each chunk has a unit for each), but only the boot CPU runs, so the
# guest clock counts the workload's instructions alone and is the same from
# run to run (to the 16 instructions of the 62.5MHz guest timer).  The IPI
# and TLBI boots run two.
#
# BENCH_QUICK=1: a smoke run with small counts (make check runs it), with
# build directories (build/out/bench-quick-n, -y), logs (build/logs/
# bench-quick) and results (build/bench-quick) of its own, so that make
# check never touches make bench's.
#
# The hardware path: on an arm64 host with a writable /dev/kvm, ACCEL
# defaults to kvm (ACCEL=tcg asks for the instruction counts there too).
# Under KVM there is no -icount: the figures are nanoseconds of the guest's
# clock, on the host's CPU (-cpu host), and the kernels get perf events
# (configs/perf.config) and the guest Debian's perf, whose "perf stat"
# counts cycles and TLB refills around the loops (guest/checks/perf).
# Its builds, logs and results are bench-kvm-*, build/logs/bench-kvm and
# build/bench-kvm.  BENCH_PERF=1 adds the perf part to a TCG run (QEMU's
# PMU counts cycles and instructions, no TLB events): the way to try the
# hardware path's guest side on any host.
# Under KVM every kernel's workload and IPI boots run BENCH_RUNS times
# (default 5; 1 under TCG, whose counts do not vary), in turn (ABCABC, so
# that a drift of the host's clock or temperature falls on all kernels
# alike), each vCPU thread pinned to a host CPU of its own (PIN_CPUS of
# boot-guest.sh); bench-stats.py then writes their medians and 95%
# confidence intervals to stats.md.
# Under KVM the workloads include a kernel build (guest/checks/kbuild):
# the base built by Debian's gcc in a Debian arm64 root filesystem
# (build-rootfs.sh, a virtio disk), make -j with as many vCPUs as the host
# gives (the CPUs this process may use but one, BENCH_KBUILD_CPUS),
# pinned; BENCH_KBUILD_CONFIG and BENCH_KBUILD_TARGET (tinyconfig,
# vmlinux) say what it builds; BENCH_KBUILD=1 adds it to a TCG run.
# BENCH_PRINT=1: print what would be built and the QEMU command line of
# every boot, and stop (tests/tooling.sh checks the KVM plan on amd64).
# BENCH_BUILD_ONLY=1: build the kernels and initramfs of the plan, describe
# the run in its logs' run.env, and stop: scripts/bench-kvm-el2.sh boots
# them in a guest with KVM.
# BENCH_RESUME=1: finish the last run that stopped (a failed check, a
# stopped session): its kernels as they were built, its logs, and the
# series it named; only the boots it had not finished run.
set -euo pipefail
. "$(dirname "$0")/common.sh"

quick=${BENCH_QUICK:-}
# The kernels: m, mainline 7.4's way (the report's reference); n, 7.2.13's
# preempt_disable(); y, the series; f, the entry-fixup variant.  n and y
# always (the report compares them).
variants=${BENCH_VARIANTS:-m n y f}
case " $variants " in *" n "*) ;; *) die "BENCH_VARIANTS=$variants: n and y are needed (of m n y f)" ;; esac
case " $variants " in *" y "*) ;; *) die "BENCH_VARIANTS=$variants: n and y are needed (of m n y f)" ;; esac
for v in $variants; do
	case $v in m|n|y|f) ;; *) die "BENCH_VARIANTS: $v is not one of m n y f" ;; esac
done
ACCEL=${ACCEL:-$(default_accel)}
perf=${BENCH_PERF:-}
print=${BENCH_PRINT:-}
resume=${BENCH_RESUME:-}
build_only=${BENCH_BUILD_ONLY:-}
unset PRINT_QEMU
kbuild=${BENCH_KBUILD-}
case $ACCEL in
tcg)	;;
kvm)	perf=1 kbuild=${BENCH_KBUILD-1} ;;
*)	die "ACCEL=$ACCEL: tcg or kvm" ;;
esac
[ "$kbuild" != 0 ] || kbuild=
export ACCEL
results=${BENCH_RESULTS:-$top/bench/results}
prefix=bench
[ -n "$quick" ] && prefix=bench-quick
[ "$ACCEL" = kvm ] && prefix=$prefix-kvm
[ "$ACCEL" = tcg ] && [ -n "$perf" ] && prefix=$prefix-perf
[ "$ACCEL" = tcg ] && [ -n "$kbuild" ] && prefix=$prefix-kbuild
logs=$LOGS/$prefix
# Only the TCG run of record writes to bench/results
[ "$prefix" = bench ] || results=${BENCH_RESULTS:-$BUILD/$prefix}
cpus=${BENCH_CPUS:-max cortex-a57}
# KVM runs the host's CPU only
[ "$ACCEL" = kvm ] && cpus=max
smp=${BENCH_SMP:-4}
runs=${BENCH_RUNS:-}
[ -n "$runs" ] || { [ "$ACCEL" = kvm ] && runs=5 || runs=1; }
case $runs in [1-9]|[1-9][0-9]) ;; *) die "BENCH_RUNS=$runs: a number of runs, 1 to 99" ;; esac
# pin_list N: where N vCPUs go under KVM, vCPU n on the (n + 2)th CPU this
# process may use, the first left to the rest (QEMU's other threads are
# not pinned); nothing under TCG or when there are not that many
pin_list() {
	local cpus
	[ "$ACCEL" = kvm ] || return 0
	cpus=$(allowed_cpus | sed -n "2,$(($1 + 1))p")
	[ "$(grep -c . <<< "$cpus")" -lt "$1" ] || paste -sd, <<< "$cpus"
}
pin=$(pin_list "$smp")
# The kernel build's vCPUs: under KVM all the host gives but one (left to
# the rest of QEMU), each pinned to a CPU of its own; under TCG one (with
# -icount the vCPUs take turns on one thread).  Its memory: 1G and 192M a
# vCPU (a compiler job's), within what the host has free.
kbuild_cpus=${BENCH_KBUILD_CPUS:-1}
[ "$ACCEL" = tcg ] || kbuild_cpus=${BENCH_KBUILD_CPUS:-$(($(allowed_cpus | wc -l) - 1))}
case $kbuild_cpus in [1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; 0) kbuild_cpus=1 ;;
*) die "BENCH_KBUILD_CPUS=$kbuild_cpus: a number of vCPUs, 1 to 999" ;; esac
kbuild_mem=${BENCH_KBUILD_MEM:-$((1024 + 192 * kbuild_cpus))M}
case ${kbuild_mem%[MG]} in ''|*[!0-9]*) die "BENCH_KBUILD_MEM=$kbuild_mem: a size in M or G" ;; esac
case $kbuild_mem in *[MG]) ;; *) die "BENCH_KBUILD_MEM=$kbuild_mem: a size in M or G" ;; esac
kbuild_pin=$(pin_list "$kbuild_cpus")
# (the quick plan's and TCG's: the configuration and fixdep only, about 2
# minutes of one TCG vCPU)
kbuild_target=vmlinux
[ -z "$quick" ] && [ "$ACCEL" = kvm ] || kbuild_target=scripts_basic
kbuild_params="guest.kbuild.config=${BENCH_KBUILD_CONFIG:-tinyconfig} guest.kbuild.target=${BENCH_KBUILD_TARGET:-$kbuild_target}"
if [ -n "$quick" ]; then
	params="guest.bench.loops=2000 guest.bench.objs=2048 guest.memcg.count=100"
	params="$params guest.stress.vm=256 guest.stress.vm_bytes=16M guest.stress.mmapfork=1"
	params="$params guest.stress.mmapfork_bytes=32M guest.stress.fork=50 guest.build.runs=1"
	params="$params guest.stress.timer=2000"
	params="$params guest.loops.munmap=16 guest.loops.page_fault3=1 guest.loops.pwrite=1000"
	smp_params="guest.ipi.pingpong=500 guest.memcg_churn.count=100 guest.memcg_churn.rounds=1"
	overhead_smp=${BENCH_OVERHEAD_SMP:-4}
else
	# The bitmap allocator series ran 1M objects; 65536 keeps the workload
	# at about 2.5G guest instructions a boot (1M: 40G, some 5 minutes of
	# TCG per boot) and 1024-byte objects of 4 possible CPUs within the
	# guest's 2G (1M: 4G).  BENCH_OBJS=1048576 BENCH_MEM=6G runs
	# the original count.
	params="guest.bench.loops=200000 guest.bench.objs=${BENCH_OBJS:-65536} guest.memcg.count=10000"
	# The workloads of guest/checks/stress and build: each 1.3 to 3.2
	# billion guest instructions, 6 to 20 s of host time; together about
	# 40 s a boot on -cpu max and 55 s on cortex-a57 (idle host).
	params="$params guest.stress.vm=4096 guest.stress.vm_bytes=64M guest.stress.mmapfork=8"
	params="$params guest.stress.mmapfork_bytes=256M guest.stress.fork=2000 guest.build.runs=4"
	params="$params guest.stress.timer=20000"
	# The loops of the upstream reports (guest/bench-loops.c)
	params="$params guest.loops.munmap=1024 guest.loops.page_fault3=8 guest.loops.pwrite=200000"
	# IPIs and TLB invalidations, two CPUs online (guest/checks/ipi and
	# memcg_churn)
	smp_params="guest.ipi.pingpong=20000 guest.memcg_churn.count=1000 guest.memcg_churn.rounds=4"
	overhead_smp=${BENCH_OVERHEAD_SMP:-4 64 256}
fi
# The QEMU options of a boot: instructions counted under TCG (with the
# TLBI plugin on the two-CPU boots), nothing under KVM.
icount=
[ "$ACCEL" = tcg ] && icount="-icount shift=0,sleep=off"
extra_frags=()
[ -n "$perf" ] && extra_frags=(perf)
[ -n "$kbuild" ] && extra_frags+=(kbuild)
# (in run.env: the base's build for bloat-o-meter takes them too)
frags_extra=${extra_frags[*]}
initramfs_args=(--bench)
[ -n "$perf" ] && initramfs_args+=(--perf)
# The workload boots' checks (stress-ng and the build before the memory
# cgroups, which would stay behind them), and the two-CPU boots'
work_checks=bench,stress,loops,build,memcg
smp_checks=ipi,memcg_churn
[ -n "$perf" ] && smp_checks=$smp_checks,perf

if [ -n "$print" ]; then
	echo "accel=$ACCEL"
	echo "compiler=$(command -v "${CROSS_COMPILE}gcc" || echo "${CROSS_COMPILE}gcc (not installed)")"
	echo "logs=$logs"
	echo "results=$results"
	kbuild_img=$BUILD/rootfs/kbuild.img
	plugin=
	[ "$ACCEL" = tcg ] && plugin=$BUILD/tools/tlbi-count.so
elif [ -n "$resume" ]; then
	[ -f "$logs/run.env" ] || die "BENCH_RESUME: no run to finish in $logs (run.env)"
	"$top/scripts/host-tools.sh"
	plugin=
	if [ "$ACCEL" = tcg ] && ! plugin=$("$top/scripts/tlbi-plugin.sh"); then
		note "no TLBI counts: bench/tlbi-count.c could not be built"
		plugin=
	fi
else
	mkdir -p "$logs" "$results"
	rm -f "$logs"/*.log "$logs"/*.tlbi "$logs/run.env"
	"$top/scripts/host-tools.sh"
	"$top/scripts/make-tree.sh"
	plugin=
	# Without the plugin (another QEMU than 7.2, no download) the report
	# lists the TLBI counts as missing.
	if [ "$ACCEL" = tcg ] && ! plugin=$("$top/scripts/tlbi-plugin.sh"); then
		note "no TLBI counts: bench/tlbi-count.c could not be built"
		plugin=
	fi
fi
# What is built, read now: the tree may move while the guests run (and
# kept, for a run that BENCH_RESUME finishes)
if [ -n "$resume" ]; then
	# (a run of an older bench.sh had one run a kernel, and no kernel
	# build, or one in BENCH_MEM)
	runs=1 kbuild= kbuild_img= kbuild_mem=${BENCH_MEM:-2G}
	# shellcheck disable=SC1091
	. "$logs/run.env"
	[ -z "$kbuild" ] || [ -f "$kbuild_img" ] ||
		die "BENCH_RESUME: the kernel build's image $kbuild_img is gone; run make bench again"
	note "finishing the run of series $series ($npatches patches): its kernels as built"
elif [ -z "$print" ]; then
	base=$(git -C "$KSRC" describe --tags --always "$BASE_TAG")
	series=$(git -C "$KSRC" rev-parse --short=12 series)
	# The code's own id: a later change to the messages alone keeps it
	series_tree=$(git -C "$KSRC" rev-parse --short=12 "series^{tree}")
	npatches=$(git -C "$KSRC" rev-list --count "$BASE_TAG..series")
	fixup_tree= fixup= m74_tree= m74=
	case " $variants " in *" f "*)
		fixup_tree=$("$top/scripts/variant-tree.sh" entry-fixup)
		fixup=$(git -C "$fixup_tree" log -1 --format='%h %s') ;;
	esac
	case " $variants " in *" m "*)
		m74_tree=$("$top/scripts/variant-tree.sh" mainline-7.4)
		m74=$(git -C "$m74_tree" log -1 --format='%h %s') ;;
	esac
	accel=$ACCEL
	kbuild_img=
	[ -z "$kbuild" ] || kbuild_img=$("$top/scripts/build-rootfs.sh")
	for k in base series series_tree npatches fixup_tree fixup m74_tree m74 pin \
		prefix quick accel variants cpus smp runs params smp_params overhead_smp \
		work_checks smp_checks kbuild kbuild_cpus kbuild_pin kbuild_mem kbuild_params kbuild_img \
		frags_extra; do
		printf '%s=%q\n' "$k" "${!k}"
	done > "$logs/run.env"
fi
# tree VARIANT: the tree it is built from
tree() {
	case $1 in
	f) echo "$fixup_tree" ;;
	m) echo "$m74_tree" ;;
	*) echo "$KSRC" ;;
	esac
}
for v in $variants; do
	frags=(guest "$GEOMETRY" "local-mapping-$v" bench "${extra_frags[@]}")
	[ "$v" = f ] && frags=(guest "$GEOMETRY" local-mapping-n bench "${extra_frags[@]}" entry-fixup)
	[ "$v" = m ] && frags=(guest "$GEOMETRY" local-mapping-n bench "${extra_frags[@]}" mainline-7.4)
	if [ -n "$print" ]; then
		echo "kernel $prefix-$v: ${frags[*]}"
		continue
	fi
	out=$BUILD/out/$prefix-$v
	if [ -n "$resume" ]; then
		[ -f "$out/arch/arm64/boot/Image" ] && [ -f "$out/bench/pcpu_bench.ko" ] ||
			die "BENCH_RESUME: $prefix-$v is not built"
	else
		KSRC=$(tree "$v") "$top/scripts/build-kernel.sh" "$prefix-$v" "${frags[@]}"
		KSRC=$(tree "$v") kmake O="$out" M="$top/bench/module" MO="$out/bench" modules \
			>> "$out/build.log" 2>&1 ||
			die "$prefix-$v: bench module failed (log: $out/build.log)"
	fi
	# stress-ng, tcc and make for guest/checks/stress and build.
	KSRC=$(tree "$v") "$top/scripts/build-initramfs.sh" "$prefix-$v" "${initramfs_args[@]}"
	cp "$out/initramfs/packages" "$logs/packages-$v.txt"
done
[ -z "$build_only" ] || { note "built: the run is described in $logs/run.env"; exit 0; }
# The kernel build's guest must fit in what the host has free
if [ -n "$kbuild" ] && [ -z "$print" ]; then
	mb=${kbuild_mem%[MG]}
	[ "${kbuild_mem: -1}" = M ] || mb=$((mb * 1024))
	free=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
	[ "$mb" -le "$free" ] ||
		die "the kernel build's guest needs ${mb}M (BENCH_KBUILD_MEM), the host has ${free}M free: set BENCH_KBUILD_CPUS or BENCH_KBUILD_MEM lower, or BENCH_KBUILD=0"
fi

# online: the CPUs a boot brings up; plugin_args and disk_args: QEMU's
# plugin and disk options
online=1 plugin_args= disk_args=
boot() {	# boot VARIANT CPU SMP NAME CHECKS ARGS...
	local v=$1 cpu=$2 n=$3 name=$4 checks=$5
	shift 5
	local t0=$SECONDS
	# Finished in the run being resumed: kept
	if [ -n "$resume" ] && grep -q '^bench-wall:' "$logs/$name.log" 2> /dev/null; then
		return
	fi
	set -- "maxcpus=$online" "$@"
	if [ -n "$print" ]; then
		echo "boot $name: $(PRINT_QEMU=1 PIN_CPUS=$pin SMP=$n MEM=${mem:-${BENCH_MEM:-2G}} GUEST_CHECKS=$checks \
			QEMU_ARGS="$icount $plugin_args $disk_args" LOGS=$logs \
			"$top/scripts/boot-guest.sh" "$prefix-$v" "$cpu" "$name" "$@")"
		return
	fi
	# A workload boot takes 1.5 to 3 minutes (cortex-a57 the longer), more
	# while kernels build beside it: room beyond boot-guest.sh's default
	# limit of 10 minutes.
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-1800} PIN_CPUS=$pin \
	QEMU_ARGS="$icount $plugin_args $disk_args" SMP=$n MEM=${mem:-${BENCH_MEM:-2G}} GUEST_CHECKS=$checks \
		LOGS=$logs "$top/scripts/boot-guest.sh" "$prefix-$v" "$cpu" "$name" "$@" ||
		die "$prefix-$v did not finish on $cpu (log: $logs/$name.log)"
	# A workload that failed would be missing from the report.
	"$top/scripts/guest-results.py" "$logs/$name.ktap" > "$logs/$name.results" ||
		die "$prefix-$v: a check failed on $cpu, or the guest died (log: $logs/$name.log, results: $logs/$name.results)"
	echo "bench-wall: $((SECONDS - t0)) s" >> "$logs/$name.log"
}

# A/B/C/D in one run: each CPU model boots every variant in turn, runs
# times; the first run's logs are V-CPU.log, the next ones' V-CPU-rN.log.
run_suffix() {
	[ "$1" -eq 1 ] || echo "-r$1"
}
for cpu in $cpus; do
	for r in $(seq "$runs"); do
		for v in $variants; do
			# shellcheck disable=SC2086
			boot "$v" "$cpu" "$smp" "$v-$cpu$(run_suffix "$r")" "$work_checks" $params
		done
	done
done
# IPIs and the TLB invalidations of memory cgroup churn: two CPUs online
# (the ping-pong needs them), the TLBIs counted by bench/tlbi-count.c
# between the churn's marks (TCG only).  Under -icount the vCPUs take
# turns on one host thread, so the counts are of both CPUs' instructions.
# The perf part (KVM, BENCH_PERF) runs here too, for the ping-pong.
online=2
for cpu in $cpus; do
	for r in $(seq "$runs"); do
		for v in $variants; do
			name=$v-$cpu-ipi$(run_suffix "$r")
			plugin_args=
			[ -n "$plugin" ] && plugin_args="-plugin $plugin -d plugin -D $logs/$name.tlbi"
			# shellcheck disable=SC2086
			boot "$v" "$cpu" "$smp" "$name" "$smp_checks" $smp_params ${perf:+$params}
		done
	done
done
# The kernel build, with every vCPU it has online, the root filesystem's
# image read-only
online=$kbuild_cpus plugin_args=
disk_args="-drive file=${kbuild_img//,/,,},format=raw,if=none,id=kb,readonly=on -device virtio-blk-device,drive=kb"
[ -z "$kbuild" ] || for r in $(seq "$runs"); do
	for v in $variants; do
		# shellcheck disable=SC2086
		pin=$kbuild_pin mem=$kbuild_mem boot "$v" max "$kbuild_cpus" "$v-max-kbuild$(run_suffix "$r")" kbuild \
			$kbuild_params
	done
done
online=1 plugin_args= disk_args=
# Memory overhead against the number of vCPUs: a boot with no workload,
# and the boot tests' initramfs: the workloads' programs and headers
# (about 50 MB in the initramfs) would count as used memory.
[ -n "$print" ] || for v in $variants; do
	KSRC=$(tree "$v") "$top/scripts/build-initramfs.sh" "$prefix-$v"
done
for n in $overhead_smp; do
	for v in $variants; do
		off=
		[ -n "$print" ] || off=$(pcpu_off "$BUILD/out/$prefix-$v")
		boot "$v" max "$n" "$v-max-smp$n" meminfo,tlb_reach ${off:+guest.tlb_reach.pcpu_off=$off}
	done
done
[ -z "$print" ] || exit 0

# The TLBIs of depopulation at 4, 64 and 512 possible CPUs (the plugin:
# TCG only; not in the quick run, which make check runs); before the
# report, which takes its section in.  A scale section of an earlier run
# would be taken for this one's: none rather than that.
if [ -z "$quick" ] && [ "$ACCEL" = tcg ] && [ -n "$plugin" ]; then
	scale=()
	for v in $variants; do
		[ "$v" = f ] || scale+=("$prefix-$v")
	done
	"$top/scripts/bench-scale.sh" "$results" "${scale[@]}" || {
		note "the scale section failed (logs: $LOGS/scale); the report has none"
		rm -f "$results/scale.md" "$results/scale.png"
	}
else
	rm -f "$results/scale.md" "$results/scale.png"
fi

# bloat-o-meter, the emitted code, the lines of code, the run's
# description, the report, and the runs' statistics
"$top/scripts/bench-summary.sh" "$logs" "$results"
