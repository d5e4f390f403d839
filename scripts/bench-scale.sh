#!/usr/bin/env bash
# make bench's scale section: the TLB invalidations of a memory-cgroup churn
# (scripts/scale-churn.sh) at 4, 64 and 512 possible CPUs, 2 online, on a CPU
# with range TLBIs (-cpu max) and one without (cortex-a57), for each built
# kernel; written to RESULTS/scale.md with a chart of the counts against the
# possible CPUs (RESULTS/scale.png).  The percpu allocator's depopulation is
# where the local mapping pays in TLBIs what the units' spread costs, and
# 4 possible CPUs cannot show it.
#
# usage: bench-scale.sh RESULTS VARIANT...   (built kernels with their
#        initramfs, e.g. bench-m bench-n bench-y; SCALE_POSSIBLE, SCALE_CPUS
#        override the sizes and CPU models)
set -euo pipefail
. "$(dirname "$0")/common.sh"

results=${1:?usage: bench-scale.sh RESULTS VARIANT...}
shift
[ $# -gt 0 ] || die "usage: bench-scale.sh RESULTS VARIANT..."
possible=${SCALE_POSSIBLE:-4 64 512}
cpus=${SCALE_CPUS:-max cortex-a57}
for v; do
	[ -f "$BUILD/out/$v/initramfs.cpio.gz" ] ||
		die "$v is not built with its initramfs (make bench builds bench-m, bench-n, bench-y)"
done
mkdir -p "$results"
lines=$LOGS/scale/lines.txt
mkdir -p "$LOGS/scale"
: > "$lines"
# Interleaved: each size and CPU boots every kernel in turn
for cpu in $cpus; do
	for p in $possible; do
		for v; do
			"$top/scripts/scale-churn.sh" "$v" "$cpu" "$p" 2 | tee -a "$lines"
		done
	done
done
# Debian's python3, which has matplotlib (host-tools.sh)
PATH=/usr/bin:$PATH python3 "$top/scripts/scale-report.py" "$lines" "$results"
