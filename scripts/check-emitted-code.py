#!/usr/bin/env python3
"""Check what this_cpu_*() compiles to, from the reference module of a
variant (refcode/pcpu_ref.c, built by build-kernel.sh).

A this_cpu_*() operation must run no preemption or CPU-number code of its
own: no mrs (TPIDR_EL1, or SP_EL0 for preempt_count), no call, and no
branch but those of an LL/SC loop (backwards to its load-exclusive, or
forwards out of it).  The series' targets on top (issue "Address space
v2"): a percpu pointer is its local address, so this_cpu_add() on a dynamic
pointer is the atomic alone; a static variable's this_cpu_read() is adrp and
ldr, its this_cpu_inc() at most STATIC_INC_MAX in all (adrp, add, mov,
atomic).  Counts are of the LSE form: the LL/SC loop, inlined in .text, is one
atomic once the alternative is applied, the rest is identical.  A torture
test under TCG rarely catches a missing preemption guard (the window is a
few instructions inside one translation block), this check always does.

In a KASAN build the one call allowed is a KASAN check in
this_cpu_try_cmpxchg(), on *ovalp, the caller's memory: every percpu access
must be uninstrumented (the local address has no shadow), which the other
functions show.  In a KCSAN build the calls to KCSAN's checks
(__tsan_*) are left out and the count targets are not applied: KCSAN
instruments this_cpu_read() and this_cpu_write() (READ_ONCE() and
WRITE_ONCE() on the local address, marked accesses it does not watch) as
it does in the base kernel; the structural rules still hold for the rest.

usage: check-emitted-code.py VARIANT... [--no-targets]
  VARIANT...    one column each, e.g. a gcc and a clang build side by side
  --no-targets  only the structural rules (for the =n build, which keeps
                preempt_disable() and is listed for comparison)
"""
import os
import re
import subprocess
import sys

DYN_ADD_BESIDES_MAX = int(os.environ.get("DYN_ADD_BESIDES_MAX", "0"))
STATIC_READ_MAX = int(os.environ.get("STATIC_READ_MAX", "2"))
STATIC_INC_MAX = int(os.environ.get("STATIC_INC_MAX", "4"))

EXCL_LOAD = re.compile(r"^ld(a)?x(r|p)[bh]?$")
COND_BRANCH = re.compile(r"^(b\.\w+|cbn?z|tbn?z)$")
FORBIDDEN = re.compile(r"^(mrs|msr|bl|blr|br|b|svc|hvc|brk)$")
NOT_COUNTED = re.compile(r"^(nop|ret|paciasp|autiasp|bti|hint)$")
KASAN_CHECK = re.compile(r"<__(asan|hwasan)_(load|store)\d+_noabort>")
KCSAN_CHECK = re.compile(r"<__tsan_(volatile_)?(read|write|unaligned_read|unaligned_write)\d+>")


def functions(ko):
    """{name: [(addr, mnemonic, operands)]}, each cut after its last ret."""
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    dump = subprocess.run([cross + "objdump", "-d", "--no-show-raw-insn",
                           "-j", ".text", ko], check=True,
                          capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in dump.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\w+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2), m.group(3)))
    for name, insns in funcs.items():
        rets = [i for i, x in enumerate(insns) if x[1] == "ret"]
        if rets:
            del insns[rets[-1] + 1:]
    return {n: i for n, i in funcs.items() if n.startswith("pcpu_ref_")}


def branch_target(operands):
    m = re.search(r"\b([0-9a-f]+) <", operands)
    return int(m.group(1), 16) if m else None


