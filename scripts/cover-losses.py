#!/usr/bin/env python3
"""The core cover letter's "Where it loses" section, from make bench's report.

usage: cover-losses.py RESULTS                 print the section
       cover-losses.py RESULTS --check COVER   does COVER (a cover letter or
                                               branch description) have it?
       cover-losses.py RESULTS --update FILE   put it in FILE in place of its
                                               "Where it loses" section

RESULTS is bench/results: report.md's "Where =y loses" lists and scale.md's
"Where the series costs more" list, every case past 1%, as they are.  The
cover letter's figures of losses then cannot drift from the report: make
check fails when the section differs (--check), and --update writes it.
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


def group(lst):
    """One line for the items that differ only in the operand's size
    ("this_cpu raw_add 1-byte ...", "2-byte ..."): the first one's
    figures, the sizes named"""
    out, seen = [], {}
    for item in lst:
        head, _, figs = item.partition(":")
        key = re.sub(r"\b\d+-byte\b", "N-byte", head)
        # the per-op loops only: the allocator's sizes differ in their figures
        if key == head or not head.startswith("this_cpu "):
            out.append(item)
            continue
        size = re.search(r"\b(\d+)-byte\b", head)[1]
        if key in seen:
            seen[key][1].append(size)
        else:
            seen[key] = [len(out), [size], figs]
            out.append(None)
    for key, (i, sizes, figs) in seen.items():
        out[i] = key.replace("N-byte", "/".join(sizes) + "-byte") + ":" + figs + \
            (" (the first size's; the report has each)" if len(sizes) > 1 else "")
    return out


def section(results):
    report = f"{results}/report.md"
    series = "?"
    for line in open(report):
        m = re.match(r"- series: (\S+) \((\d+) patches", line)
        if m:
            series = f"{m[1]}, {m[2]} patches"
            break
    lists = [("Against 7.4's way, in guest instructions:",
              items(report, "## Where =y loses against mainline 7.4's way")),
             ("Against 7.2 (the option off), in guest instructions:",
              items(report, "## Where =y loses against =n") or
              items(report, "## Where =y loses", exact=True)),
             ("Against the entry-fixup variant (s390's way), in guest instructions:",
              items(report, "## Where =y loses against the fixup variant")),
             ("With the possible CPUs (bench/results/scale.md):",
              items(f"{results}/scale.md", "## Where the series costs more"))]
    wrap = textwrap.TextWrapper(width=72, break_long_words=False, break_on_hyphens=False)
    out = [HEAD, "=" * len(HEAD), ""]
    out += wrap.wrap(f"Every case where this series is more than 1% behind, as make bench's "
                     f"report lists it (series {series}; QEMU TCG with -icount, so "
                     f"instructions, not time; written by scripts/cover-losses.py):")
    for title, lst in lists:
        out += ["", title]
        for item in group(lst) or ["nowhere"]:
            lines = textwrap.wrap(item, width=70, break_long_words=False,
                                  break_on_hyphens=False)
            out += ["- " + lines[0]] + ["  " + l for l in lines[1:]]
    return "\n".join(out) + "\n"


def split(text):
    """TEXT as (before, the section, after): the section runs from its
    heading to the next heading (a line over a row of '=')"""
    lines = text.split("\n")
    try:
        start = lines.index(HEAD)
    except ValueError:
        return None
    end = len(lines)
    for i in range(start + 2, len(lines) - 1):
        if lines[i + 1] and set(lines[i + 1]) == {"="} and lines[i]:
            end = i
            break
    return "\n".join(lines[:start]), "\n".join(lines[start:end]), "\n".join(lines[end:])


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().split("\n\n")[1])
    want = section(sys.argv[1])
    if len(sys.argv) == 2:
        sys.stdout.write(want)
        return
    mode, path = sys.argv[2], sys.argv[3]
    parts = split(open(path).read())
    if mode == "--check":
        if parts is None:
            sys.exit(f"{path}: no \"{HEAD}\" section (scripts/cover-losses.py RESULTS --update)")
        if parts[1].strip() != want.strip():
            sys.exit(f"{path}: its \"{HEAD}\" section is not the report's: "
                     "scripts/cover-losses.py bench/results --update FILE writes it")
    elif mode == "--update":
        if parts is None:
            sys.exit(f"{path}: no \"{HEAD}\" heading to replace")
        before, _, after = parts
        with open(path, "w") as f:
            f.write(before + "\n" + want + ("\n" + after if after else ""))
    else:
        sys.exit(f"cover-losses.py: {mode}: --check or --update")


if __name__ == "__main__":
    main()
