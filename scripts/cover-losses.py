#!/usr/bin/env python3
"""The core cover letter's "Where it loses" section, from make bench's report.

usage: cover-losses.py RESULTS                 print the section
       cover-losses.py RESULTS --check COVER   does COVER (a cover letter or
                                               branch description) have it?
       cover-losses.py RESULTS --update FILE   put it in FILE in place of its
                                               "Where it loses" section

RESULTS is bench/results: report.md's "Where =y loses" lists and scale.md's
"Where the series costs more" list, every case past 1%, as tables: per CPU
model, one row per case with its loss against 7.4's way, =n and the fixup
variant; per CPU count, against 7.4's way and =n; the TLBI and memory
lines as they are.  The cover letter's figures of losses then cannot
drift from the report: make check fails when the section differs
(--check), and --update writes it.
"""
import re
import sys
import textwrap

HEAD = "Where it loses"


def items(path, heading, exact=False):
    """The "- " lines under the markdown heading that starts with HEADING
    (or is HEADING)"""
    out, on = [], False
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("## "):
            on = line == heading if exact else line.startswith(heading)
            continue
        if on and line.startswith("- "):
            out.append(line[2:])
    return out


# A loss as the report words it: against 7.4's way ("4.00 -> 6.00" or
# "+1.4%"), against =n or the fixup variant ("=y +4.3% against =n",
# "=n 4.00, =y 6.00"); scale.md's per CPU count ("boot to init, max, 2
# online of 64: =y +4.7% against 7.4's way").
RUN = re.compile(r"^(?P<case>.+) on (?P<cpu>\S+): (?:"
                 r"(?P<a>[\d.]+) -> (?P<b>[\d.]+)|(?P<p>[+-][\d.]+%)|"
                 r"=y (?P<q>[+-][\d.]+%) against \S+|\S+ (?P<c>[\d.]+), =y (?P<d>[\d.]+))$")
# The churn's TLBIs ("2515 kernel TLBIs in the cgroup churn on cortex-a57,
# fixup 2409"; "3 TLBI VMALLE1IS (flush_tlb_all) in the cgroup churn on
# max, 7.4 0")
COUNT = re.compile(r"^(?P<y>\d+) (?P<what>.+?) in the cgroup churn on (?P<cpu>\S+), "
                   r"\S+ (?P<x>\d+)$")
SCALE = re.compile(r"^(?P<case>[^,]+), (?P<cpu>\S+), (?P<on>\d+) online of "
                   r"(?P<poss>\d+): =y (?P<p>[+-][\d.]+%) against (?P<vs>.+)$")


CPUS = {"max": "-cpu max (LSE)", "cortex-a57": "cortex-a57 (LL/SC)"}
# scale.md's workloads, named to fit a mail's width (scale.md says more)
SHORT = {"allocator (pcpu_bench's allocations and frees)": "allocator",
         "module load and unload (percpu_test)": "module load, unload"}


def percent(m):
    """The loss in m as a percentage"""
    if m["p"] or m["q"]:
        return float((m["p"] or m["q"]).rstrip("%"))
    a, b = (m["a"], m["b"]) if m["a"] else (m["c"], m["d"])
    return (float(b) / float(a) - 1) * 100


