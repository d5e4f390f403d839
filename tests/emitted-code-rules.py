#!/usr/bin/env python3
"""The rules of scripts/check-emitted-code.py on hand-written functions:
the LSE/LL-SC choice as gcc emits it passes, and each way of breaking it
that the rules name fails with its message."""
import importlib.util
import os
import sys

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts",
                    "check-emitted-code.py")
spec = importlib.util.spec_from_file_location("check_emitted_code", path)
cec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cec)


def func(*lines):
    """(addr, mnemonic, operands) from 0x100 on, a line an instruction."""
    out = []
    for i, line in enumerate(lines):
        mn, _, ops = line.partition(" ")
        out.append((0x100 + 4 * i, mn, ops))
    return out


LLSC = ("ldxr x3, [x0]", "add x3, x3, x1", "stxr w2, x3, [x0]",
        "cbnz w2, 114 <f+0x14>")


def barrier(lse_tail, llsc_tail):
    """A pcpu_ref_barrier_* function: .bss stored, the choice at 0x10c,
    each path's instruction after its atomic given."""
    return func("adrp x2, 0", "mov x1, #0x1", "str x1, [x2]", "b 11c <f+0x1c>",
                "ldadd x1, x3, [x0]", lse_tail, "ret",
                "ldxr x3, [x0]", "add x3, x3, x1", "stxr w4, x3, [x0]",
                "cbnz w4, 11c <f+0x1c>", llsc_tail, "ret")


