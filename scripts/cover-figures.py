#!/usr/bin/env python3
"""The core cover letter's "In figures" section, from make bench's report:
instructions per operation, whole workloads, kernel code and vmlinux size,
this series against 7.2, 7.4's way and the entry-fixup variant.

usage: cover-figures.py RESULTS                 print the section
       cover-figures.py RESULTS --check COVER   does COVER have it?
       cover-figures.py RESULTS --update FILE   put it in FILE in place of
                                                its "In figures" section

Operations: RESULTS/report.md's emitted-code table (refcode/pcpu_ref.c,
the LSE path).  Workloads: its workload tables, =y against 7.4's way on
each CPU model.  TLBIs: RESULTS/scale.md's memory-cgroup churn.  Code: the lines each way adds (patches/core/, and
bench/mainline-7.4/ and bench/entry-fixup/, our models of the other two
ways), outside Documentation/, MAINTAINERS, Kconfig files and test files;
lines removed are not subtracted.  Size: the report's bloat-o-meter
totals of each way's vmlinux against =n's (functions, data).
"""
import glob
import importlib.util
import os
import re
import sys

HEAD = "In figures"
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
        sys.exit(f"cover-figures.py: {report} has no bloat-o-meter totals under \"{heading}\"")
    return chg[:2]


# The emitted-code table's rows the cover letter shows: (label, function)
OPS = [("this_cpu_add(), 8 bytes", "pcpu_ref_add_u64"),
       ("this_cpu_add_return(), 8 bytes", "pcpu_ref_add_return_u64"),
       ("this_cpu_read(), 8 bytes", "pcpu_ref_read_u64"),
       ("this_cpu_cmpxchg(), 8 bytes", "pcpu_ref_cmpxchg_u64"),
       ("this_cpu_cmpxchg128()", "pcpu_ref_cmpxchg128"),
       ("raw_cpu_add(), 8 bytes", "pcpu_ref_raw_add_u64"),
       ("raw_cpu_read(), static", "pcpu_ref_raw_cpu_read_static")]
# The workloads' commands, shortened
WORKLOADS = [(r"--vm ", "stress-ng --vm"), (r"--mmapfork ", "stress-ng --mmapfork"),
             (r"--fork ", "stress-ng --fork"), (r"--timer ", "stress-ng --timer"),
             (r"munmap", "munmap() of 1MB, page by page"),
             (r"page_fault3", "will-it-scale page_fault3"),
             (r"pwrite", "one-byte pwrite(), percpu-rwsem"),
             (r"^`make ", "a make -j4 build in the guest")]


def emitted(report):
    """Instructions per operation, per kernel (bench-n, -m, -f, -y)"""
    cols, rows, on = None, {}, False
    for line in open(report):
        if line.startswith("## "):
            on = line.startswith("## Emitted instructions")
        elif on and "bench-m" in line:
            cols = line.split()
        elif on and cols and line.startswith("pcpu_ref_"):
            f = line.split()
            rows[f[0]] = {k: f[1 + 2 * i] for i, k in enumerate(cols)}
    missing = [fn for _, fn in OPS if fn not in rows]
    if missing:
        sys.exit(f"cover-figures.py: {report} has no emitted code for {', '.join(missing)}")
    return [[label, rows[fn]["bench-n"], rows[fn]["bench-m"], rows[fn]["bench-f"],
             rows[fn]["bench-y"]] for label, fn in OPS]


def workloads(report):
    """=y against 7.4's way per workload, on -cpu max and cortex-a57"""
    change = {}
    cpu = None
    for line in open(report):
        m = re.match(r"## Workloads: .*, -cpu (\S+)", line)
        if m:
            cpu = m[1]
        elif line.startswith("## "):
            cpu = None
        elif cpu and line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            label = next((name for pat, name in WORKLOADS if re.search(pat, cells[0])), cells[0])
            change.setdefault(label, {})[cpu] = cells[6]
    return [[label, c.get("max", "-"), c.get("cortex-a57", "-")] for label, c in change.items()]


def tlbis(scale):
    """The churn's TLBIs per CPU model and possible CPUs: (full flushes,
    invalidations by address), each for 7.4's way, =n and =y"""
    full, addr, cpu, on = [], [], None, False
    for line in open(scale):
        if line.startswith("## "):
            on = line.startswith("## TLB invalidations")
        elif on and line.startswith("### -cpu "):
            cpu = line.split()[-1]
        elif on and cpu and re.match(r"\| \d", line):
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            # NR_CPUS=4096 kernels run by hand, not make bench's
            if c[0] == "4096":
                continue
            full.append([cpu, c[0], c[1], c[3], c[5]])
            addr.append([cpu, c[0], c[2], c[4], c[6]])
    if not full:
        sys.exit(f"cover-figures.py: {scale} has no TLBI table")
    return full, addr


def section(results):
    report = f"{results}/report.md"
    series = cover_losses.report_series(report)
    ways = [("this series (the core)", code_lines(f"{TOP}/patches/core/*.patch"),
             sizes(report, "## vmlinux, =n against =y")),
            ("7.4's way", code_lines(f"{TOP}/bench/mainline-7.4/*.patch"),
             sizes(report, "## vmlinux, =n against mainline 7.4's way")),
            ("entry fixup (s390's way)", code_lines(f"{TOP}/bench/entry-fixup/*.patch"),
             sizes(report, "## vmlinux, =n against the fixup variant"))]
    table = cover_losses.table
    out = [HEAD, "=" * len(HEAD), ""]
    out += [f"From make bench's report (series {series}), written by",
            "scripts/cover-figures.py.  Instructions per operation, emitted on",
            "the LSE path, nops not counted (gcc 12, Debian's geometry,",
            "refcode/pcpu_ref.c in our workbench; the report has every one):", ""]
    out += table(emitted(report), ["operation", "7.2", "7.4's way", "entry fixup",
                                   "this series"], 4, "  ")
    out += ["", "Guest instructions of whole workloads under QEMU TCG with -icount",
            "(not a hardware figure), one CPU running, this series against 7.4's",
            "way:", ""]
    out += table(workloads(report), ["workload", "-cpu max (LSE)", "cortex-a57 (LL/SC)"], 2, "  ")
    full, addr = tlbis(f"{results}/scale.md")
    heads = ["CPU", "possible", "7.4's way", "7.2", "this series"]
    out += ["", "TLBIs the kernel issued in a memory-cgroup churn (1000 made and",
            "removed, twice, 2 CPUs online; make bench's scale section, written",
            "to bench/results/scale.md), full flushes (flush_tlb_all(): every",
            "entry, user ones too):", ""]
    out += table(full, heads, 4, "  ")
    out += ["", "and invalidations by address (4096 possible CPUs, the geometries",
            "series', in scale.md):", ""]
    out += table(addr, heads, 4, "  ")
    out += ["", "Kernel code each way adds, in lines outside Documentation/, Kconfig,",
            "MAINTAINERS and its tests (7.4's way and the entry fixup as we model",
            "them on 7.2.13), and its vmlinux against 7.2.13's with the same",
            "config (make bench's kernels, scripts/bloat-o-meter -c):", ""]
    out += table([[name, f"{lines:,}", *chg] for name, lines, chg in ways],
                 ["way", "code lines", "functions", "data"], 3, "  ")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().split("\n\n")[1])
    cover_losses.print_check_or_update(sys.argv, HEAD, section(sys.argv[1]), "cover-figures.py")


if __name__ == "__main__":
    main()
