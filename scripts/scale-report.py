#!/usr/bin/env python3
"""Write scale.md and scale.png from scale-boot.sh's lines.

usage: scale-report.py OUTDIR LINES...

Each line: "scale: VARIANT CPU POSSIBLE ONLINE full=F kernel=K user=U
NAME=VALUE ... kinds=...", NAME one of guest/checks/scale's figures (older
lines, of the churn alone, have none).  The report has, per CPU model, the
churn's full flushes and kernel invalidations by address against the
possible CPUs; the instructions of a boot, the allocator, fork/exit and
module load/unload for each kernel, and =y's difference from 7.4's way and
=n; and the memory each kernel keeps.  Every place where =y is past the
design's bound (full flushes at most =n's, by address at most twice =n's)
or more than 1% behind 7.4's way or =n is listed under the tables, so that
a loss cannot go unsaid.  The chart plots the TLBIs and =y's differences
against the possible CPUs.
"""
import os
import re
import sys

LINE = re.compile(r"scale: (\S+) (\S+) (\d+) (\d+) (.*)")
FIGURE = re.compile(r"(\w+)=(\d+)")
NAMES = {"bench-m": "7.4's way", "bench-n": "=n (7.2.13)", "v4-y": "RFC v4 (a flush an unmap)",
         "bench-y": "=y (the series)", "scale-y": "=y (the series)",
         "scale4096-n": "=n (7.2.13)", "scale4096-y": "=y (the series)"}
# The same kernel built with NR_CPUS=4096 counts as its 512-CPU self
SAME = {"scale4096-n": "bench-n", "scale4096-y": "bench-y", "scale-y": "bench-y"}
COSTS = [("boot", "boot to init"), ("alloc", "allocator (pcpu_bench's allocations and frees)"),
         ("fork", "fork and exit"), ("module", "module load and unload (percpu_test)")]
MEMORY = [("MemTotal", "MemTotal (kB)"), ("PageTables", "PageTables (kB)"),
          ("Percpu", "Percpu (kB)"), ("cpu_tables", "per-CPU kernel tables (kB, all CPUs)")]
LOSS = 1.0  # percent


def name(v):
    return NAMES.get(v, v)


