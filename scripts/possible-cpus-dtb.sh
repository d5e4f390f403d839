#!/usr/bin/env bash
# A device tree for QEMU's virt machine that describes more CPUs than QEMU
# starts: booted with maxcpus=SMP, the kernel has POSSIBLE possible CPUs
# (each with its own kernel page tables, region and first-chunk unit)
# while only SMP of them come online.  QEMU's virt puts only the CPUs it
# runs in its tree (-smp N,maxcpus=M does not change that), and a boot
# with hundreds of vCPUs under TCG takes too long.
#
# The tree is QEMU's own for the machine, dumped, with CPU nodes added for
# MPIDRs no vCPU has, the cpu-map (which would have to list them) left
# out, and the KASLR and RNG seeds QEMU filled at dump time drawn afresh
# (a fixed seed would fix every address; cortex-a57 has no RNDR).
#
# usage: possible-cpus-dtb.sh OUT.dtb POSSIBLE CPU SMP   (QEMU_MACHINE, MEM
#        as for boot-guest.sh)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: possible-cpus-dtb.sh OUT.dtb POSSIBLE CPU SMP}
possible=${2:?usage: possible-cpus-dtb.sh OUT.dtb POSSIBLE CPU SMP}
cpu=${3:?usage: possible-cpus-dtb.sh OUT.dtb POSSIBLE CPU SMP}
smp=${4:?usage: possible-cpus-dtb.sh OUT.dtb POSSIBLE CPU SMP}
command -v dtc > /dev/null || die "dtc is missing (apt-get install device-tree-compiler)"
[ "$possible" -ge "$smp" ] || die "POSSIBLE ($possible) is below SMP ($smp)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qemu-system-aarch64 -machine "${QEMU_MACHINE:-virt,gic-version=3},dumpdtb=$tmp/qemu.dtb" \
	-cpu "$cpu" -smp "$smp" -m "${MEM:-1G}" -nographic > "$tmp/qemu.out" 2>&1 ||
	die "QEMU did not dump its device tree: $(cat "$tmp/qemu.out")"
dtc -q -I dtb -O dts -o "$tmp/qemu.dts" "$tmp/qemu.dtb"
python3 - "$tmp/qemu.dts" "$possible" "$smp" > "$tmp/out.dts" <<'PY'
import os, re, sys
dts, possible, smp = open(sys.argv[1]).read(), int(sys.argv[2]), int(sys.argv[3])
dts = re.sub(r"\n\t\tcpu-map \{.*?\n\t\t\};\n", "\n", dts, flags=re.S)
fresh = lambda m: "%s<%s>;" % (m.group(1), " ".join(
    "0x%08x" % int.from_bytes(os.urandom(4), "big") for _ in m.group(2).split()))
dts = re.sub(r"(\n\t\t(?:kaslr|rng)-seed = )<([^>]*)>;", fresh, dts)
cpus = list(re.finditer(r"\n\t\tcpu@[0-9a-f]+ \{\n(.*?)\n\t\t\};\n", dts, flags=re.S))
if len(cpus) != smp:
    sys.exit("%d CPU nodes in QEMU's tree, not %d" % (len(cpus), smp))
# The new nodes after QEMU's, so that logical CPUs 0 to SMP-1 are its vCPUs
m = cpus[-1]
body = re.sub(r"\n?\t\t\tphandle = <[^>]*>;", "", cpus[0].group(1))
# MPIDRs as QEMU numbers its own: 16 to a cluster (Aff0), then Aff1
mpidr = [(i // 16) << 8 | i % 16 for i in range(smp, possible)]
nodes = "".join("\n\t\tcpu@%x {\n%s\n\t\t};\n" % (r, body.replace("reg = <0x00>", "reg = <0x%x>" % r))
                for r in mpidr)
sys.stdout.write(dts[:m.end()] + nodes + dts[m.end():])
PY
dtc -q -I dts -O dtb -o "$out" "$tmp/out.dts"
