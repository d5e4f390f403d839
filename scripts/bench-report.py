#!/usr/bin/env python3
"""Write the report of make bench from the guests' console logs.

usage: bench-report.py LOGDIR OUTDIR [KEY=VALUE...]

LOGDIR holds the logs bench.sh wrote: n-CPU.log and y-CPU.log (workloads:
pcpu_bench, stress-ng, memory cgroups),
n-max-smpN.log and y-max-smpN.log (memory at rest), bloat-o-meter.txt,
bloat-o-meter-base.txt (the base against =n; not in a quick run) and
meta.txt, KEY=VALUE lines that describe the run (base, series, QEMU, ...)
at the top of the report; KEY=VALUE arguments replace it.  OUTDIR gets
report.md and the PNG charts.  Instruction counts
come from the guest clock under QEMU -icount shift=0, one nanosecond per
guest instruction (all vCPUs); wall times are emulated and only listed.

A metric that a log lacks (a workload that did not run, a line the guest
did not print, an operation one side has and the other has not) fails the
report: it is listed under "Missing" and the exit status is 1, rather than
a section or row quietly left out.
"""
import glob
import os
import re
import sys

OP = re.compile(r"pcpu_bench: op (\S+) (\d+) (static|dynamic) ([\d.]+)")
ALLOC = re.compile(r"pcpu_bench: alloc (\d+) (\S+) (\d+) (\d+)")
MEMCG = re.compile(r"memcg-bench: (before|after) (.*)")
MEMCG_DONE = re.compile(r"memcg-bench: created (\d+) insns (\d+)")
WORKLOAD = re.compile(r"workload: (\S+) ops (\d+) insns (\d+) cmd (.*)")
MEMINFO = re.compile(r"meminfo: (\w+):\s+(\d+) kB")
WALL = re.compile(r"bench-wall: (\d+) s")
CPU_PGD = re.compile(r"per-CPU kernel page tables: (?:\d+ levels, )?(\d+) bytes per CPU")


def parse(path):
    d = {"op": {}, "alloc": {}, "memcg": {}, "workload": {}, "meminfo": {},
         "wall": None}
    with open(path, errors="replace") as f:
        for line in f:
            if m := OP.search(line):
                d["op"][(m[1], int(m[2]), m[3])] = float(m[4])
            elif m := ALLOC.search(line):
                d["alloc"][(int(m[1]), m[2])] = (int(m[3]), int(m[4]))
            elif m := MEMCG_DONE.search(line):
                d["memcg"]["count"], d["memcg"]["insns"] = int(m[1]), int(m[2])
            elif m := MEMCG.search(line):
                kv = re.findall(r"(\w+): (\d+)", m[2])
                d["memcg"][m[1]] = {k: int(v) for k, v in kv}
            elif m := WORKLOAD.search(line):
                d["workload"][m[1]] = (int(m[2]), int(m[3]), m[4].strip())
            elif m := MEMINFO.search(line):
                d["meminfo"][m[1]] = int(m[2])
            elif m := WALL.search(line):
                d["wall"] = int(m[1])
            elif m := CPU_PGD.search(line):
                d["cpu_pgd"] = int(m[1])
    return d


# The workloads' counts (stress-ng, the build) vary a little from boot to
# boot, up to 0.4% in two full runs: a change within this fraction is not
# listed as a loss.
WORKLOAD_NOISE = 0.01


def delta(a, b):
    return f"{(b - a) / a * 100:+.1f}%" if a else "n/a"


