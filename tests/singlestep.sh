#!/usr/bin/env bash
# Slow, not part of make check, which runs two such boots of its own
# kernels (the debug ones): the this_cpu_*() torture with a task moved
# between any two instructions.  Under TCG an interrupt lands between
# translation blocks only; QEMU's -singlestep makes every instruction a
# block of its own.  -icount keeps guest time in step with the
# instructions (shift=5: 32 ns each, so that the torture's mover and
# hrtimer run often), or the slow emulation trips RCU's stall warnings.
# Kernels without the debug options, so that the torture runs more rounds
# in the time (make check's debug kernels move a worker inside a round
# some 70 times in 160000 rounds, 2 vCPUs):
#   m74:     mainline 7.4's way (bench/mainline-7.4/), which must also have
#            adjusted at least one operation found on another CPU
#            (debugfs' pcpu_gprs_moved, guest/checks/pcpu_gprs_moved);
#   fixup:   the entry-fixup variant (bench/entry-fixup/), which must also
#            have fixed up at least one sequence (debugfs'
#            percpu_entry_fixups, guest/checks/entry_fixups);
#   y:       the series with the local mapping, where an LL/SC loop is cut
#            between its load and store-exclusive and an LSE atomic is not;
#   mutants: each of the three above with an operation that a move can
#            leave on the old CPU's copy (MUTANTS below), which the
#            torture's hrtimer holds must catch: its torture must fail, on
#            -cpu max.
# On -cpu max (LSE) and cortex-a57 (LL/SC).  Builds build/out/singlestep-*.
#
# usage: singlestep.sh [m74] [fixup] [y] [mutants]
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

# TREE:PATCH: 7.4's way with no adjustment at the return, the fixup variant
# that leaves the register where it was, and the series with the address
# computed from TPIDR, unguarded
MUTANTS=${MUTANTS:-"m74:$top/tests/mutants/singlestep/m74-no-adjust.patch
	fixup:$top/tests/mutants/singlestep/fixup-not-moved.patch
	y:$top/tests/mutants/no-preempt-guard.patch"}

"$top/scripts/make-tree.sh" || die "no work tree made from patches/"
passed=0
failed=0
test_logs=$LOGS/singlestep
mkdir -p "$test_logs"

# tree_of m74|fixup|y: the tree the variant is built from
tree_of() {
	case $1 in
	m74)	"$top/scripts/variant-tree.sh" mainline-7.4 || die "no mainline-7.4 tree" ;;
	fixup)	"$top/scripts/variant-tree.sh" entry-fixup || die "no entry-fixup tree" ;;
	y)	echo "$KSRC" ;;
	esac
}

# frags_of m74|fixup|y: its config fragments
frags_of() {
	case $1 in
	m74)	echo guest "$GEOMETRY" local-mapping-n mainline-7.4 mainline-7.4-kunit alt-resume werror ;;
	fixup)	echo guest "$GEOMETRY" local-mapping-n entry-fixup entry-fixup-kunit werror ;;
	y)	echo guest "$GEOMETRY" local-mapping-y series-kunit werror ;;
	esac
}

# checks_of m74|fixup|y: the guest checks of its boots
checks_of() {
	case $1 in
	m74)	echo pcpu_gprs_moved ;;
	fixup)	echo entry_fixups ;;
	y)	echo meminfo ;;
	esac
}

# boot KERNEL CPU NAME CHECKS: a single-step boot that runs the torture
boot() {
	QEMU_ARGS="$SINGLESTEP_QEMU_ARGS" SMP=4 GUEST_CHECKS=$4 BOOT_TIMEOUT=1800 \
		"$top/scripts/boot-guest.sh" "$1" "$2" "$3" 'kunit.filter_glob=percpu_this_cpu*'
}

# build VARIANT TREE FRAGMENT...
build() {
	local v=$1 tree=$2
	shift 2
	KSRC=$tree "$top/scripts/build-kernel.sh" "$v" "$@" &&
		KSRC=$tree "$top/scripts/build-initramfs.sh" "$v" ||
		die "$v did not build"
}

# torture_caught LOG: the torture failed, on its sums
torture_caught() {
	grep -aqE "not ok [0-9]+ this_cpu_test_torture" "$1" &&
		grep -aqE "Expected (sum\.|atomic64_read\(&t->taken\))" "$1"
}

[ $# -gt 0 ] || set -- m74 fixup y mutants
for v in "$@"; do
	case $v in
	m74|fixup|y) ;;
	mutants) continue ;;
	*)	die "usage: singlestep.sh [m74] [fixup] [y] [mutants]" ;;
	esac
	checks=$(checks_of "$v")
	tree=$(tree_of "$v")
	# shellcheck disable=SC2046
	build "singlestep-$v" "$tree" $(frags_of "$v")
	for cpu in max cortex-a57; do
		name=singlestep-$v-$cpu
		log=$LOGS/$name.log
		t "boot:$name" boot "singlestep-$v" "$cpu" "$name" "$checks"
		t "kunit:$name" env KSRC="$tree" "$top/scripts/kunit-results.sh" "$log"
		[ "$checks" = meminfo ] ||
			t "guest:$name:$checks" "$top/scripts/guest-results.py" --passed "/$checks" "${log%.log}.ktap"
		t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
		grep -a "this_cpu_test_torture:\|entry_fixups:\|pcpu_gprs_moved:" "$log" | tr -d '\r'
	done
done

case " $* " in *" mutants "*)
	mtree=$BUILD/singlestep-mutant-tree
	for m in $MUTANTS; do
		v=${m%%:*}
		patch=${m#*:}
		name=singlestep-mutant-$(basename "$patch" .patch)
		log=$LOGS/$name.log
		tree=$(tree_of "$v")
		base=$(git -C "$tree" rev-parse HEAD)
		[ -e "$mtree/.git" ] || git -C "$KSRC" worktree add -q --detach "$mtree" "$base" ||
			die "cannot make the worktree $mtree"
		git -C "$mtree" checkout -q -f --detach "$base"
		if ! git -C "$mtree" apply "$patch"; then
			failed=$((failed + 1))
			echo "FAIL $name: $(basename "$patch") does not apply to the $v tree"
			continue
		fi
		# shellcheck disable=SC2046
		build singlestep-mutant "$mtree" $(frags_of "$v")
		boot singlestep-mutant max "$name" "$(checks_of "$v")" > "$test_logs/$name.log" 2>&1
		grep -a "this_cpu_test_torture:\|entry_fixups:\|pcpu_gprs_moved:" "$log" | tr -d '\r'
		t "caught:$name" torture_caught "$log"
	done
	[ ! -e "$mtree/.git" ] || git -C "$mtree" checkout -q -f --detach "$base"
	;;
esac
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
