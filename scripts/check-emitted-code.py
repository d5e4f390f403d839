#!/usr/bin/env python3
"""Check what this_cpu_*() compiles to, from the reference module of a
variant (refcode/pcpu_ref.c, built by build-kernel.sh).

A this_cpu_*() operation must run no preemption or CPU-number code of its
own: no mrs (TPIDR_EL1, or SP_EL0 for preempt_count), no call, and no
branch but those of an LL/SC loop (backwards to its load-exclusive, or
forwards out of it) and the LSE/LL-SC choice: a b at an
ARM64_HAS_LSE_ATOMICS alternative_has_cap_likely() site (patched to a nop
on LSE CPUs) to the out-of-line LL/SC sequence, which ends in a ret or a b
back.  With the local mapping no sequence may be an in-place LSE
alternative (ARM64_LSE_ATOMIC_INSN): without preempt_disable() a task can
sleep inside one while apply_alternatives_all() rewrites it; and every
operation but a read or a write must be that choice, with exactly one LSE
atomic on the path the nop leaves, an LL/SC loop out of line, and the way
back after the atomic, with no other load or store through the atomic's
base register on that path.  One operation a function, as refcode/ has
them, with the LL/SC sequence after the choice, as gcc places the unlikely
side; the way back is only checked to land after the atomic, not after
the end of the LSE asm (add_return's add).  The series'
targets on top (issue "Address space v2"): a percpu pointer is its local
address, so this_cpu_add() on a dynamic pointer is the atomic alone; a
static variable's this_cpu_read() is adrp and ldr, its this_cpu_inc() at
most STATIC_INC_MAX in all (adrp, add, mov, atomic).  raw_cpu_*() and
__this_cpu_*() (pcpu_ref_raw_*, pcpu_ref___this_cpu_*) go through the
local address too and are held to the same rules and targets: a
read-modify-write as a load, op and store would be the one form without
an atomic, and is an error; __this_cpu_*()'s one call, DEBUG_PREEMPT's
check, is left out.  Counts are of the LSE
form: the path with the branch patched out (an in-place LL/SC loop counts
as the one atomic that replaces it).  A torture test under TCG rarely
catches a missing preemption guard (the window is a few instructions
inside one translation block), this check always does.

Every operation is a compiler barrier, as 7.2's preempt_disable() made
each one and as mainline 7.4's preemptible ones are: in the
pcpu_ref_barrier_* functions the plain variable stored before the
operation must be loaded again after it.  For a read-modify-write the
store is before the LSE/LL-SC choice and the load on each path, followed
through its branches: after the atomic on the LSE one, after the loop on
the LL/SC one; for a read or a write, after its one access.  The store and the load are matched by the :lo12: relocation on
each, so not checked with KASAN or KCSAN, whose instrumented accesses
take the variable's address with adrp and add instead.

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
EXCL_STORE = re.compile(r"^st(l)?x(r|p)[bh]?$")
PLAIN_ACCESS = re.compile(r"^(ldr|ldur|ldp|str|stur|stp)[bh]?$")
PLAIN_LOAD = re.compile(r"^(ldr|ldur|ldp)[bh]?$")
PLAIN_STORE = re.compile(r"^(str|stur|stp)[bh]?$")
BARRIER = re.compile(r"^pcpu_ref_barrier_")
LSE_ATOMIC = re.compile(r"^(?:(?:ld|st)(?:add|clr|eor|set|smax|smin|umax|umin)|swp|cas|casp)(?:a|l|al)?[bh]?$")
# The operations that are one load or one store, and need no atomic
PLAIN = re.compile(r"^pcpu_ref_((raw_)?(read|write)_|(this_cpu|raw_cpu|__this_cpu)_read_static|barrier_read|barrier_write)")
COND_BRANCH = re.compile(r"^(b\.\w+|cbn?z|tbn?z)$")
FORBIDDEN = re.compile(r"^(mrs|msr|bl|blr|br|b|svc|hvc|brk)$")
NOT_COUNTED = re.compile(r"^(nop|ret|paciasp|autiasp|bti|hint)$")
KASAN_CHECK = re.compile(r"<__(asan|hwasan)_(load|store)\d+_noabort>")
PREEMPT_CHECK = re.compile(r"<__this_cpu_preempt_check>")
KCSAN_CHECK = re.compile(r"<__tsan_(volatile_)?(read|write|unaligned_read|unaligned_write)\d+>")


def relocations(ko):
    """{address: target} of the relocations in .text."""
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    dump = subprocess.run([cross + "objdump", "-dr", "-j", ".text", ko], check=True,
                          capture_output=True, text=True).stdout
    return {int(m.group(1), 16): m.group(2) for m in
            re.finditer(r"^\s+([0-9a-f]+): R_AARCH64_\w+\s+(\S+)$", dump, re.M)}


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
        ends = [i for i, x in enumerate(insns) if x[1] in ("ret", "b")]
        if ends:
            del insns[ends[-1] + 1:]
    return {n: i for n, i in funcs.items() if n.startswith("pcpu_ref_")}


def lse_sites(ko, lse_cap):
    """{.text offset: in place?} of the module's ARM64_HAS_LSE_ATOMICS
    alternatives: an entry is 12 bytes, the site's place relocated against
    .text, the cpucap at byte 8 (bit 15: a callback, which
    alternative_has_cap_likely() uses; without it, patched in place)."""
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    hexdump = subprocess.run([cross + "readelf", "-x", ".altinstructions", ko],
                             check=True, capture_output=True, text=True).stdout
    raw = b""
    for line in hexdump.splitlines():
        m = re.match(r"^\s+0x[0-9a-f]+ ((?:[0-9a-f]{1,8} ){1,4})", line)
        if m:
            raw += bytes.fromhex("".join(m.group(1).split()))
    relocs = subprocess.run([cross + "readelf", "-rW", ko], check=True,
                            capture_output=True, text=True).stdout
    sites, inside = {}, False
    for line in relocs.splitlines():
        if line.startswith("Relocation section"):
            inside = "'.rela.altinstructions'" in line
            continue
        m = re.match(r"^([0-9a-f]+)\s+\S+\s+R_AARCH64_PREL32\s+\S+\s+\.text \+ ([0-9a-f]+)$",
                     line.strip())
        if inside and m and int(m.group(1), 16) % 12 == 0:
            off = int(m.group(1), 16)
            cap = int.from_bytes(raw[off + 8:off + 10], "little")
            if cap & 0x7fff == lse_cap:
                sites[int(m.group(2), 16)] = not cap & 0x8000
    return sites


def branch_target(operands):
    m = re.search(r"\b([0-9a-f]+) <", operands)
    return int(m.group(1), 16) if m else None


def path(insns, start):
    """The instructions run from start on: through each b, to the first
    ret; a conditional branch falls through."""
    at = {x[0]: x for x in insns}
    out, a = [], start
    while a in at and len(out) < len(insns):
        out.append(at[a])
        if at[a][1] == "ret":
            break
        a = branch_target(at[a][2]) if at[a][1] == "b" else a + 4
    return out


def barrier_errors(insns, choice, relocs):
    """The pcpu_ref_barrier_* rule: see the top of this file."""
    stores = [a for a, mn, _ in insns if a < choice and PLAIN_STORE.match(mn)]
    var = relocs.get(stores[-1]) if stores else None
    if var is None:
        return ["no store to a variable before the LSE/LL-SC choice"]
    errors = []
    ops = {a: o for a, _, o in insns}
    for label, start, done in (("LSE", choice + 4, LSE_ATOMIC),
                               ("LL/SC", branch_target(ops[choice]), EXCL_STORE)):
        run = path(insns, start)
        ends = [i for i, x in enumerate(run) if done.match(x[1])]
        if not ends or not any(PLAIN_LOAD.match(mn) and relocs.get(a) == var
                               for a, mn, _ in run[ends[-1] + 1:]):
            errors.append(f"the {label} path does not load {var} again after "
                          "its atomic: not a compiler barrier")
    return errors


def barrier_rw_errors(insns, relocs):
    """The pcpu_ref_barrier_* rule for a read or a write: the store to the
    plain variable stays before the percpu access, and a load of it comes
    after."""
    ops = {a: o for a, _, o in insns}
    stores = [(a, relocs[a]) for a, mn, _ in insns
              if PLAIN_STORE.match(mn) and a in relocs]
    if not stores:
        return ["no store to a variable beside the percpu access"]
    first, var = stores[0]
    # Not the frame record's pushes and pops
    access = [a for a, mn, _ in insns if PLAIN_ACCESS.match(mn) and
              relocs.get(a) != var and not re.search(r"\[sp\b", ops[a])]
    if not access:
        return [f"no percpu access beside the store to {var}"]
    if access[0] < first:
        return [f"the store to {var} moved past the percpu access: "
                "not a compiler barrier"]
    if not any(PLAIN_LOAD.match(mn) and relocs.get(a) == var
               for a, mn, _ in insns if a > access[0]):
        return [f"{var} is not loaded again after the percpu access: "
                "not a compiler barrier"]
    return []


def check(name, insns, sites, kasan=False, kcsan=False, local=False, relocs=None):
    """(errors, total, besides): total counts the LSE form."""
    errors = []
    if kcsan:
        insns = [x for x in insns if not (x[1] == "bl" and KCSAN_CHECK.search(x[2]))]
    if kasan and name.startswith("pcpu_ref_try_cmpxchg"):
        # One check of *ovalp read and one of it written, in each tail when
        # the compiler copies the store into both the LSE and the LL/SC
        # path; another call would be an instrumented percpu access.
        calls = [x for x in insns if x[1] == "bl" and KASAN_CHECK.search(x[2])]
        loads = [x for x in calls if "_load" in x[2]]
        stores = [x for x in calls if "_store" in x[2]]
        tails = 2 if any(a in sites for a, _, _ in insns) else 1
        if len(loads) <= 1 and len(stores) <= tails:
            insns = [x for x in insns if x not in calls]
    if name.startswith("pcpu_ref___this_cpu_"):
        # DEBUG_PREEMPT's check, the one difference from raw_cpu_*()
        insns = [x for x in insns if not (x[1] == "bl" and PREEMPT_CHECK.search(x[2]))]
    if kasan and BARRIER.match(name):
        # The plain variable's checks: the percpu accesses are shown
        # uninstrumented by the other functions
        insns = [x for x in insns if not (x[1] == "bl" and KASAN_CHECK.search(x[2]))]
    addrs = {a: mn for a, mn, _ in insns}
    # The LSE/LL-SC choice: the branch to the out-of-line LL/SC sequence,
    # which runs to its first ret or b (its way back) after the loop.
    choice, ool = None, None
    for a, mn, ops in insns:
        if a not in sites:
            continue
        if sites[a] and local:
            errors.append(f"{a:x}: LSE alternative patched in place: {mn} {ops}")
        if not sites[a] and mn == "b" and (branch_target(ops) or 0) > a:
            choice = a
            start = branch_target(ops)
            rest = [x for x in insns if x[0] >= start]
            ends = [x[0] for x in rest if x[1] in ("ret", "b") and
                    any(EXCL_LOAD.match(y[1]) for y in rest if y[0] < x[0])]
            ool = (start, ends[0] if ends else insns[-1][0])
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
    if local and loop and not ool:
        errors.append("an LL/SC loop without the LSE/LL-SC choice")
    if ool and not (loop and ool[0] <= loop[0] and loop[1] <= ool[1]):
        errors.append(f"{choice:x}: the LSE/LL-SC branch does not lead to an LL/SC loop")
    if loop and not any(EXCL_STORE.match(mn) for a, mn, _ in insns
                        if loop[0] <= a <= loop[1]):
        errors.append("an LL/SC loop without a store-exclusive")
    lse_path = [(a, mn) for a, mn, _ in insns if choice is not None and
                choice < a and not (ool and ool[0] <= a <= ool[1])]
    atomics = [a for a, mn in lse_path if LSE_ATOMIC.match(mn)]
    if local and PLAIN.match(name) and BARRIER.match(name) and not (kasan or kcsan):
        errors += barrier_rw_errors(insns, relocs or {})
    if local and not PLAIN.match(name):
        if not ool:
            errors.append("a read-modify-write without the LSE/LL-SC choice")
        elif len(atomics) != 1:
            errors.append(f"{len(atomics)} LSE atomics on the LSE path, not 1")
        elif BARRIER.match(name):
            # Its base register may be reused for the plain variable
            if not (kasan or kcsan):
                errors += barrier_errors(insns, choice, relocs or {})
        else:
            # Nothing else on the path may access the atomic's address
            # (*ovalp, try_cmpxchg()'s, has a base register of its own)
            ops = {a: o for a, _, o in insns}
            base = re.search(r"\[(\w+)", ops[atomics[0]])
            for a, mn in lse_path:
                if (base and PLAIN_ACCESS.match(mn) and
                        re.search(r"\[" + base.group(1) + r"\b", ops[a])):
                    errors.append(f"{a:x}: {mn} {ops[a]} beside the atomic")
    for a, mn, ops in insns:
        t = branch_target(ops)
        if a == choice:
            continue
        if (ool and a == ool[1] and mn == "b" and t is not None and t < ool[0] and
                atomics and t > atomics[-1]):
            continue
        if FORBIDDEN.match(mn):
            errors.append(f"{a:x}: {mn} {ops}")
        elif COND_BRANCH.match(mn):
            inside = loop and loop[0] <= a <= loop[1]
            back_ok = t is not None and t <= a and EXCL_LOAD.match(addrs.get(t, ""))
            fwd_ok = t is not None and t > a and loop and t <= loop[1] + 4
            if not inside or not (back_ok or fwd_ok):
                errors.append(f"{a:x}: branch outside an LL/SC loop: {mn} {ops}")
    counted = [(a, mn) for a, mn, _ in insns if not NOT_COUNTED.match(mn) and
               a != choice and not (ool and ool[0] <= a <= ool[1])]
    if loop and not ool:
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
    if name in ("pcpu_ref_this_cpu_inc_static", "pcpu_ref_raw_cpu_inc_static") \
            and total > STATIC_INC_MAX:
        return [f"{total} instructions, limit {STATIC_INC_MAX}"]
    if name in ("pcpu_ref_this_cpu_read_static", "pcpu_ref_raw_cpu_read_static") \
            and total > STATIC_READ_MAX:
        return [f"{total} instructions, limit {STATIC_READ_MAX}"]
    return []


def main():
    variants = [a for a in sys.argv[1:] if not a.startswith("--")]
    targets = "--no-targets" not in sys.argv
    if not variants:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("BUILD", os.path.join(top, "build"))
    funcs, kasan, kcsan, local, sites, relocs = {}, {}, {}, {}, {}, {}
    for v in variants:
        ko = os.path.join(build, "out", v, "refcode", "pcpu_ref.ko")
        if not os.path.exists(ko):
            sys.exit(f"error: {ko} is not built")
        funcs[v] = functions(ko)
        relocs[v] = relocations(ko)
        with open(os.path.join(build, "out", v, ".config")) as f:
            config = f.read()
            kasan[v] = "CONFIG_KASAN=y\n" in config
            kcsan[v] = "CONFIG_KCSAN=y\n" in config
            local[v] = "CONFIG_PERCPU_LOCAL_MAPPING=y\n" in config
        caps = os.path.join(build, "out", v, "arch/arm64/include/generated/asm/cpucap-defs.h")
        with open(caps) as f:
            m = re.search(r"^#define ARM64_HAS_LSE_ATOMICS\s+(\d+)$", f.read(), re.M)
        if not m:
            sys.exit(f"error: no ARM64_HAS_LSE_ATOMICS in {caps}")
        sites[v] = lse_sites(ko, int(m.group(1)))
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
            errs, total, besides = check(name, funcs[v][name], sites[v],
                                         kasan[v], kcsan[v], local[v], relocs[v])
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