def check(name, insns, kasan=False, kcsan=False):
    """(errors, total, besides): total counts the LSE form."""
    errors = []
    if kcsan:
        insns = [x for x in insns if not (x[1] == "bl" and KCSAN_CHECK.search(x[2]))]
    if kasan and name.startswith("pcpu_ref_try_cmpxchg"):
        # One check of *ovalp read and one of it written; a third call
        # would be an instrumented percpu access.
        calls = [x for x in insns if x[1] == "bl" and KASAN_CHECK.search(x[2])]
        loads = [x for x in calls if "_load" in x[2]]
        stores = [x for x in calls if "_store" in x[2]]
        if len(loads) <= 1 and len(stores) <= 1:
            insns = [x for x in insns if x not in calls]
    addrs = {a: mn for a, mn, _ in insns}
    loads = [a for a, mn, _ in insns if EXCL_LOAD.match(mn)]
    loop = None
    if loads:
        closing = [a for a, mn, ops in insns if COND_BRANCH.match(mn) and
                   branch_target(ops) in loads and branch_target(ops) <= a]
        if not closing:
            errors.append("load-exclusive without a retry branch")
        else:
            start = loads[0]
            prev = [x for x in insns if x[0] == start - 4]
            if prev and prev[0][1] == "prfm":
                start -= 4
            loop = (start, max(closing))
    for a, mn, ops in insns:
        if FORBIDDEN.match(mn):
            errors.append(f"{a:x}: {mn} {ops}")
        elif COND_BRANCH.match(mn):
            t = branch_target(ops)
            inside = loop and loop[0] <= a <= loop[1]
            back_ok = t is not None and t <= a and EXCL_LOAD.match(addrs.get(t, ""))
            fwd_ok = t is not None and t > a and loop and t <= loop[1] + 4
            if not inside or not (back_ok or fwd_ok):
                errors.append(f"{a:x}: branch outside an LL/SC loop: {mn} {ops}")
    counted = [(a, mn) for a, mn, _ in insns if not NOT_COUNTED.match(mn)]
    if loop:
        besides = len([1 for a, _ in counted if not loop[0] <= a <= loop[1]])
        total = besides + 1
    else:
        total = len(counted)
        besides = total - 1
    return errors, total, besides


def target_errors(name, total, besides):
    if name == "pcpu_ref_this_cpu_add" and besides > DYN_ADD_BESIDES_MAX:
        return [f"{besides} instructions besides the atomic, "
                f"target {DYN_ADD_BESIDES_MAX}"]
    if name == "pcpu_ref_this_cpu_inc_static" and total > STATIC_INC_MAX:
        return [f"{total} instructions, limit {STATIC_INC_MAX}"]
    if name == "pcpu_ref_this_cpu_read_static" and total > STATIC_READ_MAX:
        return [f"{total} instructions, limit {STATIC_READ_MAX}"]
    return []


def main():
    variants = [a for a in sys.argv[1:] if not a.startswith("--")]
    targets = "--no-targets" not in sys.argv
    if not variants:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("BUILD", os.path.join(top, "build"))
    funcs, kasan, kcsan = {}, {}, {}
    for v in variants:
        ko = os.path.join(build, "out", v, "refcode", "pcpu_ref.ko")
        if not os.path.exists(ko):
            sys.exit(f"error: {ko} is not built")
        funcs[v] = functions(ko)
        with open(os.path.join(build, "out", v, ".config")) as f:
            config = f.read()
            kasan[v] = "CONFIG_KASAN=y\n" in config
            kcsan[v] = "CONFIG_KCSAN=y\n" in config
        if not funcs[v]:
            sys.exit(f"error: no pcpu_ref_* function in {ko}")

    names = sorted(set().union(*funcs.values()))
    print(f"{'':40}" + "".join(f" {v[:24]:>24}" for v in variants))
    print(f"{'function':40}" +
          f" {'insns':>12}{'not atomic':>12}" * len(variants))
    failed = 0
    for name in names:
        cols, errors = [], []
        for v in variants:
            if name not in funcs[v]:
                cols.append(f" {'-':>24}")
                errors.append(f"{v}: missing")
                continue
            errs, total, besides = check(name, funcs[v][name], kasan[v], kcsan[v])
            if targets and not kcsan[v]:
                errs += target_errors(name, total, besides)
            cols.append(f" {total:>12}{besides:>12}")
            errors += [f"{v}: {e}" for e in errs]
        print(f"{name:40}" + "".join(cols))
        for e in errors:
            print(f"error: {name}: {e}")
        failed += bool(errors)
    print(f"{len(names)} functions, {failed} with errors")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
