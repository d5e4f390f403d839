#!/usr/bin/env bash
# Measure KASLR with the series: boot the same kernel N times (default 32)
# and count where each boot put the image, the percpu window, the percpu
# regions and the lowest module (guest/checks/addresses).  The figures go
# to the terminal and to build/logs/kaslr/kaslr.md: for each, the distinct
# values, the step they share, and two bit counts: log2 of the distinct
# values (a lower bound that N boots cap at log2(N)) and log2 of the
# positions between the lowest and highest value at that step (an upper
# bound from the spread seen).  Slow, not in make check.
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
python3 - "$lines" "$n" "$variant" "$cpu" <<'EOF' | tee "$dir/kaslr.md"
import math, re, sys
path, n, variant, cpu = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = [dict(re.findall(r'(\w+)=([0-9a-f]+)', l)) for l in open(path)]
series = {
    'image (_text)': [int(r['text'], 16) for r in rows],
    'percpu window': [int(r['window'], 16) for r in rows],
    'percpu regions (CPU 0\'s)': [int(r['region'], 16) for r in rows],
    'lowest module - image': [int(r['modules'], 16) - int(r['text'], 16)
                              for r in rows if r.get('modules')],
}
print(f'KASLR over {n} boots of {variant} on -cpu {cpu}\n')
print('| what | boots | distinct | step | log2(distinct) | log2(spread / step + 1) |')
print('|---|---|---|---|---|---|')
for what, v in series.items():
    d = sorted(set(v))
    step = 0
    for a in d[1:]:
        step = math.gcd(step, a - d[0])
    spread = (d[-1] - d[0]) // step + 1 if step else 1
    steps = f'{step // 1024} KB' if step and step < 1 << 20 else f'{step >> 20} MB' if step else '-'
    print(f'| {what} | {len(v)} | {len(d)} | {steps} | {math.log2(len(d)):.1f} | {math.log2(spread):.1f} |')
EOF
