#!/usr/bin/env bash
# Slow, not part of make check: the this_cpu_*() torture with a task moved
# between any two instructions.  Under TCG an interrupt lands between
# translation blocks only; QEMU's -singlestep makes every instruction a
# block of its own.  -icount keeps guest time in step with the
# instructions (shift=5: 32 ns each, so that the torture's mover and
# hrtimer run often), or the slow emulation trips RCU's stall warnings.
# Kernels without the debug options, whose lockdep would keep interrupts
# masked most of the time:
#   fixup:  the entry-fixup variant (bench/entry-fixup/), which must also
#           have fixed up at least one sequence (debugfs'
#           percpu_entry_fixups, guest/checks/entry_fixups);
#   y:      the series with the local mapping, where an LL/SC loop is cut
#           between its load and store-exclusive and an LSE atomic is not.
# On -cpu max (LSE) and cortex-a57 (LL/SC).  Builds build/out/singlestep-*.
#
# usage: singlestep.sh [fixup] [y]
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

"$top/scripts/make-tree.sh" || die "no work tree made from patches/"
passed=0
failed=0
test_logs=$LOGS/singlestep
mkdir -p "$test_logs"
[ $# -gt 0 ] || set -- fixup y
for v in "$@"; do
	case $v in
	fixup)	tree=$("$top/scripts/entry-fixup-tree.sh") || die "no entry-fixup tree"
		frags=(guest "$GEOMETRY" local-mapping-n entry-fixup entry-fixup-kunit werror)
		checks=entry_fixups ;;
	y)	tree=$KSRC
		frags=(guest "$GEOMETRY" local-mapping-y series-kunit werror)
		checks= ;;
	*)	die "usage: singlestep.sh [fixup] [y]" ;;
	esac
	KSRC=$tree "$top/scripts/build-kernel.sh" "singlestep-$v" "${frags[@]}" &&
		KSRC=$tree "$top/scripts/build-initramfs.sh" "singlestep-$v" ||
		die "singlestep-$v did not build"
	for cpu in max cortex-a57; do
		name=singlestep-$v-$cpu
		log=$LOGS/$name.log
		t "boot:$name" env QEMU_ARGS="-singlestep -icount shift=5,sleep=off" \
			SMP=4 GUEST_CHECKS=${checks:-meminfo} BOOT_TIMEOUT=1800 \
			"$top/scripts/boot-guest.sh" "singlestep-$v" "$cpu" "$name" \
			'kunit.filter_glob=percpu_this_cpu*'
		t "kunit:$name" env KSRC="$tree" "$top/scripts/kunit-results.sh" "$log"
		[ -z "$checks" ] ||
			t "guest:$name:$checks" "$top/scripts/guest-results.py" --passed "/$checks" "${log%.log}.ktap"
		t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
		grep -a "this_cpu_test_torture:\|entry_fixups:" "$log" | tr -d '\r'
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
