#!/usr/bin/env bash
# kexec into the same kernel (guest/checks/kexec): the kernel and the
# initramfs go on a virtio disk, the guest loads them with
# kexec_file_load() and reboots into them; the new kernel must start every
# CPU on its own table and pass the module KUnit suites, percpu_test and
# hotplug.  The log holds both kernels: build/logs/kexec-CPU.log.
#
# usage: check-kexec.sh VARIANT CPU
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: check-kexec.sh VARIANT CPU}
cpu=${2:?usage: check-kexec.sh VARIANT CPU}
out=$BUILD/out/$variant
disk=$LOGS/kexec-$cpu.img
log=$LOGS/kexec-$cpu.log
mkdir -p "$LOGS"
trap 'rm -f "$disk" "$log.second"' EXIT

files=$(kexec_disk "$variant" "$disk")

export QEMU_ARGS="-drive file=$disk,format=raw,if=none,id=kx,readonly=on -device virtio-blk-device,drive=kx"
export SMP=${SMP:-4}
# No ITS: once the redistributors' LPIs are on, the GIC keeps their tables
# and the next kernel takes them over; without EFI's persistent memory
# reservations (QEMU boots the kernel directly) nothing keeps them out of
# the new kernel's way, and its LPI property table memset (0xc2 bytes) lands
# wherever the first kernel had it: in the new kernel's text, here.
export QEMU_MACHINE=virt,gic-version=3,its=off
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-300}
GUEST_CHECKS=kexec "$top/scripts/boot-guest.sh" "$variant" "$cpu" "kexec-$cpu" \
	guest.kexec="$files" || die "the guest failed (log: $log)"
grep -q '^kexec: loading' "$log" || die "the first kernel did not load the second (log: $log)"
kexec_disk_read "$variant" "$log" kexec
[ "$(grep -c 'Booting Linux on physical CPU' "$log")" -eq 2 ] ||
	die "the second kernel did not boot (log: $log)"
# The results channel holds two documents, one for each kernel's init; the
# second is the kexec'd kernel's.
ktap=${log%.log}.ktap
"$top/scripts/guest-results.py" --complete "$ktap" || die "the kexec'd kernel died (log: $log)"
for c in kexeced kunit_modules percpu_test hotplug; do
	"$top/scripts/guest-results.py" --passed "/$c" "$ktap" || die "after kexec, $c did not pass (log: $log)"
done
# The second kernel's built-in KUnit suites: its part of the log
awk '/Booting Linux on physical CPU/ { n++ } n >= 2' "$log" > "$log.second"
"$top/scripts/kunit-results.sh" "$log.second" > /dev/null ||
	die "the kexec'd kernel's KUnit suites failed (log: $log)"
"$top/scripts/log-clean.sh" "$log"
echo "kexec'd into the same kernel: $log"