def chart(path, title, labels, n_vals, y_vals, ylabel):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.45), 4))
    x = range(len(labels))
    ax.bar([i - 0.2 for i in x], n_vals, 0.4, label="=n")
    ax.bar([i + 0.2 for i in x], y_vals, 0.4, label="=y")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    logdir, outdir = sys.argv[1], sys.argv[2]
    meta_args = sys.argv[3:]
    if not meta_args and os.path.exists(os.path.join(logdir, "meta.txt")):
        with open(os.path.join(logdir, "meta.txt")) as f:
            meta_args = [l.rstrip("\n") for l in f if "=" in l]
    meta = [a.split("=", 1) for a in meta_args]
    os.makedirs(outdir, exist_ok=True)
    for old in glob.glob(os.path.join(outdir, "*.png")):
        os.remove(old)

    missing = []
    cpus = sorted({os.path.basename(p)[2:-4] for p in
                   glob.glob(os.path.join(logdir, "[ny]-*.log"))
                   if "-smp" not in p})
    for v in "ny":
        for c in list(cpus):
            if not os.path.exists(os.path.join(logdir, f"{v}-{c}.log")):
                missing.append(f"{v}-{c}.log: the {'=n' if v == 'n' else '=y'} "
                               f"run on {c}")
                cpus.remove(c)
    runs = {(v, c): parse(os.path.join(logdir, f"{v}-{c}.log"))
            for v in "ny" for c in cpus}
    out = ["# make bench: CONFIG_PERCPU_LOCAL_MAPPING=n against =y", ""]
    out += [f"- {k}: {v}" for k, v in meta]
    out += ["- metric: guest instructions, from the guest clock under QEMU "
            "`-icount shift=0,sleep=off` (1 ns = 1 instruction) with one "
            "vCPU running; the same from run to run to the 16 instructions "
            "of the guest timer (the stress-ng and build workloads, whole "
            "processes, to within 0.5%)", ""]
    losses = []
    if not cpus:
        missing.append(f"no n-CPU.log or y-CPU.log in {logdir}")

    for c in cpus:
        n, y = runs[("n", c)], runs[("y", c)]
        for what in ("op", "alloc", "workload"):
            for v, d in (("=n", n), ("=y", y)):
                if not d[what]:
                    missing.append(f"{what} on {c}: nothing in the {v} log")
            for key in set(n[what]) ^ set(y[what]):
                missing.append(f"{what} {key} on {c}: in one log only")
        for k in n["workload"]:
            if k in y["workload"] and y["workload"][k][0] != n["workload"][k][0]:
                missing.append(f"workload {k} on {c}: {n['workload'][k][0]} "
                               f"ops with =n, {y['workload'][k][0]} with =y")
        for v, d in (("=n", n), ("=y", y)):
            for k in ("insns", "before", "after"):
                if k not in d["memcg"]:
                    missing.append(f"memory cgroups on {c}: no '{k}' in the {v} log")
            if d["wall"] is None:
                missing.append(f"wall time on {c}: none in the {v} log")
        out += [f"## this_cpu_*(), instructions per operation, -cpu {c}", "",
                "| operation | size | variable | =n | =y | change |",
                "|---|---|---|---|---|---|"]
        labels, nv, yv = [], [], []
        for key in sorted(n["op"], key=lambda k: (k[2], k[0], k[1])):
            a, b = n["op"][key], y["op"].get(key)
            if b is None:
                continue
            out.append(f"| {key[0]} | {key[1]} | {key[2]} | {a:.2f} | "
                       f"{b:.2f} | {delta(a, b)} |")
            if b > a * 1.05 and b - a > 0.5:
                losses.append(f"this_cpu {key[0]} {key[1]}-byte {key[2]} "
                              f"on {c}: {a:.2f} -> {b:.2f}")
            if key[1] == 8:
                labels.append(f"{key[0]} {key[2][0]}")
                nv.append(a)
                yv.append(b)
        png = f"ops-{c}.png"
        if chart(os.path.join(outdir, png),
                 f"this_cpu_*() 8-byte, -cpu {c}", labels, nv, yv,
                 "instructions per op"):
            out += ["", f"![this_cpu ops on {c}]({png})"]
        out.append("")

        out += [f"## percpu allocator, -cpu {c} (bitmap allocator workload)",
                "", "| size | free order | alloc =n | alloc =y | change | "
                "free =n | free =y | change |", "|---|---|---|---|---|---|---|---|"]
        labels, nv, yv = [], [], []
        for key in sorted(n["alloc"]):
            if key not in y["alloc"]:
                continue
            (an, fn), (ay, fy) = n["alloc"][key], y["alloc"][key]
            out.append(f"| {key[0]} | {key[1]} | {an} | {ay} | {delta(an, ay)} "
                       f"| {fn} | {fy} | {delta(fn, fy)} |")
            for what, a, b in (("alloc", an, ay), ("free", fn, fy)):
                if b > a * 1.05:
                    losses.append(f"{what} of {key[0]}-byte objects "
                                  f"({key[1]}) on {c}: {delta(a, b)}")
            labels.append(f"{key[0]}B {key[1]}")
            nv.append(an + fn)
            yv.append(ay + fy)
        png = f"alloc-{c}.png"
        if chart(os.path.join(outdir, png), f"alloc + free, -cpu {c}",
                 labels, nv, yv, "instructions"):
            out += ["", f"![allocator on {c}]({png})"]
        out.append("")

        wn, wy = n["workload"], y["workload"]
        # In the guest's order; the same ops on both or not compared.
        names = [k for k in wn if k in wy and wy[k][0] == wn[k][0]]
        if names:
            out += [f"## Workloads: stress-ng, the upstream reports' loops and a parallel build, -cpu {c}",
                    "", "Each a fixed amount of work (stress-ng's `--*-ops`, "
                    "one instance; `bench-loops`, guest/bench-loops.c: "
                    "munmap of 1MB touched page by page, will-it-scale's "
                    "page_fault3 on a 128MB tmpfs file, one-byte pwrite() "
                    "under the superblock's percpu-rwsem; the build N times "
                    "over from a fresh copy); the count covers the whole "
                    "command, process start and exit included.", "",
                    "| workload | ops | =n | =y | change | per op =n | "
                    "per op =y |", "|---|---|---|---|---|---|---|"]
            for k in names:
                ops, a, cmd = wn[k]
                b = wy[k][1]
                out.append(f"| `{cmd}` | {ops} | {a} | {b} | {delta(a, b)} "
                           f"| {a // ops} | {b // ops} |")
                if b > a * (1 + WORKLOAD_NOISE):
                    losses.append(f"`{cmd}` on {c}: {delta(a, b)}")
            out.append("")
        mn, my = n["memcg"], y["memcg"]
        if "insns" in mn and "insns" in my and "after" in mn and "after" in my:
            out += [f"## {mn['count']} memory cgroups, -cpu {c}", "",
                    "| | =n | =y | change |", "|---|---|---|---|",
                    f"| instructions | {mn['insns']} | {my['insns']} | "
                    f"{delta(mn['insns'], my['insns'])} |"]
            for k in ("Percpu", "PageTables", "VmallocUsed"):
                a = mn["after"].get(k, 0) - mn["before"].get(k, 0)
                b = my["after"].get(k, 0) - my["before"].get(k, 0)
                out.append(f"| {k} growth (kB) | {a} | {b} | {delta(a, b)} |")
            if my["insns"] > mn["insns"] * 1.05:
                losses.append(f"memcg creation on {c}: "
                              f"{delta(mn['insns'], my['insns'])}")
            out.append("")
        out += [f"Emulated wall time of the whole boot on {c}: =n "
                f"{n['wall']} s, =y {y['wall']} s (TCG, not a hardware "
                "figure).", ""]

    smps = sorted({int(m) for p in glob.glob(os.path.join(logdir, "y-max-smp*.log"))
                   for m in re.findall(r"smp(\d+)", p)})
    if not smps:
        missing.append("memory at rest: no y-max-smpN.log")
    if smps:
        out += ["## Memory at rest against the number of vCPUs (-cpu max)", "",
                "MemTotal, which leaves out what memblock handed out at "
                "boot (the per-CPU kernel page tables among it); MemTotal "
                "- MemFree, the memory used after boot; and the series' "
                "own count of its per-CPU kernel page tables (its boot "
                "message: the copies of the top level and of the levels "
                "below it on the window's path, which depend on the "
                "geometry).", "",
                "| vCPUs | MemTotal =n - =y (kB) | per vCPU (kB) | used =n "
                "(kB) | used =y (kB) | =y - =n (kB) | Percpu =n | Percpu =y "
                "| kernel PGD copies per CPU (bytes) |",
                "|---|---|---|---|---|---|---|---|---|"]
        for s in smps:
            a = parse(os.path.join(logdir, f"n-max-smp{s}.log"))["meminfo"]
            y = parse(os.path.join(logdir, f"y-max-smp{s}.log"))
            b = y["meminfo"]
            if not a or not b or y.get("cpu_pgd") is None:
                missing.append(f"memory at rest, {s} vCPUs: no meminfo or "
                               "per-CPU table count")
                continue
            ua = a["MemTotal"] - a["MemFree"]
            ub = b["MemTotal"] - b["MemFree"]
            dt = a["MemTotal"] - b["MemTotal"]
            out.append(f"| {s} | {dt} | {dt / s:.1f} | {ua} | {ub} | "
                       f"{ub - ua} | {a.get('Percpu')} | "
                       f"{b.get('Percpu')} | {y.get('cpu_pgd')} |")
        out.append("")

    bloat = os.path.join(logdir, "bloat-o-meter.txt")
    if os.path.exists(bloat):
        with open(bloat) as f:
            lines = f.read().splitlines()
        out += ["## vmlinux, =n against =y (scripts/bloat-o-meter -c: "
                "functions, data, read-only data)", "", "```"] + \
               [l for l in lines if l.startswith(("add/remove", "Total"))] + \
               ["```", ""]
    else:
        missing.append("bloat-o-meter.txt")

    base = os.path.join(logdir, "bloat-o-meter-base.txt")
    if os.path.exists(base):
        with open(base) as f:
            lines = f.read().splitlines()
        out += ["## The series with the option off against the base", "",
                "scripts/bloat-o-meter -c, the base against =n, same "
                "fragments (functions, data, read-only data):", "", "```"] + \
               [l for l in lines if l.startswith(("add/remove", "Total"))] + \
               ["```", ""]
        changed = [l for l in lines if re.match(r"^\S+\s+(\d+|-)\s+(\d+|-)\s+[+-]\d+$", l)]
        if changed:
            out += ["Changed:", "", "```"] + changed + ["```", ""]

    out += ["## Where =y loses", ""]
    out += [f"- {l}" for l in losses] or ["- nowhere beyond 5% in this run"]
    if missing:
        out += ["", "## Missing (the report is incomplete)", ""]
        out += [f"- {m}" for m in missing]
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))
    if missing:
        sys.exit(f"error: {len(missing)} metrics missing from the logs in "
                 f"{logdir}; see the end of {outdir}/report.md")


if __name__ == "__main__":
    main()
