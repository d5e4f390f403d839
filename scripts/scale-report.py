#!/usr/bin/env python3
"""Write scale.md and scale.png from scale-churn.sh's lines.

usage: scale-report.py LINES OUTDIR

Each line: "scale: VARIANT CPU POSSIBLE ONLINE full=F kernel=K user=U kinds=...".
The table has, per CPU model and number of possible CPUs, each kernel's full
flushes and kernel invalidations by address; the chart plots both against the
possible CPUs.  A kernel whose counts exceed the bound of the local mapping's
design (full flushes at most =n's, by address at most twice =n's, or =n's full
flushes replaced) is named under the table, so that a loss cannot go unsaid.
"""
import os
import re
import sys

LINE = re.compile(r"scale: (\S+) (\S+) (\d+) (\d+) full=(\d+) kernel=(\d+) user=(\d+)")
NAMES = {"bench-n": "=n (7.2.13)", "bench-m": "7.4's way", "v4-y": "RFC v4 (a flush an unmap)",
         "bench-y": "=y (the series)", "scale-y": "=y (the series)"}


def main():
    lines, outdir = sys.argv[1], sys.argv[2]
    runs = {}
    for line in open(lines):
        m = LINE.search(line)
        if m:
            v, cpu, p = m[1], m[2], int(m[3])
            runs[(v, cpu, p)] = (int(m[5]), int(m[6]))
    if not runs:
        sys.exit("scale-report.py: no scale lines in " + lines)
    variants = sorted({k[0] for k in runs}, key=lambda v: list(NAMES).index(v) if v in NAMES else 99)
    cpus = sorted({k[1] for k in runs}, key=lambda c: (c != "max", c))
    sizes = sorted({k[2] for k in runs})

    out = ["# TLB invalidations against the number of possible CPUs", "",
           "A memory-cgroup churn (1000 memory cgroups created and removed, twice, "
           "and the balance work done: guest/checks/memcg_churn), 2 CPUs online "
           "of the possible ones (a device tree with CPU nodes no vCPU has, "
           "maxcpus=2), counted by bench/tlbi-count.c between the churn's marks. "
           "*full*: TLBIs that drop every entry, user ones included "
           "(flush_tlb_all()); *by address*: kernel invalidations for all ASIDs "
           "(VAALE1IS, RVAALE1IS, ...).  -cpu max has range TLBIs "
           "(FEAT_TLBIRANGE) and LPA2; cortex-a57 has neither.  Written by "
           "scripts/bench-scale.sh and scale-report.py.  A row of 4096 possible "
           "CPUs comes from kernels built with NR_CPUS=4096 "
           "(configs/geometry-4k-52-4096, the geometries series), 8G of memory, "
           "by scripts/scale-churn.sh by hand.", ""]
    losses = []
    for cpu in cpus:
        out.append(f"## -cpu {cpu}")
        out.append("")
        head = "| possible CPUs | " + " | ".join(
            f"{NAMES.get(v, v)} full | {NAMES.get(v, v)} by address" for v in variants) + " |"
        out.append(head)
        out.append("|---" * (1 + 2 * len(variants)) + "|")
        for p in sizes:
            row = [str(p)]
            for v in variants:
                full, kern = runs.get((v, cpu, p), (None, None))
                row += ["-" if full is None else f"{full:,}", "-" if kern is None else f"{kern:,}"]
            out.append("| " + " | ".join(row) + " |")
            n = runs.get(("bench-n", cpu, p))
            for v in variants:
                if v in ("bench-n", "bench-m", "v4-y") or (v, cpu, p) not in runs or not n:
                    continue
                full, kern = runs[(v, cpu, p)]
                if full > n[0]:
                    losses.append(f"{NAMES.get(v, v)} on {cpu} at {p} possible CPUs: "
                                  f"{full} full flushes against =n's {n[0]}")
                if kern > 2 * n[1]:
                    losses.append(f"{NAMES.get(v, v)} on {cpu} at {p} possible CPUs: "
                                  f"{kern:,} invalidations by address against =n's {n[1]:,}"
                                  + (f" (=n flushes everything {n[0]} times instead)" if n[0] else ""))
        out.append("")
    out.append("## Where the series costs more than =n")
    out.append("")
    out += [f"- {l}" for l in losses] or ["- nowhere in this table."]
    out.append("")
    out.append("![TLB invalidations against possible CPUs](scale.png)")
    with open(os.path.join(outdir, "scale.md"), "w") as f:
        f.write("\n".join(out) + "\n")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scale-report.py: no matplotlib, no chart", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, len(cpus), figsize=(5 * len(cpus), 4), squeeze=False)
    for ax, cpu in zip(axes[0], cpus):
        for i, v in enumerate(variants):
            xs = [p for p in sizes if (v, cpu, p) in runs]
            ax.plot(xs, [runs[(v, cpu, p)][1] for p in xs], marker="o", color=f"C{i}",
                    label=f"{NAMES.get(v, v)} by address")
            ax.plot(xs, [runs[(v, cpu, p)][0] for p in xs], marker="x", linestyle="--",
                    color=f"C{i}", label=f"{NAMES.get(v, v)} full")
        ax.set_xscale("log", base=2)
        ax.set_yscale("symlog")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("possible CPUs")
        ax.set_ylabel("TLBIs in the churn")
        ax.set_title(f"-cpu {cpu}")
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "scale.png"), dpi=80)


if __name__ == "__main__":
    main()
