#!/usr/bin/env python3
"""Read a kdump vmcore of the series' kernel with drgn, as a crash tool
would, and check that it finds the percpu data (scripts/check-kdump.sh).

For every CPU online at the crash:
  runqueues.cpu   a static percpu variable of the image, through its symbol
                  and drgn's own per_cpu(): CPU n's struct rq says n (7.2's
                  arm64 has no cpu_number: raw_smp_processor_id() reads
                  thread_info).  drgn leaves the symbol unrelocated under
                  KASLR: see image_percpu(), which adds KERNELOFFSET
  static          refcode/kdump_pcpu.ko's DEFINE_PER_CPU variable, found
                  through the module's debug info, 0x6b640000 + n
  dynamic         that module's alloc_percpu() pointer, per_cpu_ptr(),
                  0x6b650000 + n
and the oops' show_pte() line: "CPU<n>'s pgtable: ... pgdp=<phys>" for
the CPU that crashed, pgdp the physical address of cpu_kernel_pgd[n] as
the vmcore has it (never "swapper pgtable": swapper_pg_dir is not what a
CPU runs on).  The console log gives the online CPUs, the crashing CPU
and the two local addresses the module printed (%px), which drgn's own
must equal.  Prints what it read, CPU by CPU; exits 1 on any mismatch.

usage: kdump-read.py [--static-base N] [--dynamic-base N] [--cpus LIST]
                     [--crash-cpu N] VMLINUX VMCORE KDUMP_PCPU.KO CONSOLE-LOG
  --cpus       the CPUs to check (default: "kdump: online" in the log)
  --crash-cpu  the CPU the guest was pinned to when it crashed
"""
import argparse
import re
import sys

try:
    import drgn
    from drgn.helpers.linux.mm import virt_to_phys
    from drgn.helpers.linux.percpu import per_cpu, per_cpu_ptr
except ImportError:
    sys.exit("error: no drgn in this Python (%s): run scripts/drgn-venv.sh, "
             "which installs it in build/tools/drgn-venv" % sys.executable)

errors = 0


def check(ok, what):
    global errors
    if not ok:
        errors += 1
        print(f"MISMATCH: {what}")
    return ok


def cpu_list(text):
    cpus = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus += range(int(lo), int(hi or lo) + 1)
    return cpus


def first(pattern, log, what):
    for line in log:
        m = re.search(pattern, line)
        if m:
            return m
    sys.exit(f"error: no {what} in the console log")


def image_percpu(prog, name, kaslr):
    """A static percpu variable of vmlinux, at its run-time local address,
    and the offset added to drgn's own (0 when drgn's is right).

    drgn relocates a vmlinux address by KERNELOFFSET only when the
    relocated address falls within the kernel's address range, which it
    takes from vmlinux's loadable segments; anything else it takes for an
    x86-64 style per-CPU offset (that section is linked at 0 there) and
    leaves as linked.  With the local mapping the static percpu section
    is linked PCPU_LINK_OFFSET above its place in the image, outside that
    range, yet KASLR moves it with the image: its addresses need
    KERNELOFFSET too (vmcoreinfo has it)."""
    var = prog[name]
    addr = var.address_
    start = prog.symbol("__per_cpu_start").address
    end = prog.symbol("__per_cpu_end").address
    ranges = prog.main_module().address_ranges or ()
    if start <= addr < end and not any(lo <= addr < hi for lo, hi in ranges):
        return drgn.Object(prog, var.type_, address=addr + kaslr), kaslr
    return var, 0


