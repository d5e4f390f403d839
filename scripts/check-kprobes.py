#!/usr/bin/env python3
"""Match guest/checks/kprobes' results against the probed functions' text
in the variant's vmlinux.

The guest puts a kprobe on every instruction of the functions and prints
each offset kprobes refused ("kprobes: refused FUNC+OFF") and each probe's
hits ("kprobes: hits lm_FUNC_OFF N").  This script rebuilds the text the
CPU runs: vmlinux's, with the LSE atomics' alternatives (.altinstructions,
cpucap ARM64_HAS_LSE_ATOMICS) applied for an LSE CPU (--lse): an in-place
one replaced, and the branch of alternative_has_cap_likely() to the LL/SC
sequence made a nop, as alt_cb_patch_nops() does.  Then:

- the refused offsets must be exactly those kprobes' rules refuse on that
  text (arch/arm64/kernel/probes/decode-insn.c, decoded from the encodings
  as asm/insn.h does: an instruction it can neither step nor simulate, one
  inside a load-/store-exclusive sequence, up to 32 instructions back), or
  ftrace's call site (the entry's second nop: arm64 has no
  KPROBES_ON_FTRACE).  A probe placed inside an LL/SC loop, or refused
  for no rule, fails;
- on an LSE CPU, every LSE atomic of a patched alternative (or the first
  within 8 instructions after a branch made a nop) that kprobes takes
  must have been hit (the suite ran it, stepped out of line), and there
  must be some; on an LL/SC CPU there must be exclusive sequences.

Jump-label and static-call sites, and blacklisted functions, which kprobes
also refuses, are not modelled: none is in the probed functions, and one
would show as a refusal for no rule.

usage: check-kprobes.py VARIANT CONSOLE-LOG [--lse]
"""
import os
import re
import struct
import subprocess
import sys

NOP = 0xD503201F
BTI_C = 0xD503245F
DAIF = 0xDA11
MAX_ATOMIC_CONTEXT = 32


def match(w, mask, val):
    return w & mask == val


# asm/insn.h's __AARCH64_INSN_FUNCS, those kprobes' decoder uses
def is_load_ex(w): return match(w, 0x3FC00000, 0x08400000)
def is_store_ex(w): return match(w, 0x3FC00000, 0x08000000)
def is_exclusive(w): return match(w, 0x3F800000, 0x08000000)
def is_mops(w): return match(w, 0x3B200C00, 0x19000400)
def is_ldr_lit(w): return match(w, 0xBF000000, 0x18000000)
def is_ldrsw_lit(w): return match(w, 0xFF000000, 0x98000000)
def is_adr_adrp(w): return match(w, 0x1F000000, 0x10000000)
def is_prfm_lit(w): return match(w, 0xFF000000, 0xD8000000)
def is_class_branch_sys(w): return match(w, 0x1C000000, 0x14000000)
def is_b(w): return match(w, 0xFC000000, 0x14000000)
def is_bl(w): return match(w, 0xFC000000, 0x94000000)
def is_cbz_cbnz(w): return match(w, 0x7E000000, 0x34000000)
def is_tbz_tbnz(w): return match(w, 0x7E000000, 0x36000000)
def is_bcond(w): return match(w, 0xFF000000, 0x54000000)
def is_br(w): return match(w, 0xFFFFFC1F, 0xD61F0000)
def is_blr(w): return match(w, 0xFFFFFC1F, 0xD63F0000)
def is_ret(w): return match(w, 0xFFFFFC1F, 0xD65F0000)
def is_auth_branch(w):
    return (match(w, 0xFEFFF800, 0xD61F0800) or match(w, 0xFEFFF800, 0xD63F0800)
            or match(w, 0xFFFFFBFF, 0xD65F0BFF))
