#!/usr/bin/env bash
# The end of a make bench run, after its boots: bloat-o-meter of the
# kernels, their emitted this_cpu_*() code, the lines of code each way
# adds, the run's description (meta.txt), the report, and with more than
# one run of each kernel (KVM) their medians and intervals (stats.md).
# Apart from bench.sh so that a run whose boots happened elsewhere
# (scripts/bench-kvm-el2.sh) ends the same way.
#
# usage: bench-summary.sh LOGDIR RESULTS   (LOGDIR/run.env describes the run)
# BENCH_QEMU, BENCH_HOST_CPU, BENCH_HOST_GOVERNOR, BENCH_HOST_KERNEL: what
# ran the guests, when not this machine.
set -euo pipefail
. "$(dirname "$0")/common.sh"

logs=${1:?usage: bench-summary.sh LOGDIR RESULTS}
results=${2:?usage: bench-summary.sh LOGDIR RESULTS}
[ -f "$logs/run.env" ] || die "no run described in $logs (run.env)"
# shellcheck disable=SC1091
. "$logs/run.env"
[ -n "${prefix:-}" ] && [ -n "${runs:-}" ] ||
	die "$logs/run.env is an older bench.sh's: run make bench again"
mkdir -p "$results"

"$KSRC/scripts/bloat-o-meter" -c "$BUILD/out/$prefix-n/vmlinux" \
	"$BUILD/out/$prefix-y/vmlinux" > "$logs/bloat-o-meter.txt"
case " $variants " in *" f "*)
	"$KSRC/scripts/bloat-o-meter" -c "$BUILD/out/$prefix-n/vmlinux" \
		"$BUILD/out/$prefix-f/vmlinux" > "$logs/bloat-o-meter-fixup.txt" ;;
esac
case " $variants " in *" m "*)
	"$KSRC/scripts/bloat-o-meter" -c "$BUILD/out/$prefix-n/vmlinux" \
		"$BUILD/out/$prefix-m/vmlinux" > "$logs/bloat-o-meter-m74.txt" ;;
esac

# Emitted instructions of each this_cpu_*() (refcode/), every kernel side
# by side.  The rules are the local mapping's, which =n (with
# preempt_disable()) and the variants break by design: only the counts are
# wanted here.
# shellcheck disable=SC2046
"$top/scripts/check-emitted-code.py" $(for v in $variants; do echo "$prefix-$v"; done) --no-targets \
	> "$logs/emitted-code.txt" || true

# What the properties table counts: lines of code (added, without KUnit
# tests, in files of their own or not, and documentation); the fixup
# table's size comes from the fixup kernel's boot message.
loc() {	# loc TREE FROM TO
	git -C "$1" diff -U0 "$2" "$3" -- . ':!Documentation' ':!MAINTAINERS' \
		':!*kunit*' ':!*test*' | awk -f "$top/scripts/loc-added.awk"
}
{
	echo "loc series=$(loc "$KSRC" "$BASE_TAG" "$series")"
	[ -z "$fixup_tree" ] || echo "loc fixup=$(loc "$fixup_tree" HEAD~1 HEAD)"
	[ -z "$m74_tree" ] || echo "loc m74=$(loc "$m74_tree" HEAD~1 HEAD)"
} > "$logs/properties.txt"

# With the option off the series must change no code: the base built with
# the same fragments (the option does not exist there) against =n.  Not in
# the quick run, to spare make check a third kernel build.  With the
# run's extra fragments (perf, the kernel build's ext4) too.
if [ -z "$quick" ]; then
	base_tree=$(base_tree)
	# shellcheck disable=SC2086
	KSRC=$base_tree "$top/scripts/build-kernel.sh" "$prefix-base" guest "$GEOMETRY" bench ${frags_extra:-}
	"$KSRC/scripts/bloat-o-meter" -c "$BUILD/out/$prefix-base/vmlinux" \
		"$BUILD/out/$prefix-n/vmlinux" > "$logs/bloat-o-meter-base.txt"
fi

# The run's description, kept with its logs, so that the report can be
# written again from them (bench-report.py LOGDIR OUTDIR)
{
	echo "base=$base"
	echo "series=$series ($npatches patches, tree $series_tree)"
	[ -z "$m74" ] || echo "7.4=$m74 (bench/mainline-7.4/ on the series)"
	[ -z "$fixup" ] || echo "fixup=$fixup (bench/entry-fixup/ on the series)"
	echo "qemu=${BENCH_QEMU:-$(qemu-system-aarch64 --version | head -n 1)}"
	echo "accel=$accel"
	if [ "$accel" = kvm ]; then
		echo "host cpu=${BENCH_HOST_CPU:-$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)}"
		# every CPU's, the vCPUs' among them
		echo "host governor=${BENCH_HOST_GOVERNOR:-$(sort -u /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor 2> /dev/null | paste -sd, | grep . || echo none)}"
		echo "host kernel=${BENCH_HOST_KERNEL:-$(uname -r)}"
	fi
	echo "cpus=$cpus"
	echo "vCPUs=$smp possible, 1 online (maxcpus=1), 2 on the IPI and TLBI boots"
	echo "runs=$runs"
	[ "$accel" = kvm ] && echo "vCPU threads pinned to host CPUs=${pin:-no (no more host CPUs than vCPUs)}"
	echo "config=allnoconfig + guest + $GEOMETRY + bench${frags_extra:+ + ${frags_extra// / + }} fragments"
	echo "params=$params"
	echo "params, two CPUs online=$smp_params"
	echo "guest packages (Debian unstable)=$(tr '\n' ' ' < "$logs/packages-y.txt")"
	if [ -n "${kbuild:-}" ]; then
		pinned=
		[ "$accel" != kvm ] || pinned=", pinned to ${kbuild_pin:-no host CPUs (not more of them than vCPUs)}"
		echo "kernel build=$kbuild_params, $kbuild_cpus vCPUs online and ${kbuild_mem:-2G}$pinned"
		echo "kernel build's root filesystem (Debian unstable)=$({ tr '\n' ' ' < "${kbuild_img:-}.packages"; } 2> /dev/null || echo unknown)"
	fi
} > "$logs/meta.txt"
# Debian's python3, which has matplotlib (host-tools.sh).  The runs'
# statistics whatever the report says (its status is the script's): an
# older stats.md must not outlive its run.
rm -f "$results/stats.md"
rc=0
PATH=/usr/bin:$PATH python3 "$top/scripts/bench-report.py" "$logs" "$results" || rc=$?
if [ "$runs" -gt 1 ]; then
	python3 "$top/scripts/bench-stats.py" "$logs" "$results/stats.md" || rc=1
	note "$runs runs a kernel: their medians and intervals in $results/stats.md"
fi
exit $rc
