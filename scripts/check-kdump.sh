#!/usr/bin/env bash
# kdump read back by a crash tool (guest/checks/kdump): the guest loads the
# same kernel and initramfs as its crash kernel, writes known per-CPU
# values (refcode/kdump_pcpu.ko) and oopses on a kernel address on its
# last CPU; the crash kernel copies /proc/vmcore to a virtio disk.  drgn
# then reads the vmcore on the host (scripts/kdump-read.py): every online
# CPU's copy of a static percpu variable of the image and of the module's
# static and dynamic ones, and show_pte()'s table, which must be
# cpu_kernel_pgd[CPU], not swapper_pg_dir.  The log holds both kernels:
# build/logs/kdump-CPU.log; drgn's report is kdump-CPU.read.  KEEP_VMCORE=1
# keeps the vmcore, build/logs/kdump-CPU.vmcore (it is kept anyway when
# drgn's check fails).
#
# usage: check-kdump.sh VARIANT CPU
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: check-kdump.sh VARIANT CPU}
cpu=${2:?usage: check-kdump.sh VARIANT CPU}
out=$BUILD/out/$variant
disk=$LOGS/kdump-$cpu.img
vmcore=$LOGS/kdump-$cpu.vmcore
log=$LOGS/kdump-$cpu.log
read=$LOGS/kdump-$cpu.read
python=$top/build/tools/drgn-venv/bin/python
mkdir -p "$LOGS"

# What the run needs, before a boot of minutes finds out
grep -q '^CONFIG_PROC_VMCORE=y' "$out/.config" ||
	die "$variant has no CONFIG_PROC_VMCORE: the crash kernel would have no /proc/vmcore"
grep -q '^CONFIG_LKDTM=y' "$out/.config" || die "$variant has no CONFIG_LKDTM=y: nothing to crash it with"
"${CROSS_COMPILE}readelf" -S "$out/vmlinux" | grep -q '\.debug_info' ||
	die "$out/vmlinux has no DWARF (CONFIG_DEBUG_INFO): drgn needs its types"
[ -f "$out/refcode/kdump_pcpu.ko" ] || die "no $out/refcode/kdump_pcpu.ko: rebuild $variant (build-kernel.sh)"
"$python" -c 'import drgn' 2> /dev/null ||
	die "no drgn in build/tools/drgn-venv: run scripts/drgn-venv.sh"
trap 'rm -f "$disk" "$log.first" "$log.second"' EXIT

export SMP=${SMP:-4}
export MEM=${MEM:-1G}
# The last CPU: a secondary's own table, not the boot CPU's
crash_cpu=$((SMP - 1))
# The disk: the kernel and the initramfs; the crash kernel overwrites it
# from the start with the vmcore (RAM, less the reservation, plus the image
# and ELF headers: RAM and 128M is room enough).
rm -f "$disk" "$vmcore"
files=$(kexec_disk "$variant" "$disk")
truncate -s $(($(numfmt --from=iec "$MEM") + (128 << 20))) "$disk"

export QEMU_ARGS="-drive file=$disk,format=raw,if=none,id=kd -device virtio-blk-device,drive=kd"
# No ITS, as for kexec (check-kexec.sh): the crash kernel would take over
# the first kernel's LPI tables.
export QEMU_MACHINE=virt,gic-version=3,its=off
# 256M of the 1G: room for the crash kernel with the debug options and its
# initramfs.  Its copy of the dump takes 1 (max) to 2 (cortex-a57) minutes
# of TCG: boot-guest.sh's default timeout stands.
GUEST_CHECKS=kdump "$top/scripts/boot-guest.sh" "$variant" "$cpu" "kdump-$cpu" \
	crashkernel=256M guest.kdump="$files,$crash_cpu" ||
	die "the guest failed (log: $log)"
grep -q '^kdump: crash kernel loaded' "$log" || die "the first kernel did not load the crash kernel (log: $log)"
kexec_disk_read "$variant" "$log" kdump
grep -q "^kdump: crashing on CPU $crash_cpu" "$log" || die "the guest did not go on to crash (log: $log)"
grep -q 'lkdtm: Performing direct entry WRITE_RO' "$log" || die "LKDTM did not run (log: $log)"
grep -q 'Starting crashdump kernel' "$log" || die "the oops did not start the crash kernel (log: $log)"
[ "$(grep -c 'Booting Linux on physical CPU' "$log")" -eq 2 ] ||
	die "the crash kernel did not boot (log: $log)"
ktap=${log%.log}.ktap
"$top/scripts/guest-results.py" --complete "$ktap" || die "the crash kernel died (log: $log)"
"$top/scripts/guest-results.py" --passed /kdump "$ktap" || die "the crash kernel did not write the vmcore (log: $log)"
size=$(sed -n 's/^kdump: vmcore \([0-9]*\) bytes.*/\1/p' "$log")
[ -n "$size" ] || die "the crash kernel did not say the vmcore's size (log: $log)"

# The vmcore is the disk's first $size bytes
mv "$disk" "$vmcore"
truncate -s "$size" "$vmcore"
"$python" "$top/scripts/kdump-read.py" --crash-cpu "$crash_cpu" \
	"$out/vmlinux" "$vmcore" "$out/refcode/kdump_pcpu.ko" "$log" > "$read" 2>&1 ||
	{ cat "$read"; die "drgn did not read back what the guest wrote (vmcore kept: $vmcore; log: $log)"; }
cat "$read"
[ -n "${KEEP_VMCORE:-}" ] || rm -f "$vmcore"

# Both kernels' logs are clean but for the oops asked for: the first up to
# LKDTM's fault, the crash kernel's from its boot.
awk '/lkdtm: Performing direct entry WRITE_RO/ { exit } { print }' "$log" > "$log.first"
awk '/Booting Linux on physical CPU/ { n++ } n >= 2' "$log" > "$log.second"
"$top/scripts/log-clean.sh" "$log.first"
"$top/scripts/log-clean.sh" "$log.second"
echo "kdump on CPU $crash_cpu read back by drgn: $read"
