#!/usr/bin/env bash
# Hibernation to a virtio disk and resume, on CPU 1 (guest/checks/hibernate):
# boot once to write the image, boot again with the same disk to restore it;
# the restored system then runs the KUnit suites again (every CPU on its
# own table, percpu data reached through the window) and a hotplug cycle.
# Both logs are kept: build/logs/hibernate-CPU-{write,resume}.log.
#
# usage: check-hibernate.sh VARIANT CPU
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: check-hibernate.sh VARIANT CPU}
cpu=${2:?usage: check-hibernate.sh VARIANT CPU}
disk=$LOGS/hibernate-$cpu.img
write=$LOGS/hibernate-$cpu-write.log
resume=$LOGS/hibernate-$cpu-resume.log
mkdir -p "$LOGS"
rm -f "$disk"
truncate -s 512M "$disk"
export QEMU_ARGS="-drive file=$disk,format=raw,if=none,id=swap -device virtio-blk-device,drive=swap"
export SMP=${SMP:-4}
# A restored guest takes seconds; one that faults without a console hangs.
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}

GUEST_CHECKS=hibernate,kunit_rerun,hotplug \
	"$top/scripts/boot-guest.sh" "$variant" "$cpu" "hibernate-$cpu-write" \
	resume=/dev/vda guest.hotplug_cycles=1 no_console_suspend ||
	die "the first boot failed (log: $write)"
grep -q 'Hibernating on CPU 1 ' "$write" ||
	die "no image written on CPU 1 (log: $write)"
! "$top/scripts/guest-results.py" --complete "${write%.log}.ktap" 2> /dev/null ||
	die "the guest finished instead of hibernating (log: $write)"

# Should the restore fail, this boot runs its own init, without the
# hibernate check: its "pass" line below can only come from the image.
GUEST_CHECKS=kunit_rerun \
	"$top/scripts/boot-guest.sh" "$variant" "$cpu" "hibernate-$cpu-resume" \
	resume=/dev/vda no_console_suspend ||
	die "the second boot failed (log: $resume)"
# The restored guest goes on with the document the first boot began: the
# two channels read as one.
ktap=("${write%.log}.ktap" "${resume%.log}.ktap")
"$top/scripts/guest-results.py" --complete "${ktap[@]}" || die "the restored guest died (log: $resume)"
for c in hibernate kunit_rerun hotplug; do
	"$top/scripts/guest-results.py" --passed "/$c" "${ktap[@]}" ||
		die "after the restore, $c did not pass (log: $resume)"
done
"$top/scripts/log-clean.sh" "$write"
"$top/scripts/log-clean.sh" "$resume"
rm -f "$disk"
echo "hibernated on CPU 1 and resumed: $resume"
