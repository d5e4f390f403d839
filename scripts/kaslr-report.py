#!/usr/bin/env python3
"""The KASLR figures of scripts/measure-kaslr.sh's boots, as a markdown
table: for the image, the percpu window, the percpu regions and the
lowest module's distance from the image, the distinct values over the
boots, the step they share, and three bit counts.  log2(distinct) is all
N boots can show (log2(N) at most).  The birthday column: with no two
boots alike, the entropy a uniform draw needs for that to happen one time
in 20 or more (a 95% lower bound); with repeats, the entropy the number
of equal pairs suggests.  log2(spread / step + 1): the positions between
the lowest and the highest value at that step, an upper bound.

usage: kaslr-report.py ADDRESSES-FILE TITLE
"""
import math
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = [dict(re.findall(r'(\w+)=([0-9a-f]+)', line)) for line in open(sys.argv[1])]
    n = len(rows)
    if n < 2:
        sys.exit("kaslr-report.py: fewer than two boots")
    series = {
        'image (_text)': [int(r['text'], 16) for r in rows],
        'percpu window': [int(r['window'], 16) for r in rows],
        "percpu regions (CPU 0's)": [int(r['region'], 16) for r in rows],
        'lowest module - image': [int(r['modules'], 16) - int(r['text'], 16)
                                  for r in rows if r.get('modules')],
    }
    print(f'{sys.argv[2]}\n')
    print('| what | boots | distinct | step | log2(distinct) | birthday bits | log2(spread / step + 1) |')
    print('|---|---|---|---|---|---|---|')
    for what, v in series.items():
        d = sorted(set(v))
        step = 0
        for a in d[1:]:
            step = math.gcd(step, a - d[0])
        spread = (d[-1] - d[0]) // step + 1 if step else 1
        pairs = sum(v.count(x) * (v.count(x) - 1) // 2 for x in d)
        m = len(v)
        if pairs:
            birthday = f'{math.log2(m * (m - 1) / (2 * pairs)):.1f}'
        else:
            birthday = f'>= {math.log2(m * (m - 1) / (2 * math.log(20))):.1f}'
        size = f'{step >> 20} MB' if step >= 1 << 20 else f'{step >> 10} KB' if step else '-'
        print(f'| {what} | {m} | {len(d)} | {size} | {math.log2(len(d)):.1f} | {birthday} | {math.log2(spread):.1f} |')


main()