def stock_per_cpu(addr, var, cpu):
    """What drgn's per_cpu() reads at drgn's own address, as a string."""
    try:
        rq = per_cpu(drgn.Object(var.prog_, var.type_, address=addr), cpu)
        return f"cpu {rq.cpu.value_()}"
    except drgn.FaultError as e:
        return f"nothing ({e})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--static-base", type=lambda s: int(s, 0), default=0x6b640000)
    ap.add_argument("--dynamic-base", type=lambda s: int(s, 0), default=0x6b650000)
    ap.add_argument("--cpus")
    ap.add_argument("--crash-cpu", type=int)
    ap.add_argument("vmlinux")
    ap.add_argument("vmcore")
    ap.add_argument("ko")
    ap.add_argument("log")
    args = ap.parse_args()

    with open(args.log, errors="replace") as f:
        log = f.read().splitlines()
    cpus = cpu_list(args.cpus or first(r"kdump: online (\S+)", log, "online CPU list").group(1))
    printed = first(r"kdump_pcpu: static ([0-9a-fx]+) dynamic ([0-9a-fx]+)", log,
                    "kdump_pcpu addresses")
    printed_static, printed_dynamic = (int(x, 16) for x in printed.groups())
    # The oops: "CPU: N UID: ..." and show_pte()'s first line
    oops_cpu = int(first(r"\bCPU: (\d+) ", log, "oops CPU line").group(1))
    pgtable = first(r"(CPU(\d+)'s|swapper|user) pgtable: (\d+)k pages, (\d+)-bit VAs, pgdp=([0-9a-f]+)",
                    log, "show_pte() pgtable line")

    prog = drgn.Program()
    prog.set_core_dump(args.vmcore)
    try:
        prog.load_debug_info([args.vmlinux, args.ko])
    except drgn.MissingDebugInfoError:
        pass  # the modules not given: only these two are needed
    loaded = {m.name: m.debug_file_path for m in prog.modules()}
    for name, path in (("kernel", args.vmlinux), ("kdump_pcpu", args.ko)):
        if not loaded.get(name):
            sys.exit(f"error: drgn did not take {path} for {name} in {args.vmcore}")
    print(f"drgn {drgn.__version__}: {args.vmcore}")
    vmcoreinfo = prog["VMCOREINFO"].string_().decode()
    info = dict(line.split("=", 1) for line in vmcoreinfo.splitlines() if "=" in line)
    t1sz = int(info.get("NUMBER(TCR_EL1_T1SZ)", "0"), 0)
    print(f"vmcoreinfo: OSRELEASE={info.get('OSRELEASE')} KERNELOFFSET={info.get('KERNELOFFSET')} "
          f"TCR_EL1_T1SZ={t1sz} ({64 - t1sz}-bit VAs) "
          f"PHYS_OFFSET={info.get('NUMBER(PHYS_OFFSET)')}")

    runqueues, moved = image_percpu(prog, "runqueues", int(info.get("KERNELOFFSET", "0"), 16))
    static = prog["kdump_pcpu_static"]
    dynamic = prog["kdump_pcpu_dynamic"]
    offsets = prog["__per_cpu_offset"]
    pgds = prog["cpu_kernel_pgd"]
    if moved:
        print(f"&runqueues: drgn has {runqueues.address_ - moved:#x}, vmlinux's link address, "
              f"and reads {stock_per_cpu(runqueues.address_ - moved, runqueues, cpus[-1])} with it on CPU{cpus[-1]}: "
              f"the static percpu section is outside the image's range drgn relocates; "
              f"used {runqueues.address_:#x} (+ KERNELOFFSET {moved:#x})")
    else:
        print(f"&runqueues {runqueues.address_:#x}: drgn's own, relocated")
    print(f"&kdump_pcpu_static {static.address_:#x}, module printed {printed_static:#x}")
    check(static.address_ == printed_static,
          "drgn's address of the module's static percpu variable is not the kernel's")
    print(f"kdump_pcpu_dynamic {dynamic.value_():#x}, module printed {printed_dynamic:#x}")
    check(dynamic.value_() == printed_dynamic, "the dynamic percpu pointer is not the one printed")

    for cpu in cpus:
        try:
            rq = per_cpu(runqueues, cpu)
            n = rq.cpu.value_()
            s = per_cpu(static, cpu)
            d = per_cpu_ptr(dynamic, cpu)
            pgd = pgds[cpu].value_()
        except drgn.FaultError as e:
            check(False, f"CPU{cpu}: {e}")
            continue
        print(f"CPU{cpu}: __per_cpu_offset {offsets[cpu].value_():#x}  "
              f"runqueues.cpu {n} @ {rq.address_:#x}  "
              f"static {s.value_():#x} @ {s.address_:#x}  "
              f"dynamic {d[0].value_():#x} @ {d.value_():#x}  "
              f"cpu_kernel_pgd {pgd:#x} (phys {virt_to_phys(prog, pgd).value_():#x})")
        check(n == cpu, f"CPU{cpu}: runqueues.cpu is {n}")
        check(s.value_() == args.static_base + cpu,
              f"CPU{cpu}: static is {s.value_():#x}, not {args.static_base + cpu:#x}")
        check(d[0].value_() == args.dynamic_base + cpu,
              f"CPU{cpu}: dynamic is {d[0].value_():#x}, not {args.dynamic_base + cpu:#x}")

    table, own, page_k, vabits, pgdp = pgtable.groups()
    print(f"oops on CPU {oops_cpu}: {pgtable.group(0)}")
    check(own is not None, f"show_pte() walked the {table} table, not the CPU's own")
    check(not any("swapper pgtable" in line for line in log), "a \"swapper pgtable\" line in the log")
    if args.crash_cpu is not None:
        check(oops_cpu == args.crash_cpu, f"the oops is on CPU {oops_cpu}, not {args.crash_cpu}")
    if own is not None:
        n = int(own)
        check(n == oops_cpu, f"show_pte() names CPU{n}, the oops CPU {oops_cpu}")
        want = virt_to_phys(prog, pgds[n]).value_()
        check(int(pgdp, 16) == want,
              f"pgdp={int(pgdp, 16):#x}, cpu_kernel_pgd[{n}] is at {want:#x}")
        check(int(vabits) == 64 - t1sz, f"{vabits}-bit VAs, vmcoreinfo has {64 - t1sz}")
        print(f"pgdp {int(pgdp, 16):#x} == virt_to_phys(cpu_kernel_pgd[{n}]) {want:#x}: "
              f"{'yes' if int(pgdp, 16) == want else 'NO'}")
    if errors:
        sys.exit(f"error: {errors} mismatches in {args.vmcore}")
    print(f"all {len(cpus)} CPUs read back: runqueues.cpu, static, dynamic; show_pte() on CPU{oops_cpu}'s own table")


if __name__ == "__main__":
    main()
