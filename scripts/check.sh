#!/usr/bin/env bash
# make check: every test that fits in CI, on the series in patches/.  Each
# test prints PASS or FAIL with its log under build/logs/check/; the last
# line is "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"
# A boot of make check runs the checks, under TCG: an ACCEL or PRINT_QEMU
# meant for make run would turn its boots into something else.
unset ACCEL PRINT_QEMU

# The one kernel every boot test runs: the series on, with the debug options.
# With LLVM set (LLVM=-19 make check), the same tests on a clang build,
# a kernel of its own; the static check and the mainline 7.4 variant stay
# gcc's.
variant=lm-y-debug${LLVM:+-clang}
fragments=(guest "$GEOMETRY" local-mapping-y series-kunit debug numa paths memhotplug werror)	# werror last
# The boots, CPU:VCPUS:ARGS:MACHINE.  CPU: max (LSE) or cortex-a57 (LL/SC).
# ARGS: kernel arguments, comma-separated (nokaslr makes KPTI rewrite the
# tables nG at boot).  MACHINE, comma-separated: "numa" for two NUMA nodes
# (each with half the vCPUs and half the memory), where the KUnit suites
# check that units stay node-local; "el2" to boot the kernel at EL2, as on
# a server, and run KVM guests (VHE on max; nVHE on cortex-a57, which has
# no VHE; protected mode, pKVM, whose hypervisor takes the host's memory
# behind a stage 2); "paths" to run the path checks too; "possible" for
# NR_CPUS possible CPUs, of which the vCPUs come online (a device tree with
# the others added, scripts/possible-cpus-dtb.sh, and maxcpus=VCPUS): on
# both CPUs, as a depopulation's flush over NR_CPUS regions is range TLBIs
# on max and, without them, flush_tlb_all() on cortex-a57.
boots=${CHECK_BOOTS:-max:4::numa,paths cortex-a57:4::numa,paths max:8:kpti=1,nokaslr cortex-a57:8:kpti=1
	max:4::el2 cortex-a57:4::el2 max:4:kvm-arm.mode=protected:el2 max:4::possible cortex-a57:4::possible}
# The checks of every boot, and the path checks of the "paths" boots, one
# LSE and one LL/SC: module loading loops, kprobes, ftrace, livepatch and
# BPF's JIT, the paths that patch text or compute per-CPU addresses outside
# asm/percpu.h (configs/paths.config).  Under TCG they take minutes a boot:
# the function tracer on every function alone some 4 minutes (the LSE
# boot; the LL/SC one traces percpu's and CPU hotplug's functions, the
# same call-site patching), and 10 rounds of module loads and of CPU
# hotplug find what 20 did in the CI runs so far, in half the time.
base_checks=kunit_modules,hotplug,kunit_rerun,percpu_test,percpu_stats,addresses,initmem
path_checks=modules_loop,kprobes,ftrace,livepatch,bpf_percpu,ptdump,tlb_reach

passed=0
failed=0
# Each test's output, for t (common.sh)
test_logs=$LOGS/check
mkdir -p "$test_logs"

finish() {
	echo "total $((SECONDS / 60)) min $((SECONDS % 60)) s"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# singlestep VARIANT CPU CHECK: the this_cpu_*() torture alone, under
# QEMU's -singlestep (tests/singlestep.sh), where the mover can take a
# worker between any two instructions of an operation; the torture's own
# expectations then include a worker moved inside a round.  Two vCPUs:
# about 2 to 3 minutes a boot, the debug kernel's boot most of it.
singlestep() {
	local name=singlestep-$1-$2 log
	log=$LOGS/check-$name.log
	QEMU_ARGS=$SINGLESTEP_QEMU_ARGS SMP=2 GUEST_CHECKS=$3 BOOT_TIMEOUT=900 t "boot:$name" \
		"$top/scripts/boot-guest.sh" "$1" "$2" "check-$name" 'kunit.filter_glob=percpu_this_cpu*'
	t "kunit:$name" "$top/scripts/kunit-results.sh" "$log"
	t "torture:$name" grep -aqE '^ *ok [0-9]+ this_cpu_test_torture' "$log"
	t "guest:$name:$3" "$top/scripts/guest-results.py" --passed "/$3" "${log%.log}.ktap"
	t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
}

t setup:host-tools "$top/scripts/host-tools.sh" || finish
t setup:tree "$top/scripts/make-tree.sh" || finish

while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	t "checkpatch:$p" "$top/scripts/checkpatch.sh" "$PATCHES/$p"
done < "$PATCHES/series"
# The core cover letter's losses and figures are the report's
# (scripts/cover-losses.py, scripts/cover-figures.py)
for c in cover-losses cover-figures; do
	t "$c" python3 "$top/scripts/$c.py" "$top/bench/results" \
		--check "$(ls "$PATCHES"/core/*0000-cover-letter.patch | head -n 1)"
done

t "build:$variant" "$top/scripts/build-kernel.sh" "$variant" "${fragments[@]}" || finish
# Without -Werror there: a W=1 warning would stop the object before sparse
[ -n "${LLVM:-}" ] ||
	t static:sparse-w1 "$top/scripts/static-check.sh" "$variant" "${fragments[@]:0:${#fragments[@]}-1}"
t emitted-code "$top/scripts/check-emitted-code.py" "$variant"
t build:initramfs "$top/scripts/build-initramfs.sh" "$variant" || finish

# guest/checks/kprobes probes every instruction of these functions of the
# this_cpu_*() KUnit suite: FUNC:SIZE from vmlinux's symbol table.
kprobe_funcs=$(${CROSS_COMPILE}nm -S "$BUILD/out/$variant/vmlinux" |
	while read -r _ size _ sym; do
		case $sym in place_on_cpu|this_cpu_test_local) echo "$sym:$((16#$size))" ;; esac
	done | paste -sd,)