def pct(a, b):
    return 100.0 * (a - b) / b


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: scale-report.py OUTDIR LINES...")
    outdir = sys.argv[1]
    allruns = {}
    for path in sys.argv[2:]:
        for line in open(path):
            m = LINE.search(line)
            if m:
                v = SAME.get(m[1], m[1])
                allruns.setdefault((v, m[2], int(m[3]), int(m[4])), []).append(
                    {k: int(x) for k, x in FIGURE.findall(m[5])})
    if not allruns:
        sys.exit("scale-report.py: no scale lines in " + " ".join(sys.argv[2:]))
    # Each figure's runs: the tables show their mean (TLBIs and memory:
    # the first run's), and a loss must hold for every pair of runs
    runs = {k: {f: (sum(r[f] for r in rs if f in r) // max(1, sum(f in r for r in rs)))
                for f in set().union(*rs)} for k, rs in allruns.items()}
    for k, rs in allruns.items():
        for f in ("full", "kernel", "user", "MemTotal", "PageTables", "Percpu", "cpu_tables"):
            if f in rs[0]:
                runs[k][f] = rs[0][f]

    def every(key, f):
        return [r[f] for r in allruns.get(key, []) if f in r]
    nruns = max(len(rs) for rs in allruns.values())
    order = ["bench-m", "bench-n", "v4-y", "bench-y"]
    variants = sorted({k[0] for k in runs}, key=lambda v: order.index(v) if v in order else 99)
    cpus = sorted({k[1] for k in runs}, key=lambda c: (c != "max", c))
    sizes = sorted({k[2] for k in runs})
    onlines = sorted({k[3] for k in runs})
    ref = "bench-m" if "bench-m" in variants else None
    losses = []

    out = ["# The kernel against the number of possible CPUs", "",
           "Each boot under QEMU TCG with `-icount shift=0,sleep=off` (a guest "
           "nanosecond is an instruction), a device tree with as many CPU nodes as "
           "possible CPUs (no vCPU for most of them) and `maxcpus` online CPUs; "
           "the figures are guest instructions, not time.  Written by "
           "scripts/bench-scale.sh (scale-boot.sh a boot) and scale-report.py.  "
           "-cpu max has range TLBIs (FEAT_TLBIRANGE) and LPA2; cortex-a57 has "
           "neither.  Rows of 4096 possible CPUs come from kernels built with "
           "NR_CPUS=4096 (configs/geometry-4k-52-4096, the geometries series), "
           "8G of memory, by hand: bench/results/scale-4096.lines says when and of "
           "which code.", ""]

    out += ["## TLB invalidations of a memory-cgroup churn", "",
            "1000 memory cgroups created and removed, twice, and the balance work "
            "done (guest/checks/memcg_churn), 2 CPUs online, counted by "
            "bench/tlbi-count.c between the churn's marks.  *full*: TLBIs that drop "
            "every entry, user ones included (flush_tlb_all()); *by address*: kernel "
            "invalidations for all ASIDs (VAALE1IS, RVAALE1IS, ...).", ""]
    for cpu in cpus:
        out += [f"### -cpu {cpu}", ""]
        out.append("| possible CPUs | " + " | ".join(
            f"{name(v)} full | {name(v)} by address" for v in variants) + " |")
        out.append("|---" * (1 + 2 * len(variants)) + "|")
        for p in sizes:
            row = [str(p)]
            for v in variants:
                r = runs.get((v, cpu, p, 2))
                row += ["-", "-"] if r is None else [f"{r['full']:,}", f"{r['kernel']:,}"]
            out.append("| " + " | ".join(row) + " |")
            n, y = runs.get(("bench-n", cpu, p, 2)), runs.get(("bench-y", cpu, p, 2))
            if n and y:
                if y["full"] > n["full"]:
                    losses.append(f"TLBIs, {cpu}, {p} possible CPUs: {y['full']} full flushes "
                                  f"against =n's {n['full']}")
                if y["kernel"] > 2 * n["kernel"]:
                    losses.append(f"TLBIs, {cpu}, {p} possible CPUs: {y['kernel']:,} invalidations "
                                  f"by address against =n's {n['kernel']:,}"
                                  + (f" (=n flushes everything {n['full']} times instead)"
                                     if n["full"] else ""))
        out.append("")

    def has(key):
        return any(key in r for r in runs.values())

    out += ["## Instructions against the possible CPUs", "",
            "Millions of guest instructions; the last columns are =y's difference from "
            "7.4's way and from =n.  *Boot to init*: the guest clock (one instruction a "
            "nanosecond) at the \"Run /init\" line.  The workloads: the instructions every "
            "vCPU executed between the guest's marks, counted by the plugin (a halted vCPU "
            "executes none); with more than one CPU online that includes what the others "
            "ran meanwhile (RCU, workers), so two boots of one kernel differ by a little.  "
            "guest/checks/scale says what each workload does.  Each kernel booted "
            f"{nruns} time(s), in turn; the tables give the mean, and a difference is "
            "marked *(loss)* only where every run of =y is more than 1% above every run "
            "of the other kernel.", ""]
    for key, title in COSTS:
        if not has(key):
            continue
        out += [f"### {title}", ""]
        head = "| CPU | online | possible CPUs | " + " | ".join(name(v) for v in variants)
        cols = 3 + len(variants)
        if ref:
            head += " | =y against 7.4's way"
            cols += 1
        head += " | =y against =n |"
        out += [head, "|---" * (cols + 1) + "|"]
        for cpu in cpus:
            for o in onlines:
                for p in sizes:
                    rs = {v: runs.get((v, cpu, p, o), {}).get(key) for v in variants}
                    if all(x is None for x in rs.values()):
                        continue
                    row = [cpu, str(o), str(p)] + [
                        "-" if rs[v] is None else f"{rs[v] / 1e6:,.2f}" for v in variants]
                    y = rs.get("bench-y")
                    ys = every(("bench-y", cpu, p, o), key)
                    for other in ([ref] if ref else []) + ["bench-n"]:
                        x = rs.get(other)
                        if y is None or not x:
                            row.append("-")
                            continue
                        d = pct(y, x)
                        xs = every((other, cpu, p, o), key)
                        # a loss: every run of =y above every run of the other
                        lost = min(ys) > max(xs) * (1 + LOSS / 100)
                        row.append(f"{d:+.1f}%" + (" (loss)" if lost else ""))
                        if lost:
                            losses.append(f"{title}, {cpu}, {o} online of {p}: =y {d:+.1f}% "
                                          f"against {name(other)}")
                    out.append("| " + " | ".join(row) + " |")
        out.append("")

    # Why boot to init grows: the W+X check's share of =y's difference
    base = ref or "bench-n"
    if has("wx") and has("boot"):
        out += ["### boot to init: the W+X check's share", "",
                "The instructions from \"Freeing unused kernel memory\" to \"Checked W+X "
                "mappings\" in the console's timestamps: DEBUG_WX's walk of the kernel's "
                "tables at the end of boot (Debian's config has it), which with the local "
                f"mapping goes through each region's tables.  Millions; =y against {name(base)}.",
                "", f"| CPU | online | possible CPUs | boot to init, =y - {name(base)} | "
                "of it, the W+X check | W+X check, =y | W+X check, " + name(base) + " |",
                "|---" * 7 + "|"]
        for cpu in cpus:
            for o in onlines:
                for p in sizes:
                    y, x = runs.get(("bench-y", cpu, p, o), {}), runs.get((base, cpu, p, o), {})
                    if not all(k in r for r in (y, x) for k in ("boot", "wx")):
                        continue
                    out.append(f"| {cpu} | {o} | {p} | {(y['boot'] - x['boot']) / 1e6:+,.2f} | "
                               f"{(y['wx'] - x['wx']) / 1e6:+,.2f} | {y['wx'] / 1e6:,.2f} | "
                               f"{x['wx'] / 1e6:,.2f} |")
        out.append("")

    if has("MemTotal"):
        out += ["## Memory kept, at rest after the workloads", "",
                "-cpu max, 2 CPUs online: meminfo's figures (kB) and the per-CPU "
                "kernel tables' size (=y's boot line, times the possible CPUs).", ""]
        out.append("| possible CPUs | what | " + " | ".join(name(v) for v in variants) + " |")
        out.append("|---" * (2 + len(variants)) + "|")
        for p in sizes:
            for key, title in MEMORY:
                rs = {v: runs.get((v, "max", p, 2), {}).get(key) for v in variants}
                if all(x is None for x in rs.values()):
                    continue
                if key == "cpu_tables":
                    rs = {v: None if x is None else x * p // 1024 for v, x in rs.items()}
                out.append(f"| {p} | {title} | " + " | ".join(
                    "-" if rs[v] is None else f"{rs[v]:,}" for v in variants) + " |")
            y, n = runs.get(("bench-y", "max", p, 2), {}), runs.get(("bench-n", "max", p, 2), {})
            if "MemTotal" in y and "MemTotal" in n and n["MemTotal"] - y["MemTotal"] > 0:
                losses.append(f"memory, {p} possible CPUs: MemTotal {n['MemTotal'] - y['MemTotal']:,} kB "
                              "below =n's")
        out.append("")

    out += ["## Where the series costs more", "",
            f"Past the TLBI bound, more than {LOSS:g}% more instructions than 7.4's way "
            "or =n in every run, or less memory than =n:", ""]
    out += [f"- {l}" for l in losses] or ["- nowhere in these tables."]
    out += ["", "![TLB invalidations and =y's differences against possible CPUs](scale.png)"]
    with open(os.path.join(outdir, "scale.md"), "w") as f:
        f.write("\n".join(out) + "\n")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scale-report.py: no matplotlib, no chart", file=sys.stderr)
        return
    rows = 2 if has("boot") else 1
    fig, axes = plt.subplots(rows, len(cpus), figsize=(5 * len(cpus), 4 * rows), squeeze=False)
    for ax, cpu in zip(axes[0], cpus):
        for i, v in enumerate(variants):
            xs = [p for p in sizes if (v, cpu, p, 2) in runs]
            ax.plot(xs, [runs[(v, cpu, p, 2)]["kernel"] for p in xs], marker="o", color=f"C{i}",
                    label=f"{name(v)} by address")
            ax.plot(xs, [runs[(v, cpu, p, 2)]["full"] for p in xs], marker="x", linestyle="--",
                    color=f"C{i}", label=f"{name(v)} full")
        ax.set_xscale("log", base=2)
        ax.set_yscale("symlog")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("possible CPUs")
        ax.set_ylabel("TLBIs in the churn")
        ax.set_title(f"-cpu {cpu}, 2 online")
        ax.legend(fontsize="small")
    against = ref or "bench-n"
    for ax, cpu in zip(axes[1] if rows > 1 else [], cpus):
        for i, (key, title) in enumerate(COSTS):
            xs = [p for p in sizes if key in runs.get(("bench-y", cpu, p, 2), {})
                  and runs.get((against, cpu, p, 2), {}).get(key)]
            ax.plot(xs, [pct(runs[("bench-y", cpu, p, 2)][key], runs[(against, cpu, p, 2)][key])
                         for p in xs], marker="o", color=f"C{i}", label=title.split(" (")[0])
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("possible CPUs")
        ax.set_ylabel(f"=y against {name(against)}, % instructions")
        ax.set_title(f"-cpu {cpu}, 2 online")
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "scale.png"), dpi=80)


if __name__ == "__main__":
    main()
