#!/usr/bin/env python3
"""Write the report of make bench from the guests' console logs.

usage: bench-report.py LOGDIR OUTDIR [KEY=VALUE...]

LOGDIR holds the logs bench.sh wrote: n-CPU.log and y-CPU.log (workloads:
pcpu_bench, stress-ng, memory cgroups),
n-max-smpN.log and y-max-smpN.log (memory at rest), bloat-o-meter.txt,
bloat-o-meter-base.txt (the base against =n; not in a quick run), the
entry-fixup variant's f-CPU.log, f-max-smpN.log and bloat-o-meter-fixup.txt
(=n against it; its column is there when its logs are) and
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

OP = re.compile(r"pcpu_bench: op (\S+) (\d+) (static|dynamic|api) ([\d.]+)")
ALLOC = re.compile(r"pcpu_bench: alloc (\d+) (\S+) (\d+) (\d+)")
MEMCG = re.compile(r"memcg-bench: (before|after) (.*)")
MEMCG_DONE = re.compile(r"memcg-bench: created (\d+) insns (\d+)")
PERF = re.compile(r"perf: (\S+) (\S+) (\d+|n/a)\s*$")
IPIS = re.compile(r"ipis: (\S+) (\d+)")
TLBI_MARK = re.compile(r"tlbi: mark (\d+)((?: \S+=\d+)*)")
WORKLOAD = re.compile(r"workload: (\S+) ops (\d+) insns (\d+) cmd (.*)")
MEMINFO = re.compile(r"meminfo: (\w+):\s+(\d+) kB")
WALL = re.compile(r"bench-wall: (\d+) s")
FIXUP_TABLE = re.compile(r"percpu entry fixup: (\d+) sequences, table (\d+) bytes")
TLB_REACH = re.compile(r"tlb_reach: first chunk: (\d+) pages, (\d+|unknown) TLB entries(?: \((.*)\))?")
LINEAR = re.compile(r"tlb_reach: linear map: (.*)")
CPU_PGD = re.compile(r"per-CPU kernel page tables: (?:\d+ levels, )?(\d+) bytes per CPU")


# Raw PMU events QEMU's TCG PMU accepts and never counts (DTLB_WALK,
# ITLB_WALK): 0 there is no figure.
TCG_UNCOUNTED = {"r34", "r35"}


def parse(path):
    d = {"op": {}, "alloc": {}, "memcg": {}, "workload": {}, "meminfo": {},
         "ipis": {}, "perf": {}, "wall": None}
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
            elif m := PERF.search(line):
                d["perf"][(m[1], m[2])] = None if m[3] == "n/a" else int(m[3])
            elif m := IPIS.search(line):
                d["ipis"][m[1]] = int(m[2])
            elif m := WALL.search(line):
                d["wall"] = int(m[1])
            elif m := TLB_REACH.search(line):
                d["tlb_reach"] = (int(m[1]), m[2], m[3] or "")
            elif m := LINEAR.search(line):
                d["linear"] = m[1]
            elif m := CPU_PGD.search(line):
                d["cpu_pgd"] = int(m[1])
    return d


# The TLBIs bench/tlbi-count.c names by op1.CRn.CRm.op2
TLBI_KINDS = {
    "0.8.3.0": "VMALLE1IS", "0.8.3.1": "VAE1IS", "0.8.3.2": "ASIDE1IS",
    "0.8.3.3": "VAAE1IS", "0.8.3.5": "VALE1IS", "0.8.3.7": "VAALE1IS",
    "0.8.7.0": "VMALLE1", "0.8.7.1": "VAE1", "0.8.7.2": "ASIDE1",
    "0.8.7.3": "VAAE1", "0.8.7.5": "VALE1", "0.8.7.7": "VAALE1",
    "0.8.2.1": "RVAE1IS", "0.8.2.3": "RVAAE1IS", "0.8.2.5": "RVALE1IS",
    "0.8.2.7": "RVAALE1IS",
}


def tlbi_span(path):
    """The TLBIs between the plugin log's marks 0 and 1, by kind, or None"""
    if not os.path.exists(path):
        return None
    marks = {}
    with open(path, errors="replace") as f:
        for line in f:
            if m := TLBI_MARK.search(line):
                marks[int(m[1])] = {k: int(c) for k, c in
                                    re.findall(r"(\S+)=(\d+)", m[2])}
    if 0 not in marks or 1 not in marks:
        return None
    return {TLBI_KINDS.get(k, k): c - marks[0].get(k, 0)
            for k, c in marks[1].items() if c != marks[0].get(k, 0)}