def is_exception(w): return match(w, 0xFF000000, 0xD4000000)
def is_eret(w): return match(w, 0xFFFFFFFF, 0xD69F03E0) or match(w, 0xFFFFFBFF, 0xD69F0BFF)
def is_mrs(w): return match(w, 0xFFF00000, 0xD5300000)
def is_msr(w): return match(w, 0xFFF8F01F, 0xD500401F) or match(w, 0xFFF00000, 0xD5100000)
def is_hint(w): return match(w, 0xFFFFF01F, 0xD503201F)


# XPACLRI, PACIA1716, PACIB1716, PACIAZ, PACIASP, PACIBZ, PACIBSP, BTI*, NOP
STEPPABLE_HINTS = {0x07, 0x08, 0x0A, 0x18, 0x19, 0x1A, 0x1B, 0x20, 0x22, 0x24, 0x26, 0x00}
# LSE atomics: LD<op>, SWP (atomic memory operations), CAS, CASP
def is_lse_atomic(w):
    return (match(w, 0x3F200C00, 0x38200000) or match(w, 0x3FA07C00, 0x08A07C00)
            or match(w, 0xBFA07C00, 0x08207C00))


def is_branch(w):
    return (is_b(w) or is_bl(w) or is_cbz_cbnz(w) or is_tbz_tbnz(w) or is_ret(w)
            or is_br(w) or is_blr(w) or is_auth_branch(w) or is_bcond(w))


def steppable(w):
    """aarch64_insn_is_steppable()"""
    if is_class_branch_sys(w):
        if is_branch(w) or is_msr(w) or is_exception(w) or is_eret(w):
            return False
        if is_mrs(w):
            return (w & 0x1FFFE0) >> 5 != DAIF
        if is_hint(w):
            return (w & 0xFE0) >> 5 in STEPPABLE_HINTS
        return True
    return not (is_ldr_lit(w) or is_ldrsw_lit(w) or is_adr_adrp(w) or is_prfm_lit(w)
                or is_exclusive(w) or is_mops(w))


def decoder_refuses(w):
    """arm_kprobe_decode_insn() without its scan: INSN_REJECTED?"""
    if is_ldr_lit(w) or is_ldrsw_lit(w) or w == NOP or steppable(w):
        return False
    simulated = (is_bcond(w) or is_cbz_cbnz(w) or is_tbz_tbnz(w) or is_adr_adrp(w)
                 or is_b(w) or is_bl(w) or is_br(w) or is_blr(w) or is_ret(w))
    return not simulated


