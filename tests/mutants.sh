#!/usr/bin/env bash
# Mutation tests, slow and not part of make check: build the series with
# one deliberate bug at a time and check that the KUnit suites catch it.
# Each tests/mutants/NAME.patch applies on top of the series; its first
# line, "expect: CASE...", names what must catch it: a KUnit case that
# must fail at boot, "rerun:SUITE" for a suite that must fail when
# guest/checks/kunit_rerun runs it again after the guest checks,
# "check:NAME" for a guest check that must fail,
# "emitted-code:REGEX" for scripts/check-emitted-code.py with an error
# that matches the extended REGEX (no spaces: the rule, not just any of
# the checker's errors, must fire), "log-clean" for a
# warning in the console log (scripts/log-clean.sh), or "kaslr" for
# scripts/check-kaslr.sh over this boot and two more (an address that
# KASLR no longer moves, or modules that no longer move relative to the
# image: the two more load the KUnit modules too; the mutant's checks
# must include "addresses"), or
# "hibernate" for scripts/check-hibernate.sh, "kdump" for
# scripts/check-kdump.sh on max, "memhotplug" for
# scripts/check-memhotplug.sh on cortex-a57, or "boot" for a kernel that
# dies before the guest finishes (QEMU exits: a boot killed by the
# timeout counts as missed, never as caught).  An optional second
# line, "checks: CHECK,...", names the guest checks to run after
# kunit_modules, which always runs (the suite of a module's statics,
# percpu_local_module, is a module); an optional line after it, "boot: CPU [el2|possible]", boots that CPU
# (default max), at EL2 with "el2", with NR_CPUS possible CPUs (4 online,
# one NUMA node: scripts/possible-cpus-dtb.sh) with "possible"; an optional line "args: ARG..." adds
# kernel arguments (kpti=1 nokaslr for the KPTI nG rewrite).  The kernel is make check's, booted on
# 4 vCPUs in two NUMA nodes, each boot with BOOT_TIMEOUT (default 300 s).  The series is
# patches/ (make-tree.sh first, so a fresh clone works); builds in a
# worktree of its own (build/mutant-tree) and build/out/mutant.
#
# usage: mutants.sh [MUTANT.patch...]
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"
unset ACCEL PRINT_QEMU	# boots under TCG, run for real

tree=$BUILD/mutant-tree
variant=mutant
timeout=${BOOT_TIMEOUT:-300}
"$top/scripts/make-tree.sh" || die "no work tree made from patches/"
[ -e "$tree/.git" ] || git -C "$KSRC" worktree add -q --detach "$tree" series ||
	die "cannot create $tree"