boot_logs=()
for b in $boots; do
	IFS=: read -r cpu smp args machine <<< "$b"
	name=$cpu-$smp${args:+-${args//=/}}${machine:+-${machine//,/-}}
	log=$LOGS/check-$name.log
	boot_logs+=("$log")
	qemu_args=
	qemu_machine=virt,gic-version=3
	case ,$machine, in *,numa,*) qemu_args=$(numa_nodes "$smp") ;; esac
	case ,$machine, in *,el2,*) qemu_machine=$qemu_machine,virtualization=on ;; esac
	case ,$machine, in *,possible,*)
		nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$BUILD/out/$variant/.config")
		dtb=$LOGS/check-$name.dtb
		QEMU_MACHINE=$qemu_machine t "possible-cpus-dtb:$name" \
			"$top/scripts/possible-cpus-dtb.sh" "$dtb" "$nr_cpus" "$cpu" "$smp"
		qemu_args="$qemu_args -dtb $dtb"
		args=${args:+$args,}maxcpus=$smp ;;
	esac
	checks=$base_checks
	ftrace_filter=
	case ,$machine, in *,paths,*)
		checks=$checks,$path_checks
		[ "$cpu" = max ] || ftrace_filter=guest.ftrace_filter='pcpu_*,*percpu*,do_init_module,cpuhp_*' ;;
	esac
	# KVM's mode at EL2: VHE where the CPU has it, protected mode with
	# hVHE there too, nVHE on cortex-a57 (kvm-mode: below)
	# With nVHE, a KVM guest after a CPU hotplug cycle hangs every CPU
	# under QEMU 7.2's TCG, the base kernel's as well as the series': there
	# KVM runs before the hotplug cycles.
	kvm_mode=
	case ,$machine, in *,el2,*)
		case $cpu,$args in
		*kvm-arm.mode=protected*) kvm_mode="Protected hVHE" ;;
		max,*) kvm_mode=VHE ;;
		*) kvm_mode="Hyp nVHE" ;;
		esac
		if [ "$kvm_mode" = "Hyp nVHE" ]; then
			checks=kunit_modules,kvm,${checks#kunit_modules,}
		else
			checks=$checks,kvm
		fi ;;
	esac
	QEMU_MACHINE=$qemu_machine QEMU_ARGS=$qemu_args SMP=$smp GUEST_CHECKS=$checks t "boot:$name" \
		"$top/scripts/boot-guest.sh" "$variant" "$cpu" "check-$name" \
		guest.hotplug_cycles="${HOTPLUG_CYCLES:-10}" guest.modules_cycles=10 \
		guest.kprobe_funcs="$kprobe_funcs" ${ftrace_filter:+"$ftrace_filter"} ${args//,/ }
	t "boot:$name:finished" "$top/scripts/guest-results.py" --complete "${log%.log}.ktap"
	t "kunit:$name" "$top/scripts/kunit-results.sh" "$log"
	# Ran, not skipped: its option (series-kunit.config) is off by default
	t "cpu_resume:$name" grep -aqE '^ *ok [0-9]+ cpu_pgd_test_cpu_resume.?$' "$log"
	for c in ${checks//,/ }; do
		t "guest:$name:$c" "$top/scripts/guest-results.py" --passed "/$c" "${log%.log}.ktap"
	done
	t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
	lse=
	[ "$cpu" = max ] && lse=--lse
	case ,$machine, in
	*,paths,*) t "kprobes:$name" "$top/scripts/check-kprobes.py" "$variant" "$log" $lse ;;
	esac
	case ,$machine, in
	*,el2,*) t "el2:$name" grep -q 'CPU(s) started at EL2' "$log"
		t "kvm-mode:$name" grep -qE "kvm \[[0-9]+\]: $kvm_mode mode initialized successfully.?\$" "$log" ;;
	esac
	case ,$machine, in
	*,possible,*) t "possible:$name" grep -q "percpu local mapping: $nr_cpus regions" "$log" ;;
	esac
