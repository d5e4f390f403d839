#!/usr/bin/env python3
"""Print a console log without the KCSAN reports that are the base
kernel's, for scripts/log-clean.sh (make matrix's KCSAN row).

KCSAN reports races all over a 7.2 kernel that the series does not touch.
A report is the series' when one of the two racing functions (its title,
"BUG: KCSAN: data-race in A / B") is defined in a C file the series
changes (git diff BASE_TAG..series, each file's object in the variant's
build); it stays in the log, where log-clean.sh fails on it.  The others
are dropped and listed on stderr.  A race in base code that the series
causes through a header (asm/percpu.h, pgtable.h) is taken for the
base's: running the base kernel with KCSAN side by side would tell them
apart.  A log in which KCSAN did not start at boot is an error.

usage: kcsan-filter.py VARIANT CONSOLE-LOG > FILTERED-LOG
       (KSRC: the work tree; BASE_TAG: the base, as common.sh sets them)
"""
import os
import re
import subprocess
import sys


def series_functions(out):
    ksrc, base = os.environ["KSRC"], os.environ["BASE_TAG"]
    files = subprocess.run(["git", "-C", ksrc, "diff", "--name-only", base, "HEAD", "--", "*.c"],
                           check=True, capture_output=True, text=True).stdout.split()
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    funcs = set()
    for f in files:
        obj = os.path.join(out, f[:-2] + ".o")
        if not os.path.exists(obj):
            continue
        for line in subprocess.run([cross + "nm", "--defined-only", obj], check=True,
                                   capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tT":
                funcs.add(parts[2])
    return funcs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.join(os.environ.get("BUILD", os.path.join(top, "build")), "out", sys.argv[1])
    funcs = series_functions(out)
    lines = open(sys.argv[2], errors="replace").read().splitlines(keepends=True)
    if not any("kcsan: enabled early" in l for l in lines):
        # KCSAN off at boot (KCSAN_EARLY_ENABLE=n) reports nothing: a log
        # that cannot fail
        sys.exit("error: KCSAN was not enabled at boot in %s" % sys.argv[2])
    kept, dropped, i = [], [], 0
    while i < len(lines):
        if "BUG: KCSAN:" in lines[i]:
            # the report runs from the ===== line before its title to the next
            start = len(kept) - 1 if kept and kept[-1].strip().endswith("=" * 20) else len(kept)
            j = i + 1
            while j < len(lines) and not lines[j].strip().endswith("=" * 20):
                j += 1
            report = lines[i:j + 1]
            title = lines[i].split("BUG: KCSAN:", 1)[1].strip()
            m = re.search(r" in (\S+?)(?:\+\S*)? / (\S+?)(?:\+\S*)?$", title) or \
                re.search(r" in (\S+?)(?:\+\S*)?()$", title)
            ours = bool(m) and (m.group(1) in funcs or m.group(2) in funcs)
            if ours:
                kept.extend(report)
            else:
                del kept[start:]
                dropped.append(title)
            i = j + 1
            continue
        kept.append(lines[i])
        i += 1
    sys.stdout.write("".join(kept))
    print("kcsan-filter: %d reports of the base kernel's dropped, %d of the series' kept (%d functions of its files)"
          % (len(dropped), sum("BUG: KCSAN:" in l for l in kept), len(funcs)), file=sys.stderr)
    for t in sorted(set(dropped)):
        print("  base: " + t, file=sys.stderr)


if __name__ == "__main__":
    main()