# The workloads' counts (stress-ng, the build) vary a little from boot to
# boot, up to 0.4% in two full runs: a change within this fraction is not
# listed as a loss.
WORKLOAD_NOISE = 0.01


def delta(a, b):
    return f"{(b - a) / a * 100:+.1f}%" if a else "n/a"


def chart(path, title, labels, series, ylabel):
    """series: (legend, values) per variant, as bars side by side"""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.45), 4))
    x = range(len(labels))
    w = 0.8 / len(series)
    for i, (legend, vals) in enumerate(series):
        ax.bar([j - 0.4 + w * (i + 0.5) for j in x], vals, w, label=legend)
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


# The variants: mainline 7.4's way (the reference when its logs are there),
# =y, =n (7.2.13's preempt_disable()), and the entry-fixup variant when its
# logs are there.  The first is the one the "change" columns compare with.
NAMES = {"m": "7.4", "n": "=n", "y": "=y", "f": "fixup"}
# What the "Where =y loses" lists count as a loss: more than 1% above
LOSS = 0.01
# The heading of each "Where =y loses" list
LOSES = {"m": "## Where =y loses against mainline 7.4's way",
         "n": "## Where =y loses against =n (7.2.13)",
         "f": "## Where =y loses against the fixup variant"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    logdir, outdir = sys.argv[1], sys.argv[2]
    meta_args = sys.argv[3:]
    if not meta_args and os.path.exists(os.path.join(logdir, "meta.txt")):
        with open(os.path.join(logdir, "meta.txt")) as f:
            meta_args = [l.rstrip("\n") for l in f if "=" in l]
    meta = [a.split("=", 1) for a in meta_args]
    kvm = dict(meta).get("accel") == "kvm"
    # Runs of each kernel (BENCH_RUNS): more than one, and bench-stats.py
    # gives their medians and intervals
    nruns = int(dict(meta).get("runs", "1"))
    # What the guest clock counts, and the CPU's name in headings
    unit = "ns" if kvm else "instructions"
    cpu_name = (lambda c: "host") if kvm else (lambda c: c)
    os.makedirs(outdir, exist_ok=True)
    # This report's charts of an earlier run (scale.png is bench-scale.sh's)
    for old in glob.glob(os.path.join(outdir, "ops-*.png")) + \
            glob.glob(os.path.join(outdir, "alloc-*.png")):
        os.remove(old)

    missing = []
    # A KVM run's later runs (V-CPU-rN.log) are bench-stats.py's: the
    # tables here are of the first
    cpus = sorted({b[2:-4] for b in map(os.path.basename,
                                        glob.glob(os.path.join(logdir, "[ny]-*.log")))
                   if not re.search(r"-(smp\d+|ipi|kbuild)(-r\d+)?\.log$|-r\d+\.log$", b)})
    have = lambda v: bool(glob.glob(os.path.join(logdir, f"{v}-*.log")))
    vs = ("my" if have("m") else "ny") + ("n" if have("m") else "") + \
        ("f" if have("f") else "")
    for v in vs:
        for c in list(cpus):
            if not os.path.exists(os.path.join(logdir, f"{v}-{c}.log")):
                missing.append(f"{v}-{c}.log: the {NAMES[v]} run on {c}")
                cpus.remove(c)
    runs = {(v, c): parse(os.path.join(logdir, f"{v}-{c}.log"))
            for v in vs for c in cpus}
    title = "CONFIG_PERCPU_LOCAL_MAPPING=n against =y"
    if "m" in vs:
        title = "mainline 7.4's way against =y, and =n (7.2.13)"
    if "f" in vs:
        title += ", and the entry-fixup variant"
    out = [f"# make bench: {title}", ""]
    out += [f"- {k}: {v}" for k, v in meta]
    if kvm:
        out += ["- metric: **nanoseconds** of the guest's clock under KVM on "
                "the host's CPU, not instructions; the tables below are of "
                "the first run" + (f" of {nruns}, interleaved: stats.md has "
                                   "every run's median and interval"
                                   if nruns > 1 else ", so mind the noise") +
                "; the hardware counters are perf stat's"]
    else:
        out += ["- metric: guest instructions, from the guest clock under QEMU "
                "`-icount shift=0,sleep=off` (1 ns = 1 instruction) with one "
                "vCPU running; the same from run to run to the 16 instructions "
                "of the guest timer (the stress-ng and build workloads, whole "
                "processes, to within 0.5%)"]
    if "m" in vs:
        out += ["- 7.4: bench/mainline-7.4/, this_cpu_*() preemptible as "
                "arm64's for-next/core has them for 7.4 (a record of "
                "registers in thread_info, rewritten at the return to EL1), "
                "on the series' tree with the local mapping off; \"change\" "
                "columns compare with 7.4"]
    if "f" in vs:
        out += ["- fixup: bench/entry-fixup/, this_cpu_*() with no "
                "preemption protection, fixed up at kernel-mode exception "
                "return (s390's way, with a table of the sequences), on the "
                "series' tree with the local mapping off; \"change\" "
                f"columns compare with {NAMES[vs[0]]}"]
    out.append("")
    # Losses of =y (vals[1]) against each other variant, the reference's
    # first
    others = [v for v in vs if v != "y"]
    losses = {v: [] for v in others}

    # Under -icount a boot's count is the same from run to run (to the
    # guest timer's 16 instructions): a difference of 1% is not noise.
    def lose(what, vals, noise=LOSS):
        """List WHAT where =y is above another variant"""
        for v in others:
            x = vals[vs.index(v)]
            if vals[1] <= x * (1 + noise):
                continue
            if v == vs[0]:
                losses[v].append(f"{what}: {delta(x, vals[1])}")
            else:
                losses[v].append(f"{what}: =y {delta(x, vals[1])} against {NAMES[v]}")
    if not cpus:
        missing.append(f"no n-CPU.log or y-CPU.log in {logdir}")

    def heads(*cols):
        h = list(cols) + [NAMES[v] for v in vs] + \
            [f"change {NAMES[v]}" for v in vs[1:]]
        return ["| " + " | ".join(h) + " |", "|" + "---|" * len(h)]

    def row(cols, vals, fmt="{}"):
        cells = list(cols) + [fmt.format(x) for x in vals] + \
            [delta(vals[0], x) for x in vals[1:]]
        return "| " + " | ".join(str(c) for c in cells) + " |"

    def perf_rows(p):
        """perf stat's counters that every variant's log p[v] has, a row
        each; n/a where the PMU lacks the event"""
        out = []
        for k in [k for k in p["n"]["perf"] if all(k in p[v]["perf"] for v in vs)]:
            vals = [p[v]["perf"][k] for v in vs]
            if None in vals or (not kvm and k[1] in TCG_UNCOUNTED):
                out.append("| " + " | ".join([k[0], k[1]] + ["n/a"] * (2 * len(vs) - 1)) + " |")
            else:
                out.append(row(k, vals))
        return out

    for c in cpus:
        r = {v: runs[(v, c)] for v in vs}
        n = r["n"]
        for what in ("op", "alloc", "workload"):
            for v in vs:
                if not r[v][what]:
                    missing.append(f"{what} on {c}: nothing in the {NAMES[v]} log")
                for key in set(n[what]) ^ set(r[v][what]):
                    missing.append(f"{what} {key} on {c}: in the =n log "
                                   f"or the {NAMES[v]} log only")
        for v in vs[1:]:
            for k in n["workload"]:
                if k in r[v]["workload"] and r[v]["workload"][k][0] != n["workload"][k][0]:
                    missing.append(f"workload {k} on {c}: {n['workload'][k][0]} "
                                   f"ops with =n, {r[v]['workload'][k][0]} "
                                   f"with {NAMES[v]}")
        for v in vs:
            for k in ("insns", "before", "after"):
                if k not in r[v]["memcg"]:
                    missing.append(f"memory cgroups on {c}: no '{k}' in the "
                                   f"{NAMES[v]} log")
            if r[v]["wall"] is None:
                missing.append(f"wall time on {c}: none in the {NAMES[v]} log")

        out += [f"## this_cpu_*(), {unit} per operation, -cpu {cpu_name(c)}", ""]
        out += heads("operation", "size", "variable")
        labels, bars = [], {v: [] for v in vs}
        for key in sorted(n["op"], key=lambda k: (k[2], k[0], k[1])):
            vals = [r[v]["op"].get(key) for v in vs]
            if None in vals:
                continue
            out.append(row(key, vals, "{:.2f}"))
            b = vals[1]
            for v in others:
                a = vals[vs.index(v)]
                if not b > a * (1 + LOSS):
                    continue
                if v == vs[0]:
                    losses[v].append(f"this_cpu {key[0]} {key[1]}-byte {key[2]} "
                                     f"on {c}: {a:.2f} -> {b:.2f}")
                else:
                    losses[v].append(f"this_cpu {key[0]} {key[1]}-byte {key[2]} "
                                     f"on {c}: {NAMES[v]} {a:.2f}, =y {b:.2f}")
            if key[1] == 8:
                labels.append(f"{key[0]} {key[2][0]}")
                for v, x in zip(vs, vals):
                    bars[v].append(x)
        png = f"ops-{c}.png"
        if chart(os.path.join(outdir, png), f"this_cpu_*() 8-byte, -cpu {c}",
                 labels, [(NAMES[v], bars[v]) for v in vs],
                 "instructions per op"):
            out += ["", f"![this_cpu ops on {c}]({png})"]
        out.append("")

        out += [f"## percpu allocator, -cpu {cpu_name(c)} (bitmap allocator workload)",
                "", "Instructions to allocate, then to free, the objects.", ""]
        out += heads("size", "free order", "step")
        labels, bars = [], {v: [] for v in vs}
        for key in sorted(n["alloc"]):
            if any(key not in r[v]["alloc"] for v in vs):
                continue
            for i, step in enumerate(("alloc", "free")):
                vals = [r[v]["alloc"][key][i] for v in vs]
                out.append(row((key[0], key[1], step), vals))
                lose(f"{step} of {key[0]}-byte objects ({key[1]}) on {c}", vals)
            labels.append(f"{key[0]}B {key[1]}")
            for v in vs:
                bars[v].append(sum(r[v]["alloc"][key]))
        png = f"alloc-{c}.png"
        if chart(os.path.join(outdir, png), f"alloc + free, -cpu {c}",
                 labels, [(NAMES[v], bars[v]) for v in vs], unit):
            out += ["", f"![allocator on {c}]({png})"]
        out.append("")

        # In the guest's order; the same ops everywhere or not compared.
        names = [k for k in n["workload"]
                 if all(k in r[v]["workload"] and
                        r[v]["workload"][k][0] == n["workload"][k][0] for v in vs)]
        if names:
            out += [f"## Workloads: stress-ng, the upstream reports' loops and a parallel build, -cpu {cpu_name(c)}",
                    "", "Each a fixed amount of work (stress-ng's `--*-ops`, "
                    "one instance; `bench-loops`, guest/bench-loops.c: "
                    "munmap of 1MB touched page by page, will-it-scale's "
                    "page_fault3 on a 128MB tmpfs file, one-byte pwrite() "
                    "under the superblock's percpu-rwsem; the build N times "
                    "over from a fresh copy); the count covers the whole "
                    "command, process start and exit included.", ""]
            out += heads("workload", "ops")
            for k in names:
                ops, _, cmd = n["workload"][k]
                vals = [r[v]["workload"][k][1] for v in vs]
                out.append(row((f"`{cmd}`", ops), vals))
                lose(f"`{cmd}` on {c}", vals, WORKLOAD_NOISE)
            out.append("")
        if all("insns" in r[v]["memcg"] and "after" in r[v]["memcg"] for v in vs):
            out += [f"## {n['memcg']['count']} memory cgroups, -cpu {cpu_name(c)}", ""]
            out += heads("")
            vals = [r[v]["memcg"]["insns"] for v in vs]
            out.append(row((unit,), vals))
            lose(f"memcg creation on {c}", vals)
            for k in ("Percpu", "PageTables", "VmallocUsed"):
                vals = [r[v]["memcg"]["after"].get(k, 0) -
                        r[v]["memcg"]["before"].get(k, 0) for v in vs]
                out.append(row((f"{k} growth (kB)",), vals))
            out.append("")
        walls = ", ".join(f"{NAMES[v]} {r[v]['wall']} s" for v in vs)
        if kvm:
            out += [f"Wall time of the whole boot under KVM: {walls}.", ""]
        else:
            out += [f"Emulated wall time of the whole boot on {c}: {walls} "
                    "(TCG, not a hardware figure).", ""]

    ipi_cpus = [c for c in cpus
                if all(os.path.exists(os.path.join(logdir, f"{v}-{c}-ipi.log"))
                       for v in vs)]
    if cpus and not ipi_cpus:
        missing.append("IPIs and TLBIs: no v-CPU-ipi.log for every variant")
    for c in ipi_cpus:
        p = {v: parse(os.path.join(logdir, f"{v}-{c}-ipi.log")) for v in vs}
        t = {v: tlbi_span(os.path.join(logdir, f"{v}-{c}-ipi.tlbi")) for v in vs}
        out += [f"## IPIs and TLB invalidations, -cpu {cpu_name(c)}, two CPUs online", "",
                "`bench-loops pingpong`: a byte bounced between processes "
                "on CPUs 0 and 1, every wakeup an IPI to an idle CPU "
                "(IPIs of all kinds counted), taken in kernel mode (the fixup variant checks "
                "on each such exception return).  `memcg_churn` "
                "(guest/checks/memcg_churn): memory cgroups created and "
                "removed; their percpu counters freed, the allocator's "
                "balance work unmaps the emptied pages.  Instructions of "
                "both vCPUs (under -icount they take turns); TLBIs counted "
                "by bench/tlbi-count.c from the churn's start until no "
                "removed cgroup is left dying, and a second more (the "
                "balance work done).", ""]
        out += heads("", "ops")
        for k in ("pingpong", "memcg_churn"):
            if any(k not in p[v]["workload"] for v in vs):
                missing.append(f"{k} on {c}: not in every -ipi log")
                continue
            vals = [p[v]["workload"][k][1] for v in vs]
            out.append(row((f"`{p['n']['workload'][k][2]}` {unit}",
                            p["n"]["workload"][k][0]), vals))
            lose(f"{k} (2 CPUs) on {c}", vals, WORKLOAD_NOISE)
        if all("pingpong" in p[v]["ipis"] for v in vs):
            out.append(row(("IPIs", "pingpong"),
                           [p[v]["ipis"]["pingpong"] for v in vs]))
        if any(t[v] is None for v in vs):
            if not kvm:
                missing.append(f"TLBIs on {c}: no marks 0 and 1 in every -ipi.tlbi")
        else:
            for k in sorted(set().union(*(t[v] for v in vs))):
                out.append(row((f"TLBI {k}", "memcg_churn"),
                               [t[v].get(k, 0) for v in vs]))
            # A whole-TLB flush costs every CPU its TLB: a loss however
            # few instructions it takes
            full = [t[v].get("VMALLE1IS", 0) for v in vs]
            for v in others:
                x = full[vs.index(v)]
                if full[1] <= x:
                    continue
                if v == vs[0]:
                    losses[v].append(f"{full[1]} TLBI VMALLE1IS (flush_tlb_all) "
                                     f"in the cgroup churn on {c}, {NAMES[v]} {x}")
                else:
                    losses[v].append(f"{full[1]} TLBI VMALLE1IS in the cgroup "
                                     f"churn on {c}, {NAMES[v]} {x}")
            # VAE1IS, VALE1IS, ASIDE1IS and their local forms name an
            # ASID: user space's; the rest are the kernel's (all ASIDs)
            user = {"VAE1IS", "VALE1IS", "ASIDE1IS", "VAE1", "VALE1",
                    "ASIDE1", "RVAE1IS", "RVALE1IS"}
            kern = [sum(n for k, n in t[v].items() if k not in user) for v in vs]
            out.append(row(("TLBI, kernel (all ASIDs)", "memcg_churn"), kern))
            for v in others:
                x = kern[vs.index(v)]
                if kern[1] > x * (1 + LOSS):
                    losses[v].append(f"{kern[1]} kernel TLBIs in the cgroup churn "
                                     f"on {c}, {NAMES[v]} {x}")
            out.append(row(("TLBI, one ASID (user)", "memcg_churn"),
                           [sum(c for k, c in t[v].items() if k in user)
                            for v in vs]))
        out.append("")

        # perf stat around the loops (ACCEL=kvm, BENCH_PERF=1)
        keys = [k for k in p["n"]["perf"] if all(k in p[v]["perf"] for v in vs)]
        if keys:
            out += [f"## Hardware counters, -cpu {cpu_name(c)} (perf stat -a in the guest)",
                    "", "Counted by the guest's PMU around each loop, both "
                    "CPUs; n/a: the PMU lacks the event (QEMU's TCG PMU has "
                    "no TLB events, and takes the raw walk events r34 and "
                    "r35 but counts nothing for them).", ""]
            out += heads("loop", "event")
            out += perf_rows(p)
            out.append("")

    # The kernel build (guest/checks/kbuild: KVM, or BENCH_KBUILD=1)
    kb = {v: os.path.join(logdir, f"{v}-max-kbuild.log") for v in vs}
    if any(os.path.exists(kb[v]) for v in vs):
        p = {v: parse(kb[v]) for v in vs if os.path.exists(kb[v])}
        if len(p) < len(vs) or any("kbuild" not in p[v]["workload"] for v in vs):
            missing.append("kernel build: no 'workload: kbuild' in every "
                           "v-max-kbuild.log")
        else:
            cmd = p["n"]["workload"]["kbuild"][2]
            out += ["## A kernel build in the guest", "",
                    f"`{cmd}`: the base's tree built by Debian's gcc in a "
                    "Debian arm64 root filesystem (scripts/build-rootfs.sh, "
                    "a read-only virtio disk; the output in the guest's "
                    "memory), every vCPU online; perf stat's counters "
                    "around it, all CPUs.", ""]
            out += heads("", "runs")
            vals = [p[v]["workload"]["kbuild"][1] for v in vs]
            out.append(row((f"kernel build, {unit}",
                            p["n"]["workload"]["kbuild"][0]), vals))
            lose("the kernel build", vals, WORKLOAD_NOISE)
            out += perf_rows(p)
            out.append("")

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
                "geometry).", ""]
        h = ["vCPUs", f"MemTotal {NAMES[vs[0]]} - =y (kB)", "per vCPU (kB)"] + \
            [f"used {NAMES[v]} (kB)" for v in vs] + \
            [f"{NAMES[v]} - {NAMES[vs[0]]} (kB)" for v in vs[1:]] + \
            [f"Percpu {NAMES[v]}" for v in vs] + \
            ["kernel PGD copies per CPU (bytes)"]
        out += ["| " + " | ".join(h) + " |", "|" + "---|" * len(h)]
        for s in smps:
            p = {v: parse(os.path.join(logdir, f"{v}-max-smp{s}.log"))
                 if os.path.exists(os.path.join(logdir, f"{v}-max-smp{s}.log"))
                 else {"meminfo": {}} for v in vs}
            if any(not p[v]["meminfo"] for v in vs) or p["y"].get("cpu_pgd") is None:
                missing.append(f"memory at rest, {s} vCPUs: no meminfo or "
                               "per-CPU table count")
                continue
            used = [p[v]["meminfo"]["MemTotal"] - p[v]["meminfo"]["MemFree"] for v in vs]
            dt = p[vs[0]]["meminfo"]["MemTotal"] - p["y"]["meminfo"]["MemTotal"]
            cells = [s, dt, f"{dt / s:.1f}"] + used + \
                [u - used[0] for u in used[1:]] + \
                [p[v]["meminfo"].get("Percpu") for v in vs] + [p["y"].get("cpu_pgd")]
            out.append("| " + " | ".join(str(x) for x in cells) + " |")
        out.append("")

    if smps:
        s = smps[0]
        p = {v: parse(os.path.join(logdir, f"{v}-max-smp{s}.log"))
             if os.path.exists(os.path.join(logdir, f"{v}-max-smp{s}.log"))
             else {} for v in vs}
        if any("tlb_reach" not in p[v] for v in vs):
            missing.append(f"TLB reach: no tlb_reach line in a {s}-vCPU boot at rest")
        else:
            out += ["## TLB entries of the first chunk (ptdump, -cpu max)", "",
                    "guest/checks/tlb_reach: CPU 0's unit of the first percpu "
                    "chunk (the static percpu area) counted in the page-table "
                    "dump, a page a PTE, 64K of contiguous PTEs one entry, a "
                    "block one entry: with the local mapping in CPU 0's own "
                    "table at its local address (its region address shares "
                    "the tables), without it in the linear map, whose leaves "
                    "are shown because no file gives the unit's address there.", "",
                    "| kernel | unit pages | TLB entries | where | linear map |",
                    "|---|---|---|---|---|"]
            for v in vs:
                pages, entries, where = p[v]["tlb_reach"]
                out.append(f"| {NAMES[v]} | {pages} | {entries} | {where or 'linear map'} "
                           f"| {p[v].get('linear', '-')} |")
            out.append("")

    def bloat(name, heading, required):
        path = os.path.join(logdir, name)
        if not os.path.exists(path):
            if required:
                missing.append(name)
            return []
        with open(path) as f:
            lines = f.read().splitlines()
        return [heading, "", "```"] + \
            [l for l in lines if l.startswith(("add/remove", "Total"))] + \
            ["```", ""], lines

    b = bloat("bloat-o-meter.txt", "## vmlinux, =n against =y "
              "(scripts/bloat-o-meter -c: functions, data, read-only data)", True)
    if b:
        out += b[0]
    if "m" in vs:
        b = bloat("bloat-o-meter-m74.txt", "## vmlinux, =n against "
                  "mainline 7.4's way (scripts/bloat-o-meter -c)", True)
        if b:
            out += b[0]
    if "f" in vs:
        b = bloat("bloat-o-meter-fixup.txt", "## vmlinux, =n against the "
                  "fixup variant (scripts/bloat-o-meter -c)", True)
        if b:
            out += b[0]

    b = bloat("bloat-o-meter-base.txt", "## The series with the option off "
              "against the base\n\nscripts/bloat-o-meter -c, the base "
              "against =n, same fragments (functions, data, read-only data):",
              False)
    if b:
        out += b[0]
        changed = [l for l in b[1]
                   if re.match(r"^\S+\s+(\d+|-)\s+(\d+|-)\s+[+-]\d+$", l)]
        if changed:
            out += ["Changed:", "", "```"] + changed + ["```", ""]

    path = os.path.join(logdir, "emitted-code.txt")
    if os.path.exists(path):
        with open(path) as f:
            # The counts only: =n and the fixup variant break the local
            # mapping's rules by design, so the verdicts say nothing here
            lines = [l.rstrip("\n") for l in f
                     if not l.startswith(("error:", "warning:")) and l.strip()
                     and not re.match(r"\d+ functions, ", l)]
        out += ["## Emitted instructions per this_cpu_*() (refcode/pcpu_ref.c)", "",
                "scripts/check-emitted-code.py on each kernel's reference "
                "module: the instructions of each operation on the LSE path "
                "(the LL/SC choice patched out), and how many of them are not "
                "the access itself.", "", "```"] + lines + ["```", ""]
    else:
        missing.append("emitted-code.txt")

    props = {}
    path = os.path.join(logdir, "properties.txt")
    if os.path.exists(path):
        with open(path) as f:
            props = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
    pgd = None
    if smps:
        pgd = parse(os.path.join(logdir, f"y-max-smp{smps[0]}.log")).get("cpu_pgd")
    table = None
    if "f" in vs and cpus:
        with open(os.path.join(logdir, f"f-{cpus[0]}.log"), errors="replace") as f:
            table = FIXUP_TABLE.search(f.read())
    # One column a way of doing this_cpu_*() without preempt_disable():
    # the series, then 7.4's and the fixup variant where they ran
    cols = [("local mapping", "series")]
    cols += [("mainline 7.4's way", "m74")] if "m" in vs else []
    cols += [("entry fixup", "fixup")] if "f" in vs else []
    rows = {
        "lines of code (added; no KUnit tests or documentation)":
            {k: props.get(f"loc {k}") for _, k in cols},
        "memory": {
            "series": f"{pgd} bytes of page tables a possible CPU (as booted "
                      "here), and its region of vmalloc space",
            "m74": "2 bytes in thread_info, 16 in each exception frame",
            "fixup": table and f"{table[2]} bytes of table at run time "
                     f"({table[1]} sequences), nothing a CPU"},
        "an operation": {
            "series": "the access on the local address",
            "m74": "mov, strh of the record, mrs of TPIDR_EL1, add, the "
                   "access, strh to clear the record",
            "fixup": "mrs of TPIDR_EL1, add, then the access"},
        "exception entry and return, from and to EL1": {
            "series": "nothing",
            "m74": "the record moved to pt_regs and back; three registers "
                   "rewritten if a sequence was open",
            "fixup": "TPIDR_EL1 read before and after the preemption point, "
                     "a table search if the task moved"},
        "asm, NMI, SDEI": {
            "series": "any code on the CPU's tables",
            "m74": "asm/percpu.h's sequences only; NMI and SDEI save and "
                   "restore the record",
            "fixup": "the registered sequences only"},
        "KASLR": {
            "series": "the image keeps its bits; the regions move with the "
                      "vmalloc area",
            "m74": "unchanged", "fixup": "unchanged"},
        "geometries": {
            "series": "each needs a layout of the regions (the series' "
                      "matrix)", "m74": "any", "fixup": "any"},
        "TLB": {
            "series": "unmapped pages held, then flushed in batches in every "
                      "region and at the alias (past arm64's budget one "
                      "flush_tlb_all())", "m74": "unchanged",
            "fixup": "unchanged"},
        "to be trusted": {
            "series": "every TTBR1 write lands on the CPU's own copy; the "
                      "copies stay in sync",
            "m74": "the record names the operation's registers; every "
                   "exception from EL1 saves it and every return to EL1 "
                   "adjusts",
            "fixup": "the table is complete and its registers right; every "
                     "kernel-mode preemption goes by the fixed-up return"},
    }
    # make bench's scale section (bench-scale.sh, run before this report):
    # its own file, taken in whole so the report has every figure
    scale = os.path.join(outdir, "scale.md")
    if not kvm and os.path.exists(scale):
        with open(scale) as f:
            body = f.read().strip().splitlines()[1:]
        out += ["## Against the number of possible CPUs (scale.md)"]
        out += ["#" + l if l.startswith("##") else l for l in body]
        out += [""]

    need = [props and pgd] + ([table] if "f" in vs else [])
    if len(cols) > 1 and all(need):
        out += ["## Properties: the ways without preempt_disable()", "",
                "| | " + " | ".join(c for c, _ in cols) + " |",
                "|---" * (len(cols) + 1) + "|"]
        out += [f"| {row} | " + " | ".join(str(vals[k]) for _, k in cols) + " |"
                for row, vals in rows.items()]
        out += [""]
    elif len(cols) > 1:
        missing.append("properties: no properties.txt, per-CPU table count "
                       "or fixup table in the fixup variant's log")

    if kvm:
        losses = {v: ["not listed here: stats.md lists where =y is "
                      "significantly behind, over the runs" if nruns > 1 else
                      "not listed: one run under KVM, whose noise is not known"]
                  for v in others}
    for i, v in enumerate(others):
        # Without 7.4's way, =n is the reference: its list as it always was
        head = "## Where =y loses" if v == vs[0] == "n" else LOSES[v]
        out += ([""] if i else []) + [head, ""]
        out += [f"- {l}" for l in losses[v]] or [f"- nowhere beyond {LOSS:.0%} in this run"]
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