done
t kaslr:addresses-move "$top/scripts/check-kaslr.sh" "${boot_logs[@]}"

# One CPU online (the other possible CPUs' tables are made all the same):
# no hotplug, no rerun.
for a in nosmp maxcpus=1; do
	name=max-4-${a//=/}
	log=$LOGS/check-$name.log
	SMP=4 GUEST_CHECKS=kunit_modules,percpu_test t "boot:$name" \
		"$top/scripts/boot-guest.sh" "$variant" max "check-$name" "$a"
	t "boot:$name:finished" "$top/scripts/guest-results.py" "${log%.log}.ktap"
	t "kunit:$name" "$top/scripts/kunit-results.sh" "$log"
	t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
done
# Hibernation to a virtio disk, written and resumed on CPU 1: resume runs
# cpu_resume, which QEMU's idle (a PSCI standby) never does.
for cpu in max cortex-a57; do
	t "hibernate:$cpu" "$top/scripts/check-hibernate.sh" "$variant" "$cpu"
done
# Memory hot-add and hot-remove through virtio-mem, a top-level slot away
# from RAM.
for cpu in max cortex-a57; do
	t "memhotplug:$cpu" "$top/scripts/check-memhotplug.sh" "$variant" "$cpu"
done
# kexec into the same kernel: every CPU goes down, and the new kernel
# makes every table again.
for cpu in max cortex-a57; do
	t "kexec:$cpu" "$top/scripts/check-kexec.sh" "$variant" "$cpu"
done
# The core series alone, as it is posted first (patches/core/, without the
# follow-ups): its suites as a maintainer runs them, with the tree's
# kunit.py and the core's .kunitconfig files (kunit.py's own arm64 kernel:
# 4K pages, 52-bit VA, with what the cases need, -cpu max, 4 vCPUs); and a
# kernel of its own, booted on LL/SC with its suites, the module suite and
# CPU hotplug (the guest's own config, no debug options: the top's boots
# above have them).  kunit.py replaces that kernel's boot on LSE: the
# suites and cases are the same, and the module and hotplug checks on LSE
# run on the top's boots.
if core_tree=$("$top/scripts/series-tree.sh" core 2> "$test_logs/core-tree.log"); then
	if t "kunit.py:core" "$top/scripts/kunit-py.sh" "$core_tree" "$BUILD/out/kunit-core${LLVM:+-clang}" \
		arch/arm64/mm/.kunitconfig mm/tests/percpu_local_mapping.kunitconfig \
		mm/tests/percpu_this_cpu.kunitconfig; then
		for suite in arm64_cpu_pgd percpu_local_mapping percpu_this_cpu; do
			t "suite:kunit.py:$suite" grep -qE "=+ \[PASSED\] $suite =+" "$test_logs/kunit.py_core.log"
		done
		t "log-clean:kunit.py" "$top/scripts/log-clean.sh" "$BUILD/out/kunit-core${LLVM:+-clang}/test.log"
	fi
	cv=core-y${LLVM:+-clang}
	if t "build:$cv" env KSRC="$core_tree" "$top/scripts/build-kernel.sh" "$cv" \
		guest "$GEOMETRY" local-mapping-y series-kunit werror &&
	   t "build:$cv-initramfs" env KSRC="$core_tree" "$top/scripts/build-initramfs.sh" "$cv"; then
		for cpu in cortex-a57; do
			name=core-$cpu
			log=$LOGS/check-$name.log
			SMP=4 GUEST_CHECKS=kunit_modules,hotplug,percpu_test t "boot:$name" \
				"$top/scripts/boot-guest.sh" "$cv" "$cpu" "check-$name" guest.hotplug_cycles=3
			t "boot:$name:finished" "$top/scripts/guest-results.py" --complete "${log%.log}.ktap"
			t "kunit:$name" env KSRC="$core_tree" "$top/scripts/kunit-results.sh" "$log"
			for suite in arm64_cpu_pgd percpu_local_mapping percpu_this_cpu; do
				t "suite:$name:$suite" grep -qE "^ *ok [0-9]+ $suite.?\$" "$log"
			done
			for c in kunit_modules hotplug percpu_test; do
				t "guest:$name:$c" "$top/scripts/guest-results.py" --passed "/$c" "${log%.log}.ktap"
			done
			t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
		done
	fi
else
	failed=$((failed + 1))
	echo "FAIL core-tree (log: $test_logs/core-tree.log)"
fi

# The series on LL/SC, where a move can cut the loop between its load and
# store-exclusive (an LSE atomic cannot be cut): the torture's hrtimer
# counts its interrupts that land there, on a counter's local address,
# which only -singlestep makes possible under TCG.
singlestep "$variant" cortex-a57 meminfo
t "llsc-cut:singlestep-$variant-cortex-a57" grep -aqE \
	'this_cpu_test_torture: .*, [1-9][0-9]* inside an LL/SC loop' "$LOGS/check-singlestep-$variant-cortex-a57.log"

# Mainline 7.4's way, make bench's reference (bench/mainline-7.4/):
# this_cpu_*() preemptible, the registers rewritten at the return to EL1.
# Its own suite, the this_cpu_*() torture and percpu_test, at boot and
# after CPU hotplug, on LSE and LL/SC, and at EL2 with VHE (every
# operation's TPIDR_EL2 form).  A kernel of its own, on the series' tree
# with the option off.
if [ -z "${LLVM:-}" ] && m74_tree=$("$top/scripts/variant-tree.sh" mainline-7.4 2> "$LOGS/check/mainline-7.4-tree.log"); then
	passed=$((passed + 1))
	echo "PASS mainline-7.4-tree"
	mv=mainline-7.4-debug
	if t "build:$mv" env KSRC="$m74_tree" "$top/scripts/build-kernel.sh" "$mv" \
		guest "$GEOMETRY" local-mapping-n debug mainline-7.4 mainline-7.4-kunit werror &&
	   t "build:$mv-initramfs" env KSRC="$m74_tree" "$top/scripts/build-initramfs.sh" "$mv"; then
		for b in max cortex-a57 max:el2; do
			cpu=${b%:*}
			name=mainline-7.4-${b/:/-}
			log=$LOGS/check-$name.log
			qemu_machine=virt,gic-version=3
			[ "$b" = max:el2 ] && qemu_machine=$qemu_machine,virtualization=on
			QEMU_MACHINE=$qemu_machine SMP=4 GUEST_CHECKS=hotplug,kunit_rerun,percpu_test,tlb_reach t "boot:$name" \
				"$top/scripts/boot-guest.sh" "$mv" "$cpu" "check-$name" guest.hotplug_cycles=5
			t "boot:$name:finished" "$top/scripts/guest-results.py" --complete "${log%.log}.ktap"
			t "kunit:$name" env KSRC="$m74_tree" "$top/scripts/kunit-results.sh" "$log"
			t "suite:$name" grep -qE '^ *ok [0-9]+ arm64_pcpu_gprs.?$' "$log"
			# tlb_reach: the first chunk's TLB entries with 7.4's way,
			# in the linear map as with =n
			for c in hotplug kunit_rerun percpu_test tlb_reach; do
				t "guest:$name:$c" "$top/scripts/guest-results.py" --passed "/$c" "${log%.log}.ktap"
			done
			t "log-clean:$name" "$top/scripts/log-clean.sh" "$log"
			[ "$b" != max:el2 ] ||
				t "vhe:$name" grep -q 'detected: Virtualization Host Extensions' "$log"
		done
		# On LSE, and it must have adjusted an operation that a move
		# landed in (pcpu_gprs_moved)
		KSRC=$m74_tree singlestep "$mv" max pcpu_gprs_moved
	fi
elif [ -z "${LLVM:-}" ]; then
	failed=$((failed + 1))
	echo "FAIL mainline-7.4-tree (log: $LOGS/check/mainline-7.4-tree.log)"
	sed 's/^/    /' "$LOGS/check/mainline-7.4-tree.log"
fi

# make bench's smoke run (BENCH_QUICK=1) is not here: its kernels
# of their own took a third of a cold CI run (docs/tests.md, "Slower tests").

for tt in mutants-apply send-placeholder checkpatch-maintainers checksum broken-patch roundtrip unexported tree-state results kaslr-report bench-report bench-stats scale-report cover-losses cover-figures fragment-off emitted-code; do
	t "tooling:$tt" "$top/tests/tooling.sh" "$tt"
done
t tooling:host "$top/tests/tooling.sh" host "$variant"
t tooling:hang "$top/tests/tooling.sh" hang "$variant"
t tooling:interrupt "$top/tests/tooling.sh" interrupt "$variant"
finish