[ $# -gt 0 ] || set -- "$top"/tests/mutants/*.patch

passed=0
failed=0
for m in "$@"; do
	[ -f "$m" ] || die "no mutant $m"
	m=$(realpath "$m")	# git -C would resolve it in the tree
	name=$(basename "$m" .patch)
	read -ra expect <<< "$(sed -n '1s/^expect: //p' "$m")"	# no globbing
	checks=$(sed -n '2s/^checks: //p' "$m")
	read -r mcpu mmachine <<< "$(sed -n '2,3s/^boot: //p' "$m")"
	read -ra margs <<< "$(sed -n '2,4s/^args: //p' "$m")"
	mcpu=${mcpu:-max}
	qemu_machine=virt,gic-version=3
	[ "$mmachine" = el2 ] && qemu_machine=$qemu_machine,virtualization=on
	qemu_args=$(numa_nodes 4)
	log=$LOGS/mutant-$name.log
	ktap=$LOGS/mutant-$name.ktap
	git -C "$tree" checkout -q -f --detach series
	if ! git -C "$tree" apply "$m"; then
		echo "FAIL $name: does not apply to the series"
		failed=$((failed + 1))
		continue
	fi
	# drgn reads types from DWARF, which make check's kernel has not
	extra=
	case " ${expect[*]} " in *" kdump "*) extra=kdump ;; esac
	if ! KSRC=$tree "$top/scripts/build-kernel.sh" "$variant" guest "$GEOMETRY" local-mapping-y series-kunit debug numa paths memhotplug $extra ||
	   ! "$top/scripts/build-initramfs.sh" "$variant"; then
		echo "FAIL $name: does not build"
		failed=$((failed + 1))
		continue
	fi
	if [ "$mmachine" = possible ]; then
		nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$BUILD/out/$variant/.config")
		if ! QEMU_MACHINE=$qemu_machine "$top/scripts/possible-cpus-dtb.sh" \
			"$LOGS/mutant-$name.dtb" "$nr_cpus" "$mcpu" 4; then
			echo "FAIL $name: no device tree with $nr_cpus possible CPUs"
			failed=$((failed + 1))
			continue
		fi
		qemu_args="-dtb $LOGS/mutant-$name.dtb"
		margs+=(maxcpus=4)
	fi
	rc=0
	QEMU_ARGS=$qemu_args SMP=4 GUEST_CHECKS=kunit_modules${checks:+,$checks} \
		QEMU_MACHINE=$qemu_machine BOOT_TIMEOUT=$timeout "$top/scripts/boot-guest.sh" \
		"$variant" "$mcpu" "mutant-$name" guest.hotplug_cycles=2 earlycon=pl011,0x9000000 "${margs[@]}" || rc=$?
	res=$("$top/scripts/kunit-results.sh" "$log")
	missed=
	for c in "${expect[@]}"; do
		case $c in
		emitted-code)
			die "$name: name the rule that must catch it, emitted-code:REGEX" ;;
		emitted-code:*)
			! "$top/scripts/check-emitted-code.py" "$variant" > "$log.code" &&
				grep -qE "^error: .*${c#emitted-code:}" "$log.code" ;;
		log-clean)
			! "$top/scripts/log-clean.sh" "$log" > /dev/null ;;
		kaslr)
			for i in 2 3; do
				QEMU_ARGS=$(numa_nodes 4) SMP=4 GUEST_CHECKS=kunit_modules,addresses \
					BOOT_TIMEOUT=$timeout "$top/scripts/boot-guest.sh" \
					"$variant" max "mutant-$name-$i" > /dev/null 2>&1
			done
			! "$top/scripts/check-kaslr.sh" "$log" "$LOGS/mutant-$name-2.log" \
				"$LOGS/mutant-$name-3.log" > "$log.kaslr" 2>&1 ;;
		hibernate)
			# Logs of its own: make check's stay
			! LOGS=$LOGS/mutant-$name "$top/scripts/check-hibernate.sh" "$variant" max \
				> "$log.hibernate" 2>&1 ;;
		memhotplug)
			# 4 levels: the hot-added memory's top-level entry.  One of
			# the two phases must report its own failure.
			LOGS=$LOGS/mutant-$name "$top/scripts/check-memhotplug.sh" "$variant" cortex-a57 \
				> "$log.memhotplug" 2>&1
			for p in add remove; do
				"$top/scripts/guest-results.py" --failed "/memhotplug_$p" \
					"$LOGS/mutant-$name/memhotplug-cortex-a57.ktap" 2> /dev/null && break
			done ;;
		kdump)
			# drgn's own complaint about the vmcore or the oops'
			# show_pte(), not a run that could not start
			! LOGS=$LOGS/mutant-$name "$top/scripts/check-kdump.sh" "$variant" max \
				> "$log.kdump" 2>&1 && grep -q '^MISMATCH' "$log.kdump" ;;
		boot)
			# the kernel's own death, not a QEMU error
			[ "$rc" -ne 124 ] && ! "$top/scripts/guest-results.py" --complete "$ktap" 2> /dev/null &&
				grep -qE 'Kernel panic|Internal error|Unable to handle' "$log" ;;
		rerun:*)
			"$top/scripts/guest-results.py" --failed "/kunit_rerun/${c#rerun:}" "$ktap" 2> /dev/null ;;
		check:*)
			"$top/scripts/guest-results.py" --failed "/${c#check:}" "$ktap" 2> /dev/null ;;
		*)	# a case of a built-in suite (boot run) or of a module's
			grep -q "\[FAILED\] $c$" <<< "$res" ||
				"$top/scripts/guest-results.py" --failed "$c" "$ktap" 2> /dev/null ;;
		esac || missed="$missed $c"
	done
	if [ "$rc" -eq 124 ]; then
		echo "FAIL $name: the boot timed out after ${timeout}s, which catches nothing (log: $log)"
		failed=$((failed + 1))
	elif [ -z "$missed" ]; then
		echo "PASS $name: caught by ${expect[*]}"
		passed=$((passed + 1))
	else
		echo "FAIL $name: missed by$missed (log: $log)"
		failed=$((failed + 1))
	fi
done
git -C "$tree" checkout -q -f --detach series
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
