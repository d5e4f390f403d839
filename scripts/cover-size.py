#!/usr/bin/env python3
"""The core cover letter's "What it adds" section: kernel code and vmlinux
size, against 7.4's way and the entry-fixup variant.

usage: cover-size.py RESULTS                 print the section
       cover-size.py RESULTS --check COVER   does COVER have it?
       cover-size.py RESULTS --update FILE   put it in FILE in place of its
                                             "What it adds" section

Code: the lines each way adds (patches/core/, and bench/mainline-7.4/ and
bench/entry-fixup/, our models of the other two ways), outside
Documentation/, MAINTAINERS, Kconfig files and test files; lines removed
are not subtracted.  Size: RESULTS/report.md's bloat-o-meter totals of
each way's vmlinux against =n's (functions, data).
"""
import glob
import importlib.util
import os
import re
import sys

HEAD = "What it adds"
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("cover_losses", f"{TOP}/scripts/cover-losses.py")
cover_losses = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cover_losses)

# Not code: docs, Kconfig, the maintainers file, tests and their configs
NOT_CODE = re.compile(r"^(Documentation/|MAINTAINERS$)|(^|/)Kconfig[^/]*$|"
                      r"kunit|_test\.c$|/tests?/|\.kunitconfig$")


def code_lines(pattern):
    """The '+' lines of the patches matching pattern, in code files"""
    n = 0
    for path in sorted(glob.glob(pattern)):
        if path.endswith("0000-cover-letter.patch"):
            continue
        on = False
        for line in open(path, errors="replace"):
            if line.startswith("+++ "):
                name = line[4:].strip()
                on = name.startswith("b/") and not NOT_CODE.search(name[2:])
            elif on and line.startswith("+"):
                n += 1
    return n


def sizes(report, heading):
    """bloat-o-meter's change of functions and of data under heading"""
    chg, on = [], False
    for line in open(report):
        if line.startswith("## "):
            on = line.startswith(heading)
        elif on:
            m = re.match(r"Total: .* chg ([+-][\d.]+%)", line)
            if m:
                chg.append(m[1])
    if len(chg) < 2:
        sys.exit(f"cover-size.py: {report} has no bloat-o-meter totals under \"{heading}\"")
    return chg[:2]


def section(results):
    report = f"{results}/report.md"
    ways = [("this series (the core)", code_lines(f"{TOP}/patches/core/*.patch"),
             sizes(report, "## vmlinux, =n against =y")),
            ("7.4's way", code_lines(f"{TOP}/bench/mainline-7.4/*.patch"),
             sizes(report, "## vmlinux, =n against mainline 7.4's way")),
            ("entry fixup (s390's way)", code_lines(f"{TOP}/bench/entry-fixup/*.patch"),
             sizes(report, "## vmlinux, =n against the fixup variant"))]
    rows = [[name, f"{lines:,}", *chg] for name, lines, chg in ways]
    out = [HEAD, "=" * len(HEAD), ""]
    out += ["Kernel code each way adds, in lines outside Documentation/, Kconfig,",
            "MAINTAINERS and its tests (7.4's way and the entry fixup as we",
            "model them on 7.2.13), and its vmlinux against 7.2.13's with the",
            "same config (make bench's kernels, scripts/bloat-o-meter -c; written",
            "by scripts/cover-size.py):", ""]
    out += cover_losses.table(rows, ["way", "code lines", "functions", "data"], 3)
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().split("\n\n")[1])
    cover_losses.print_check_or_update(sys.argv, HEAD, section(sys.argv[1]), "cover-size.py")


if __name__ == "__main__":
    main()