# The relocations of barrier(): the store, and a load on either path
BSS = {0x108: ".bss", 0x114: ".bss", 0x12c: ".bss"}
CHOICE = {0x100: False}	# a callback alternative: the branch made a nop
IN_PLACE = {0x100: True}
cases = [
    # name, function, sites, expected error ("" for none)
    ("choice", func("b 114 <f+0x14>", "ldadd x1, x3, [x0]", "ret", "nop", "nop",
                    *LLSC, "ret"), CHOICE, ""),
    ("choice, shared tail", func("b 114 <f+0x14>", "ldadd x1, x3, [x0]", "mov x0, x3",
                                 "ret", "nop", *LLSC, "b 108 <f+0x8>"), CHOICE, ""),
    ("LSE path not atomic", func("b 114 <f+0x14>", "ldr x3, [x0]", "add x3, x3, x1",
                                 "str x3, [x0]", "ret", *LLSC, "ret"), CHOICE,
     "0 LSE atomics on the LSE path"),
    ("no choice", func("ldr x3, [x0]", "add x3, x3, x1", "str x3, [x0]", "ret"),
     {}, "without the LSE/LL-SC choice"),
    ("LL/SC rejoins at the atomic", func("b 114 <f+0x14>", "ldadd x1, x3, [x0]", "ret",
                                         "nop", "nop", *LLSC, "b 104 <f+0x4>"),
     CHOICE, "124: b 104"),
    ("no store-exclusive", func("b 114 <f+0x14>", "ldadd x1, x3, [x0]", "ret", "nop",
                                "nop", "ldxr x3, [x0]", "add x3, x3, x1", "str x3, [x0]",
                                "cbnz w2, 114 <f+0x14>", "ret"), CHOICE,
     "without a store-exclusive"),
    ("plain access beside", func("b 118 <f+0x18>", "ldr x4, [x0]", "ldadd x1, x3, [x0]",
                                 "str x4, [x0]", "ret", "nop", "ldxr x3, [x0]",
                                 "add x3, x3, x1", "stxr w2, x3, [x0]",
                                 "cbnz w2, 118 <f+0x18>", "ret"), CHOICE,
     "104: ldr x4, [x0] beside the atomic"),
    ("try_cmpxchg's *ovalp", func("ldrb w4, [x1]", "b 118 <f+0x18>", "mov w3, w4",
                                  "casb w3, w2, [x0]", "strb w3, [x1]", "ret",
                                  "ldxrb w3, [x0]", "eor w6, w3, w4", "cbnz w6, 128 <f+0x28>",
                                  "stxrb w6, w2, [x0]", "cbnz w6, 118 <f+0x18>",
                                  "strb w3, [x1]", "ret"), {0x104: False}, ""),
    ("in place", func("ldxr x3, [x0]", "add x3, x3, x1", "stxr w2, x3, [x0]",
                      "cbnz w2, 100 <f>", "ret"), IN_PLACE,
     "LSE alternative patched in place"),
    ("preemption", func("mrs x2, sp_el0", "b 114 <f+0x14>", "ldadd x1, x3, [x0]", "ret",
                        "nop", *LLSC, "ret"), {0x104: False}, "mrs x2, sp_el0"),
    ("barrier", barrier("ldr x0, [x2]", "ldr x0, [x2]"), {0x10c: False}, "",
     "pcpu_ref_barrier_add_return", BSS),
    ("barrier, shared tail", barrier("ldr x0, [x2]", "b 114 <f+0x14>"), {0x10c: False}, "",
     "pcpu_ref_barrier_add_return", BSS),
    ("no barrier, LSE", barrier("mov x0, #0x1", "ldr x0, [x2]"), {0x10c: False},
     "the LSE path does not load .bss again", "pcpu_ref_barrier_add_return", BSS),
    ("no barrier, LL/SC", barrier("ldr x0, [x2]", "mov x0, #0x1"), {0x10c: False},
     "the LL/SC path does not load .bss again", "pcpu_ref_barrier_add_return", BSS),
    ("another load", barrier("ldp x29, x30, [sp], #16", "ldr x0, [x2]"), {0x10c: False},
     "the LSE path does not load .bss again", "pcpu_ref_barrier_add_return",
     {0x108: ".bss", 0x12c: ".bss"}),
    # A read: .bss stored, the percpu variable read, .bss read again
    ("barrier, read", func("adrp x1, 0", "mov x2, #0x1", "str x2, [x1]", "adrp x0, 0",
                           "ldr x0, [x0]", "ldr x0, [x1]", "ret"), {}, "",
     "pcpu_ref_barrier_read", {0x108: ".bss", 0x110: ".data..percpu", 0x114: ".bss"}),
    ("no barrier, read", func("adrp x1, 0", "mov x2, #0x1", "str x2, [x1]", "adrp x0, 0",
                              "ldr x0, [x0]", "mov x0, #0x1", "ret"), {},
     "not loaded again after the percpu access", "pcpu_ref_barrier_read",
     {0x108: ".bss", 0x110: ".data..percpu"}),
    ("barrier, write", func("adrp x1, 0", "mov x2, #0x1", "str x2, [x1]", "adrp x0, 0",
                            "mov x3, #0x2", "str x3, [x0]", "ldr x0, [x1]", "ret"), {}, "",
     "pcpu_ref_barrier_write", {0x108: ".bss", 0x114: ".data..percpu", 0x118: ".bss"}),
    # gcc sinks the store past a read that is no barrier
    ("store sunk, read", func("adrp x2, 0", "adrp x1, 0", "mov x0, #0x1", "ldr x1, [x1]",
                              "str x0, [x2]", "ret"), {},
     "moved past the percpu access", "pcpu_ref_barrier_read",
     {0x10c: ".data..percpu", 0x110: ".bss"}),
    ("no barrier, write", func("adrp x1, 0", "mov x2, #0x1", "str x2, [x1]", "adrp x0, 0",
                               "mov x3, #0x2", "str x3, [x0]", "mov x0, #0x1", "ret"), {},
     "not loaded again after the percpu access", "pcpu_ref_barrier_write",
     {0x108: ".bss", 0x114: ".data..percpu"}),
]
failed = 0
for name, insns, sites, want, *barrier_case in cases:
    func_name, relocs = barrier_case or ("pcpu_ref_add_u64", {})
    errors, _, _ = cec.check(func_name, insns, sites, local=True, relocs=relocs)
    ok = (not errors) if not want else any(want.replace(" ", "") in e.replace(" ", "")
                                           for e in errors)
    print(f"{'ok' if ok else 'FAILED'}: {name}: {errors or 'no error'}")
    failed += not ok
sys.exit(1 if failed else 0)
