#!/usr/bin/env bash
# The series as a KVM guest whose vCPUs move between host CPUs: VARIANT
# booted at EL2 with VHE (-cpu max, virtualization=on) runs KVM and, in
# it, Debian's QEMU booting VARIANT again with 3 vCPUs
# (guest/checks/kvm_guest), whose threads it moves every half second.
# The nested guest's console and results channel come back on the host
# guest's results channel, written to build/logs/kvm-guest-l2.log and
# .ktap and checked like any boot's: KUnit at boot and every check
# passed, a clean log; the host guest's own KUnit at boot and log too.
#
# usage: check-kvm-guest.sh VARIANT [GUEST-CHECKS]
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: check-kvm-guest.sh VARIANT [GUEST-CHECKS]}
l2_checks=${2:-kunit_modules,percpu_test}
out=$BUILD/out/$variant
log=$LOGS/kvm-guest.log
l2_log=$LOGS/kvm-guest-l2.log

"$top/scripts/build-initramfs.sh" "$variant" --kvm-host
rm -f "$l2_log" "${l2_log%.log}.ktap"
rc=0
QEMU_MACHINE=virt,gic-version=3,virtualization=on MEM=2G SMP=4 \
	GUEST_INITRD=$out/initramfs-kvm-host.cpio.gz GUEST_CHECKS=kvm_guest \
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-2400} \
	"$top/scripts/boot-guest.sh" "$variant" max kvm-guest guest.l2_checks="$l2_checks" || rc=$?
# The nested guest's logs, from the results channel, whatever happened
sed -n 's/^# l2| //p' "${log%.log}.ktap" > "$l2_log" 2> /dev/null || true
sed -n 's/^# l2-ktap| //p' "${log%.log}.ktap" > "${l2_log%.log}.ktap" 2> /dev/null || true
[ "$rc" -eq 0 ] || die "the host guest failed (log: $log, the nested guest's: $l2_log)"
grep -q 'CPU(s) started at EL2' "$log" || die "the host guest did not start at EL2 (log: $log)"
grep -qE 'kvm \[[0-9]+\]: VHE mode initialized successfully' "$log" ||
	die "KVM did not come up with VHE (log: $log)"
grep -a 'kvm_guest:' "$log" | tr -d '\r'
"$top/scripts/kunit-results.sh" "$log" > /dev/null ||
	die "the host guest's KUnit suites at boot failed (log: $log)"
"$top/scripts/guest-results.py" --passed /kvm_guest "${log%.log}.ktap" ||
	die "the KVM guest failed (host log: $log, guest log: $l2_log)"
"$top/scripts/guest-results.py" --complete "${l2_log%.log}.ktap" ||
	die "the KVM guest did not run all its checks (log: $l2_log)"
for c in ${l2_checks//,/ }; do
	"$top/scripts/guest-results.py" --passed "/$c" "${l2_log%.log}.ktap" ||
		die "the KVM guest's $c failed (log: $l2_log)"
done
"$top/scripts/kunit-results.sh" "$l2_log" > /dev/null ||
	die "the KVM guest's KUnit suites at boot failed (log: $l2_log)"
grep -aq 'this_cpu_test_torture: .* [1-9][0-9]* rounds migrated' "$l2_log" ||
	die "the KVM guest's torture moved no worker inside a round (log: $l2_log)"
"$top/scripts/log-clean.sh" "$log"
"$top/scripts/log-clean.sh" "$l2_log"
echo "a KVM guest ran the series with its vCPU threads moved: $l2_log"
