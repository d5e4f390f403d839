#!/usr/bin/env bash
# make bench's scale section (scripts/scale-boot.sh): the TLB invalidations
# of a memory-cgroup churn, and the instructions of a boot, the allocator,
# fork/exit and module load/unload, and the memory kept, at 4, 64 and 512
# possible CPUs, on a CPU with range TLBIs (-cpu max) and one without
# (cortex-a57), for each built kernel; 2 CPUs online, and on -cpu max 4 and
# 8 as well where there are that many.  Written to RESULTS/scale.md with
# charts against the possible CPUs (RESULTS/scale.png).  The percpu
# allocator's depopulation is where the local mapping pays in TLBIs what
# the units' spread costs, the per-CPU tables what it pays in memory, and
# 4 possible CPUs cannot show either.
#
# usage: bench-scale.sh RESULTS VARIANT...   (built kernels with their
#        initramfs, e.g. bench-m bench-n bench-y; SCALE_POSSIBLE, SCALE_CPUS,
#        SCALE_ONLINE override the sizes, CPU models and online CPUs of
#        -cpu max; SCALE_RUNS, 2 by default, the boots of each, interleaved:
#        with more than one CPU online the counts vary a little from boot
#        to boot, and the report takes a loss only where every run of =y
#        is above every run of the other kernel)
set -euo pipefail
. "$(dirname "$0")/common.sh"

results=${1:?usage: bench-scale.sh RESULTS VARIANT...}
shift
[ $# -gt 0 ] || die "usage: bench-scale.sh RESULTS VARIANT..."
possible=${SCALE_POSSIBLE:-4 64 512}
cpus=${SCALE_CPUS:-max cortex-a57}
online_max=${SCALE_ONLINE:-2 4 8}
runs=${SCALE_RUNS:-2}
for v; do
	[ -f "$BUILD/out/$v/initramfs.cpio.gz" ] ||
		die "$v is not built with its initramfs (make bench builds bench-m, bench-n, bench-y)"
done
mkdir -p "$results"
lines=$LOGS/scale/lines.txt
mkdir -p "$LOGS/scale"
: > "$lines"
# Interleaved: each size and CPU boots every kernel in turn, and the runs
# come round again
for ((r = 0; r < runs; r++)); do
for cpu in $cpus; do
	online=2
	[ "$cpu" = max ] && online=$online_max
	for p in $possible; do
		for o in $online; do
			[ "$o" -le "$p" ] || continue
			for v; do
				"$top/scripts/scale-boot.sh" "$v" "$cpu" "$p" "$o" | tee -a "$lines"
			done
		done
	done
done
done
# Debian's python3, which has matplotlib (host-tools.sh)
# and the rows of 4096 possible CPUs, from kernels of their own run by hand
extra=()
[ -f "$results/scale-4096.lines" ] && extra=("$results/scale-4096.lines")
PATH=/usr/bin:$PATH python3 "$top/scripts/scale-report.py" "$results" "$lines" "${extra[@]}"