class Elf:
    """Sections of a little-endian ELF64 file, by name and by address."""

    def __init__(self, path):
        self.data = open(path, "rb").read()
        shoff, = struct.unpack_from("<Q", self.data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", self.data, 0x3A)
        hdrs = [struct.unpack_from("<IIQQQQIIQQ", self.data, shoff + i * shentsize)
                for i in range(shnum)]
        strtab = hdrs[shstrndx][4]
        self.sections = {}
        for h in hdrs:
            name = self.data[strtab + h[0]:self.data.index(b"\0", strtab + h[0])].decode()
            if h[1] != 8:	# not NOBITS
                self.sections[name] = (h[3], h[4], h[5])	# addr, offset, size

    def section(self, name):
        addr, off, size = self.sections[name]
        return addr, self.data[off:off + size]

    def words(self, addr, n):
        for a, off, size in self.sections.values():
            if a and a <= addr and addr + 4 * n <= a + size:
                return list(struct.unpack_from("<%dI" % n, self.data, off + addr - a))
        raise KeyError("no section holds %#x" % addr)


CB_BIT = 1 << 15	# ARM64_CB_BIT: a callback alternative


def lse_alternatives(elf, cap, start, end):
    """(offset in the function, replacement words, a callback's?) of each
    ARM64_HAS_LSE_ATOMICS alternative in [start, end): the one callback
    alternative_has_cap_likely() uses, alt_cb_patch_nops(), writes nops."""
    base, table = elf.section(".altinstructions")
    out = []
    for i in range(0, len(table), 12):
        orig_off, alt_off, cpucap, orig_len, alt_len = struct.unpack_from("<iiHBB", table, i)
        orig = base + i + orig_off
        if cpucap & ~CB_BIT != cap or not start <= orig < end:
            continue
        if cpucap & CB_BIT:
            out.append((orig - start, [NOP] * (orig_len // 4), True))
        else:
            out.append((orig - start, elf.words(base + i + 4 + alt_off, alt_len // 4), False))
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--lse"]
    lse = "--lse" in sys.argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.join(os.environ.get("BUILD", os.path.join(top, "build")), "out", args[0])
    vmlinux = os.path.join(out, "vmlinux")
    caps = open(os.path.join(out, "arch/arm64/include/generated/asm/cpucap-defs.h")).read()
    lse_cap = int(re.search(r"#define ARM64_HAS_LSE_ATOMICS\s+(\d+)", caps).group(1))
    log = open(args[1], errors="replace").read()
    refused = {(f, int(o)) for f, o in re.findall(r"kprobes: refused (\w+)\+(\d+)", log)}
    hits = {(m.group(1), int(m.group(2))): int(m.group(3)) for m in
            re.finditer(r"kprobes: hits lm_(\w+)_(\d+) (\d+)", log)}
    if not hits:
        sys.exit("error: no kprobe results in %s" % args[1])
    cross = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
    syms = {}
    for line in subprocess.run([cross + "nm", "-S", vmlinux], check=True,
                               capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    elf = Elf(vmlinux)
    errors, atomics, sequences = [], 0, 0
    for func in sorted({f for f, _ in hits} | {f for f, _ in refused}):
        start, size = syms[func]
        text = elf.words(start, size // 4)
        patched = set()
        if lse:
            branches = []
            for off, repl, cb in lse_alternatives(elf, lse_cap, start, start + size):
                for k, w in enumerate(repl):
                    text[off // 4 + k] = w
                    if is_lse_atomic(w):
                        patched.add(off + 4 * k)
                if cb:
                    branches.append(off // 4 + len(repl))
            for b in branches:
                nxt = [j for j in range(b, min(b + 8, len(text))) if is_lse_atomic(text[j])]
                if nxt:
                    patched.add(4 * nxt[0])
        entry = 1 if text[0] == BTI_C else 0
        ftrace_site = 4 * (entry + 1) if text[entry:entry + 2] == [NOP, NOP] else None
        for i, w in enumerate(text):
            off = 4 * i
            if is_load_ex(w):
                sequences += 1
            if off == ftrace_site:
                why = "ftrace call site"
            elif decoder_refuses(w):
                why = "%s %08x" % ("an exclusive (ld/st*xr*, casp*)" if is_exclusive(w)
                                   else "cannot step or simulate", w)
            else:
                why = None
                for j in range(i - 1, max(-1, i - 1 - MAX_ATOMIC_CONTEXT), -1):
                    if is_store_ex(text[j]):
                        break
                    if is_load_ex(text[j]):
                        why = "inside an exclusive sequence"
                        break
            was_refused = (func, off) in refused
            if why and was_refused:
                print("refused %s+%d: %s" % (func, off, why))
            elif why:
                errors.append("%s+%d was probed, but kprobes refuses it: %s" % (func, off, why))
            elif was_refused:
                errors.append("%s+%d (%08x) refused for no rule of kprobes" % (func, off, w))
            elif (func, off) not in hits:
                errors.append("%s+%d: neither probed nor refused" % (func, off))
            if off in patched and not why:
                atomics += 1
                print("LSE atomic %s+%d (%08x): %d hits" % (func, off, w, hits.get((func, off), 0)))
                if not hits.get((func, off)):
                    errors.append("the LSE atomic at %s+%d was never hit" % (func, off))
    if lse and atomics == 0:
        errors.append("no probe on a patched LSE atomic")
    if not lse and sequences == 0:
        errors.append("no LL/SC sequence in the probed functions")
    print("%d probes, %d refused, %d load-exclusives, %d LSE atomics probed"
          % (len(hits), len(refused), sequences, atomics))
    for e in errors:
        print("error: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
