#!/usr/bin/env python3
"""Medians and confidence intervals of make bench's repeated runs.

usage: bench-stats.py LOGDIR [OUT.md]

Under KVM a figure is time on the host's CPU and varies from run to run:
bench.sh then boots every kernel BENCH_RUNS times, in turn (7.4's way, =n,
=y, 7.4's way, ...), the first run's logs as V-CPU.log, the next ones as
V-CPU-rN.log.  For every figure all runs of a kernel have (this_cpu_*()
operations, allocator times, workloads, perf stat's counters), this writes
the median of the runs and the 95% confidence interval of their mean
(Student's t, n - 1 degrees of freedom), and =y's change against each other
kernel, marked significant only when the two intervals do not overlap.
Every figure here is a cost: more is worse.  Fewer than two runs of a
kernel is an error: there is no interval to give.
"""
import glob
import importlib.util
import os
import re
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench_report", os.path.join(here, "bench-report.py"))
bench_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_report)

# Student's t for a two-sided 95% interval, by degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
       7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086,
       30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}
# The figures' resolution: an interval is never narrower than this, in
# the figure's unit and as a fraction of it, so that runs that happen to
# agree (a rounded 0.00, a count) do not make any difference significant
FLOOR, FLOOR_REL = 0.005, 0.005
NAMES = {"m": "7.4", "n": "=n", "y": "=y", "f": "fixup"}
LOG = re.compile(r"^([mnyf])-([\w-]+?)(?:-r(\d+))?\.log$")


def t95(df):
    """t for df degrees of freedom, or for the next lower df in the table
    (a larger t: a wider interval)"""
    return T95[max(k for k in T95 if k <= df)]


def interval(xs):
    """(median, low, high) of the runs xs"""
    mean = statistics.fmean(xs)
    half = max(t95(len(xs) - 1) * statistics.stdev(xs) / len(xs) ** 0.5,
               FLOOR, FLOOR_REL * abs(mean))
    return statistics.median(xs), mean - half, mean + half


def figures(d):
    """A parsed log's figures, by name"""
    f = {}
    for (op, size, kind), v in d["op"].items():
        f[f"{op} {size} {kind}"] = v
    for (size, order), (alloc, free) in d["alloc"].items():
        f[f"alloc of {size}-byte objects ({order})"] = alloc
        f[f"free of {size}-byte objects ({order})"] = free
    for name, (_, insns, _) in d["workload"].items():
        f[f"workload {name}"] = insns
    for (work, event), v in d["perf"].items():
        if v is not None:
            f[f"perf {work} {event}"] = v
    return f


def runs(logdir):
    """{cpu: {variant: [figures of each run]}} of the workload logs"""
    out = {}
    for path in sorted(glob.glob(os.path.join(logdir, "*.log"))):
        m = LOG.match(os.path.basename(path))
        # the memory boots are not repeated
        if not m or re.search(r"-smp\d+$", m[2]):
            continue
        out.setdefault(m[2], {}).setdefault(m[1], []).append(
            figures(bench_report.parse(path)))
    return out


def fmt(x):
    return f"{x:.2f}" if abs(x) < 100 else f"{x:,.0f}"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    data = runs(sys.argv[1])
    if not data:
        sys.exit(f"error: no workload logs in {sys.argv[1]}")
    out = ["# make bench: repeated runs", "",
           "Each kernel booted in turn, its runs interleaved with the "
           "others'.  Per figure: the median of the runs [the 95% confidence "
           "interval of their mean]; =y's change is of the medians, "
           "**significant** only when the two intervals do not overlap.  "
           "Every figure is a cost: more is worse.", ""]
    behind, missing = [], []
    for cpu, by_v in sorted(data.items()):
        variants = [v for v in "mnyf" if v in by_v]
        few = [v for v in variants if len(by_v[v]) < 2]
        if few or "y" not in by_v:
            sys.exit(f"error: {cpu}: fewer than two runs of "
                     f"{', '.join(NAMES[v] for v in few or ['y'])}")
        others = [v for v in variants if v != "y"]
        every = [set(r) for v in variants for r in by_v[v]]
        names = sorted(set.intersection(*every))
        missing += [f"{name} on {cpu}: not in every run of every kernel"
                    for name in sorted(set.union(*every) - set(names))]
        out += [f"## {cpu}: {min(len(by_v[v]) for v in variants)} runs "
                "a kernel or more", "",
                "| figure | " + " | ".join(NAMES[v] for v in variants) + " | "
                + " | ".join(f"=y vs {NAMES[v]}" for v in others) + " |",
                "|---" * (1 + len(variants) + len(others)) + "|"]
        for name in names:
            iv = {v: interval([r[name] for r in by_v[v]]) for v in variants}
            cells = [f"{fmt(iv[v][0])} [{fmt(iv[v][1])}, {fmt(iv[v][2])}]"
                     for v in variants]
            for v in others:
                base, y = iv[v], iv["y"]
                change = bench_report.delta(base[0], y[0])
                apart = y[1] > base[2] or y[2] < base[1]
                cells.append(f"{change}{' **significant**' if apart else ''}")
                if apart and y[1] > base[2]:
                    behind.append(f"- {name} on {cpu}: =y {change} against "
                                  f"{NAMES[v]}")
            out.append(f"| {name} | " + " | ".join(cells) + " |")
        out.append("")
    out += ["## Where =y is significantly behind", ""]
    out += behind or ["- nowhere"]
    if missing:
        out += ["", "## Missing (not in these tables)", ""]
        out += [f"- {m}" for m in missing]
    text = "\n".join(out) + "\n"
    if len(sys.argv) == 3:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
