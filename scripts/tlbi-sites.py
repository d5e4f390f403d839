#!/usr/bin/env python3
"""Name the TLBI sites that bench/tlbi-count.c counted (with pcs=on):
each "tlbi: pc ADDRESS KIND COUNT" line of the plugin's log becomes the
function of the variant's vmlinux that holds ADDRESS.  The guest must
have booted with nokaslr, so that its addresses are vmlinux's.  A site
the kernel image does not hold (a module, user space) is listed by its
address.

usage: tlbi-sites.py VARIANT PLUGIN-LOG
"""
import bisect
import collections
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    vmlinux = os.path.join(os.environ.get("BUILD", os.path.join(top, "build")),
                           "out", sys.argv[1], "vmlinux")
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    syms = []
    for line in subprocess.run([cross + "nm", "-n", vmlinux], check=True,
                               capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2]))
    addrs = [a for a, _ in syms]
    total = collections.Counter()
    for m in re.finditer(r"tlbi: pc (0x[0-9a-f]+) (\S+) (\d+)", open(sys.argv[2]).read()):
        pc, kind, n = int(m.group(1), 16), m.group(2), int(m.group(3))
        i = bisect.bisect_right(addrs, pc) - 1
        name = syms[i][1] if i >= 0 and pc - syms[i][0] < 1 << 20 else hex(pc)
        total[(name, kind)] += n
    if not total:
        sys.exit("error: no TLBI site in %s (the plugin needs pcs=on)" % sys.argv[2])
    for (name, kind), n in total.most_common():
        print("%10d  %-12s %s" % (n, kind, name))


if __name__ == "__main__":
    main()
