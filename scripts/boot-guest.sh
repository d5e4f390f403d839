#!/usr/bin/env bash
# Boot one built variant under QEMU (virt, TCG) and keep the console log,
# build/logs/LOGNAME.log.  The guest runs the checks named in GUEST_CHECKS,
# reports them in KTAP on a virtio console of their own (LOGNAME.ktap, read
# by guest-results.py) and powers off; a guest that has not finished after
# BOOT_TIMEOUT seconds is killed and both files are kept.  Exit status:
# QEMU's, or 124 when the guest was killed.
#
# usage: boot-guest.sh VARIANT CPU LOGNAME [EXTRA-KERNEL-ARGS...]
# QEMU_ARGS adds QEMU options (a NUMA topology, say); QEMU_MACHINE replaces
# the machine (virt,gic-version=3,virtualization=on boots the kernel at EL2).
# INTERACTIVE=1 (make shell): the console on the terminal, a shell in the
# guest, no timeout and no log.  ACCEL=kvm (an arm64 host with /dev/kvm):
# KVM instead of TCG, on the host's own CPU (-cpu host), so only CPU "max"
# or "host" can be asked for.  PRINT_QEMU=1: print the QEMU command line
# instead of running it.  GUEST_INITRD replaces the variant's initramfs.cpio.gz.
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
ktap=$LOGS/$name.ktap

# (PRINT_QEMU prints the plan of a run that has not built yet)
[ -f "$out/arch/arm64/boot/Image" ] || [ -n "${PRINT_QEMU:-}" ] || die "$variant is not built"
initrd=${GUEST_INITRD:-$out/initramfs.cpio.gz}
[ -f "$initrd" ] || [ -n "${PRINT_QEMU:-}" ] || die "$variant has no initramfs ($initrd)"
accel=()
case ${ACCEL:-tcg} in
tcg)	# Pointer authentication is slow to emulate; the
	# implementation-defined algorithm keeps the feature at a fraction
	# of the cost.
	[ "$cpu" = max ] && cpu=max,pauth-impdef=on ;;
kvm)	[ "$cpu" = max ] || [ "$cpu" = host ] ||
		die "ACCEL=kvm runs the host's own CPU: -cpu $cpu (an LL/SC or other model) needs TCG; unset ACCEL"
	[ -w "${KVM_DEVICE:-/dev/kvm}" ] || [ -n "${PRINT_QEMU:-}" ] ||
		die "ACCEL=kvm: no writable ${KVM_DEVICE:-/dev/kvm} on this host"
	cpu=host
	accel=(-accel kvm)
	# The host's own GIC (a TCG guest's is v3, as on a server)
	QEMU_MACHINE=${QEMU_MACHINE:-virt,gic-version=host} ;;
*)	die "ACCEL=$ACCEL: tcg (the default) or kvm" ;;
esac

qemu=(qemu-system-aarch64 -machine "${QEMU_MACHINE:-virt,gic-version=3}" "${accel[@]}" -cpu "$cpu" -smp "$smp" -m "$mem"
      -nographic -no-reboot ${QEMU_ARGS:-}
      -kernel "$out/arch/arm64/boot/Image" -initrd "$initrd")
if [ -n "${INTERACTIVE:-}" ]; then
	note "booting $variant on -cpu $cpu -smp $smp with a shell; Ctrl-A X quits QEMU"
	exec "${qemu[@]}" -append "console=ttyAMA0 panic=-1 guest.shell=1 $*"
fi

# The results channel: /dev/hvc0 in the guest (guest/ktap.sh).  A comma in
# a QEMU option value is written twice.
qemu+=(-device virtio-serial-device -chardev "file,id=ktap,path=${ktap//,/,,}"
       -device virtconsole,chardev=ktap -monitor none
       -append "console=ttyAMA0 panic=-1 guest.checks=$checks $*")
[ -z "${PIN_CPUS:-}" ] || qemu+=(-name "$name,debug-threads=on" -pidfile "$LOGS/$name.pid")
if [ -n "${PRINT_QEMU:-}" ]; then
	printf '%q ' "${qemu[@]}"
	echo
	exit 0
fi
mkdir -p "$LOGS"
note "booting $variant on -cpu $cpu -smp $smp (log: $log)"
rm -f "$ktap" "$LOGS/$name.pid" "$log.pin"
rc=0
# PIN_CPUS=a,b,...: vCPU 0's thread on host CPU a, 1's on b, ... (make
# bench under KVM), found by their names
[ -z "${PIN_CPUS:-}" ] || "$top/scripts/pin-vcpus.sh" "$LOGS/$name.pid" "$PIN_CPUS" 2>> "$log.pin" &
# --foreground: timeout stays in the caller's process group, so a Ctrl-C
# (or a signal to the group) reaches QEMU too rather than leaving the guest
# running until the timeout.  QEMU then exits 0: the signal is raised again
# once it is gone, so that the caller (make check) stops too.
interrupted=
trap 'interrupted=INT' INT
trap 'interrupted=TERM' TERM
timeout --foreground --kill-after=10 "$timeout" \
	"${qemu[@]}" < /dev/null > "$log" 2>&1 || rc=$?
trap - INT TERM
[ -z "$interrupted" ] || kill -"$interrupted" $$
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "error: guest did not finish in ${timeout}s and was killed; log kept at $log" >&2
	exit 124
fi
exit "$rc"
