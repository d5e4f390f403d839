#!/usr/bin/env bash
# Measure KASLR with the series: boot the same kernel N times (default 32)
# and count where each boot put the image, the percpu window, the percpu
# regions and the lowest module (guest/checks/addresses).  The figures go
# to the terminal and to build/logs/kaslr/kaslr.md (scripts/kaslr-report.py
# says what each column means).  Slow, not in make check.
#
# usage: measure-kaslr.sh [VARIANT [CPU [N]]]   (default: lm-y-debug max 32)
set -euo pipefail
. "$(dirname "$0")/common.sh"
unset ACCEL PRINT_QEMU

variant=${1:-lm-y-debug}
cpu=${2:-max}
n=${3:-32}
dir=$LOGS/kaslr
mkdir -p "$dir"
[ -f "$BUILD/out/$variant/arch/arm64/boot/Image" ] || die "$variant is not built (make check builds lm-y-debug)"

lines=$dir/addresses.txt
: > "$lines"
for i in $(seq 1 "$n"); do
	GUEST_CHECKS=kunit_modules,addresses SMP=2 BOOT_TIMEOUT=${BOOT_TIMEOUT:-300} \
		"$top/scripts/boot-guest.sh" "$variant" "$cpu" "kaslr/boot-$i" \
		> /dev/null 2>&1 || die "boot $i failed (log: $dir/boot-$i.log)"
	grep -a '^guest-addresses:' "$dir/boot-$i.log" | tr -d '\r' >> "$lines" ||
		die "boot $i printed no addresses (log: $dir/boot-$i.log)"
	note "boot $i of $n: $(tail -n 1 "$lines")"
done
"$top/scripts/kaslr-report.py" "$lines" "KASLR over $n boots of $variant on -cpu $cpu" | tee "$dir/kaslr.md"