def table(rows, heads, right, sep=" "):
    """Rows of cells under heads, each column as wide as its widest cell,
    the last right columns right-aligned, sep between columns"""
    widths = [max(len(r[i]) for r in rows + [heads]) for i in range(len(heads))]
    left = len(heads) - right

    def line(cells):
        return "  " + sep.join(c.ljust(w) if i < left else c.rjust(w)
                               for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [line(heads)] + [line(r) for r in rows]


def cell(v):
    """A loss, or the range of the losses of a per-op loop's sizes"""
    if v is None:
        return "-"
    lo, hi = v
    return f"{hi:+.1f}%" if hi - lo < 1 else f"{lo:+.0f}..{hi:+.0f}%"


def run_tables(lists):
    """Per CPU, one row per case that loses against any of the three, the
    per-op loops' operand sizes on one row (the range of their losses)"""
    rows = {}
    for col, lst in enumerate(lists):
        for item in lst:
            if re.match(r"(nowhere|nothing)\b", item):
                continue
            m = RUN.match(item)
            if m:
                case, v = m["case"], percent(m)
            elif m := COUNT.match(item):
                case = f"{m['what']} in the cgroup churn"
                v = (int(m["y"]) / int(m["x"]) - 1) * 100 if int(m["x"]) else float("inf")
            else:
                sys.exit(f"cover-losses.py: cannot read the report's line: {item}")
            if case.startswith("this_cpu "):
                case = re.sub(r"\b\d+-byte\b", "1 to 8-byte", case)
            # the allocator's cases, one row a kind: the report has each
            case = re.sub(r"^(free|alloc) of \d+-byte objects \(\w+\)$",
                          r"allocator \1s, some sizes", case)
            cells = rows.setdefault(m["cpu"], {}).setdefault(case, [None] * len(lists))
            lo, hi = cells[col] or (v, v)
            cells[col] = (min(lo, v), max(hi, v))
    out = []
    for cpu in sorted(rows, key=lambda c: c != "max"):
        out += ["", f"On {CPUS.get(cpu, cpu)}:", ""]
        out += table([[case] + [cell(v) for v in cells] for case, cells in rows[cpu].items()],
                     ["case", "7.4's way", "7.2", "fixup"], 3)
    return out


def scale_table(lst):
    """scale.md's rows per CPU count in a table, against 7.4's way and =n;
    the rest (TLBI counts, memory) as they are"""
    rows, rest = {}, []
    for item in lst:
        if re.match(r"(nowhere|nothing)\b", item):
            continue
        m = SCALE.match(item)
        if not m:
            rest.append(item)
            continue
        # one row a case and CPU, the range of its losses over the
        # sizes (scale.md has each)
        key = (SHORT.get(m["case"], m["case"]), m["cpu"])
        row = rows.setdefault(key, [set(), None, None])
        row[0].add(int(m["poss"]))
        col = 1 if m["vs"].startswith("7.4") else 2
        v = float(m["p"].rstrip("%"))
        lo, hi = row[col] or (v, v)
        row[col] = (min(lo, v), max(hi, v))
    out = [list(k) + ["/".join(map(str, sorted(r[0]))), cell(r[1]), cell(r[2])]
           for k, r in rows.items()]
    return (table(out, ["case", "CPU", "possible", "7.4's way", "7.2"], 2) if out else []), rest


def report_series(report):
    """The series the report measured, as "HASH, N patches"."""
    for line in open(report):
        m = re.match(r"- series: (\S+) \((\d+) patches", line)
        if m:
            return f"{m[1]}, {m[2]} patches"
    return "?"


def section(results):
    report = f"{results}/report.md"
    series = report_series(report)
    runs = [items(report, "## Where =y loses against mainline 7.4's way"),
            items(report, "## Where =y loses against =n") or
            items(report, "## Where =y loses", exact=True),
            items(report, "## Where =y loses against the fixup variant")]
    scale, rest = scale_table(items(f"{results}/scale.md", "## Where the series costs more"))
    # The core goes up to NR_CPUS=512: 4096 possible CPUs are the
    # geometries series', whose rows scale.md has from kernels run by hand
    beyond = [r for r in rest if "4096 possible CPUs" in r]
    rest = [r for r in rest if r not in beyond]
    wrap = textwrap.TextWrapper(width=72, break_long_words=False, break_on_hyphens=False)
    out = [HEAD, "=" * len(HEAD), ""]
    out += wrap.wrap(f"Every case where this series is more than 1% behind 7.4's way, "
                     f"7.2 (the option off) or the entry-fixup variant (s390's way), "
                     f"as make bench's report lists each (bench/results/report.md; "
                     f"a row here is the range of a kind's cases; series {series}; QEMU TCG "
                     f"with -icount, so guest instructions, not time; written by "
                     f"scripts/cover-losses.py; \"-\": not behind by more than 1%):")
    out += run_tables(runs) or ["", "  nowhere"]
    out += [""] + wrap.wrap("With the possible CPUs (bench/results/scale.md, "
                            "make bench's scale section):")
    if scale:
        out += [""] + scale
    if rest:
        out.append("")
        for item in rest:
            lines = textwrap.wrap(item, width=70, break_long_words=False,
                                  break_on_hyphens=False)
            out += ["- " + lines[0]] + ["  " + l for l in lines[1:]]
    if beyond:
        out += [""] + wrap.wrap("With 4096 possible CPUs (the geometries series, "
                                "not this core's NR_CPUS) scale.md has more, from "
                                "kernels run by hand.")
    return "\n".join(out) + "\n"


def split(text, head=HEAD):
    """TEXT as (before, the section, after): the section runs from its
    heading to the next heading (a line over a row of '=')"""
    lines = text.split("\n")
    try:
        start = lines.index(head)
    except ValueError:
        return None
    end = len(lines)
    for i in range(start + 2, len(lines) - 1):
        if lines[i + 1] and set(lines[i + 1]) == {"="} and lines[i]:
            end = i
            break
    return "\n".join(lines[:start]), "\n".join(lines[start:end]), "\n".join(lines[end:])


def print_check_or_update(argv, head, want, script):
    """The section WANT, headed HEAD: printed, or checked against the cover
    letter ARGV[3] (--check), or written into it (--update)"""
    if len(argv) == 2:
        sys.stdout.write(want)
        return
    mode, path = argv[2], argv[3]
    parts = split(open(path).read(), head)
    if mode == "--check":
        if parts is None:
            sys.exit(f"{path}: no \"{head}\" section (scripts/{script} RESULTS --update)")
        if parts[1].strip() != want.strip():
            sys.exit(f"{path}: its \"{head}\" section is not the report's: "
                     f"scripts/{script} bench/results --update FILE writes it")
    elif mode == "--update":
        if parts is None:
            sys.exit(f"{path}: no \"{head}\" heading to replace")
        before, _, after = parts
        with open(path, "w") as f:
            f.write(before + "\n" + want + ("\n" + after if after else ""))
    else:
        sys.exit(f"{script}: {mode}: --check or --update")


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().split("\n\n")[1])
    print_check_or_update(sys.argv, HEAD, section(sys.argv[1]), "cover-losses.py")


if __name__ == "__main__":
    main()
