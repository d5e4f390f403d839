#!/usr/bin/env bash
# Boot one built variant under QEMU (virt, TCG) and keep the console log.
# The guest runs the checks named in GUEST_CHECKS and powers off; a guest
# that has not finished after BOOT_TIMEOUT seconds is killed and the log is
# kept.  Exit status: QEMU's, or 124 when the guest was killed.
#
# usage: boot-guest.sh VARIANT CPU LOGNAME [EXTRA-KERNEL-ARGS...]
# QEMU_ARGS adds QEMU options (a NUMA topology, say); QEMU_MACHINE replaces
# the machine (virt,gic-version=3,virtualization=on boots the kernel at EL2).
# INTERACTIVE=1 (make shell): the console on the terminal, a shell in the
# guest, no timeout and no log.
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: boot-guest.sh VARIANT CPU LOGNAME [ARGS...]}
cpu=${2:?CPU model: max, neoverse-n1 (LSE) or cortex-a57 (LL/SC)}
name=${3:?log name}
shift 3
out=$BUILD/out/$variant
smp=${SMP:-4}
mem=${MEM:-1G}
timeout=${BOOT_TIMEOUT:-600}
checks=${GUEST_CHECKS:-kunit_modules,hotplug,percpu_test}
log=$LOGS/$name.log

[ -f "$out/arch/arm64/boot/Image" ] || die "$variant is not built"
[ -f "$out/initramfs.cpio.gz" ] || die "$variant has no initramfs"
# Pointer authentication is slow to emulate; the implementation-defined
# algorithm keeps the feature at a fraction of the cost.
[ "$cpu" = max ] && cpu=max,pauth-impdef=on
mkdir -p "$LOGS"

qemu=(qemu-system-aarch64 -machine "${QEMU_MACHINE:-virt,gic-version=3}" -cpu "$cpu" -smp "$smp" -m "$mem"
      -nographic -no-reboot ${QEMU_ARGS:-}
      -kernel "$out/arch/arm64/boot/Image" -initrd "$out/initramfs.cpio.gz")
if [ -n "${INTERACTIVE:-}" ]; then
	note "booting $variant on -cpu $cpu -smp $smp with a shell; Ctrl-A X quits QEMU"
	exec "${qemu[@]}" -append "console=ttyAMA0 panic=-1 guest.shell=1 $*"
fi

note "booting $variant on -cpu $cpu -smp $smp (log: $log)"
rc=0
# --foreground: timeout stays in the caller's process group, so a Ctrl-C
# (or a signal to the group) reaches QEMU too rather than leaving the guest
# running until the timeout.  QEMU then exits 0: the signal is raised again
# once it is gone, so that the caller (make check) stops too.
interrupted=
trap 'interrupted=INT' INT
trap 'interrupted=TERM' TERM
timeout --foreground --kill-after=10 "$timeout" \
	"${qemu[@]}" -monitor none \
		-append "console=ttyAMA0 panic=-1 guest.checks=$checks $*" \
		< /dev/null > "$log" 2>&1 || rc=$?
trap - INT TERM
[ -z "$interrupted" ] || kill -"$interrupted" $$
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "error: guest did not finish in ${timeout}s and was killed; log kept at $log" >&2
	exit 124
fi
exit "$rc"
