#!/usr/bin/env python3
"""Match guest/checks/kprobes' results against the disassembly of the
probed functions in the variant's vmlinux.

The guest puts a kprobe on every instruction of the functions and prints
each offset kprobes refused ("kprobes: refused FUNC+OFF") and each probe's
hits ("kprobes: hits lm_FUNC_OFF N").  vmlinux holds the LL/SC form of
every atomic (the LSE form is an alternative, patched in at boot on a CPU
that has the atomics), so:

- every refusal must be one kprobes makes by rule (arch/arm64/kernel/
  probes/decode-insn.c): an instruction from a load-exclusive to its
  store-exclusive (at run time on an LSE CPU, casp, which the decoder
  takes for an exclusive: same encoding class), one it can neither step
  nor simulate (msr, an mrs other than DAIF, exception generation and
  return), or ftrace's call site, the second of the two nops at the
  function's entry (arm64 has no KPROBES_ON_FTRACE);
- on an LSE CPU (--lse), a probe placed on an image load-exclusive sits
  on the patched LSE atomic: every one of them must have been hit (the
  suite ran each atomic, stepped out of line), and there must be some;
- on an LL/SC CPU, no probe may be placed inside an exclusive sequence
  (the text is the image's), and there must be some sequences.

usage: check-kprobes.py VARIANT CONSOLE-LOG [--lse]
"""
import os
import re
import subprocess
import sys

LOAD_EX = re.compile(r"^ld(a)?x(r|p)[bh]?$")
STORE_EX = re.compile(r"^st(l)?x(r|p)[bh]?$")
# Instructions kprobes refuses wherever they are (besides exclusives)
NOT_STEPPABLE = re.compile(r"^(msr|brk|svc|hvc|smc|hlt|eret|eretaa|eretab)$")


def disassemble(vmlinux, func):
    """[(offset, mnemonic, operands)] of FUNC."""
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    dump = subprocess.run([cross + "objdump", "-d", "--no-show-raw-insn",
                           "--disassemble=" + func, vmlinux], check=True,
                          capture_output=True, text=True).stdout
    insns, start = [], None
    for line in dump.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if start is None:
            start = addr
        insns.append((addr - start, m.group(2), m.group(3)))
    return insns


def exclusive_offsets(insns):
    """Offsets from each load-exclusive to its store-exclusive, inclusive,
    and the load-exclusives' offsets."""
    inside, loads, open_at = set(), set(), None
    for off, mnem, _ in insns:
        if LOAD_EX.match(mnem):
            open_at = off
            loads.add(off)
        if open_at is not None:
            inside.add(off)
        if STORE_EX.match(mnem):
            open_at = None
    return inside, loads


def refusal_reason(mnem, ops, off, inside, insns):
    if off in inside:
        return "exclusive"
    if off == 4 and [i[1] for i in insns[:2]] == ["nop", "nop"]:
        return "ftrace call site"
    if NOT_STEPPABLE.match(mnem):
        return mnem
    if mnem == "mrs" and "daif" not in ops.lower():
        return "mrs"
    return None


def main():
    args = [a for a in sys.argv[1:] if a != "--lse"]
    lse = "--lse" in sys.argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("BUILD", os.path.join(top, "build"))
    vmlinux = os.path.join(build, "out", args[0], "vmlinux")
    log = open(args[1], errors="replace").read()
    refused = re.findall(r"kprobes: refused (\w+)\+(\d+)", log)
    hits = {(m.group(1), int(m.group(2))): int(m.group(3)) for m in
            re.finditer(r"kprobes: hits lm_(\w+)_(\d+) (\d+)", log)}
    if not hits:
        sys.exit("error: no kprobe results in %s" % args[1])
    funcs = sorted({f for f, _ in hits} | {f for f, _ in refused})
    errors, patched, sequences = [], 0, 0
    for func in funcs:
        insns = disassemble(vmlinux, func)
        by_off = {off: (mnem, ops) for off, mnem, ops in insns}
        inside, loads = exclusive_offsets(insns)
        sequences += len(loads)
        for f, off in refused:
            if f != func:
                continue
            mnem, ops = by_off.get(int(off), ("?", ""))
            reason = refusal_reason(mnem, ops, int(off), inside, insns)
            print("refused %s+%s: %s %s (%s)" % (f, off, mnem, ops, reason or "UNEXPLAINED"))
            if not reason:
                errors.append("%s+%s (%s %s) refused for no rule of kprobes" % (f, off, mnem, ops))
        for off in sorted(inside):
            if (func, off) not in hits:
                continue
            if not lse:
                errors.append("%s+%d is inside an LL/SC sequence but was probed" % (func, off))
            elif off in loads:
                patched += 1
                print("LSE atomic %s+%d: %d hits" % (func, off, hits[(func, off)]))
                if hits[(func, off)] == 0:
                    errors.append("the LSE atomic at %s+%d was never hit" % (func, off))
    if lse and patched == 0:
        errors.append("no probe on a patched LSE atomic")
    if not lse and sequences == 0:
        errors.append("no LL/SC sequence in %s" % ", ".join(funcs))
    print("%d probes, %d refused, %d exclusive sequences, %d LSE atomics probed"
          % (len(hits), len(refused), sequences, patched))
    for e in errors:
        print("error: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
