#!/usr/bin/env bash
# make matrix (slow, not in make check): build the series for every
# page-table geometry it supports and boot each on an LSE and an LL/SC CPU
# with the KUnit suites, CPU hotplug and the log check, then kexec,
# hibernation and memory hot-add/remove on each CPU (MATRIX_LIFECYCLE=0
# leaves those out); print a table.
#
# A geometry is a config fragment: debian-FLAVOR (Debian's own, read from
# its linux-headers package) or configs/geometry-*.config.  The extra
# fragments after it add KASAN or KCSAN; "clang" there builds with Debian's
# clang (LLVM=-19, or MATRIX_LLVM) instead of gcc, and its emitted code is
# shown next to gcc's build of the same geometry.  QEMU has no
# LL/SC CPU with 16K pages (cortex-a57 has 4K and 64K only), and 7.2 has
# no option that turns the LSE atomics off (CONFIG_ARM64_LSE_ATOMICS is
# gone; the "max, no LSE" kernel of earlier runs was an LSE one): there the
# LL/SC column is n/a.  A 16K kernel also boots on neoverse-n1, which has no LPA2,
# so 52-bit VA falls back to 47 bits with the top level folded.  The table
# goes to build/logs/matrix/matrix.md too.
#
# usage: matrix.sh [GEOMETRY[:EXTRA-FRAGMENTS]...]    (default: all of them)
set -uo pipefail
. "$(dirname "$0")/common.sh"
unset ACCEL PRINT_QEMU	# boots under TCG, run for real

# GEOMETRY:EXTRA-FRAGMENTS (comma-separated; Debian's 16K and RT choices
# need EXPERT to be visible to merge_config).  No hardware tag-based
# KASAN: the series leaves the option off with it, untested, since the
# base kernel with it does not boot under QEMU 7.2
# (configs/kasan-hw-tags.config).
all="debian-arm64: geometry-4k-52-4096: geometry-4k-39: geometry-4k-48:
     debian-arm64-16k:expert geometry-16k-47:expert geometry-16k-48:
     geometry-64k-42: geometry-64k-48: geometry-64k-52: debian-rt-arm64:expert
     debian-arm64:kasan-generic debian-arm64:kasan-sw-tags
     debian-arm64:clang debian-arm64:kcsan,expert"
[ $# -gt 0 ] && all=$*
dir=$LOGS/matrix
mkdir -p "$dir"
table=$dir/matrix.md

row() {
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@" | tee -a "$table"
}

# mid "A | B | C": B.
mid() {
	local m=${1#* | }
	echo "${m% | *}"
}

# lifecycle VARIANT CPU NAME: the "kexec, hibernate, memhotplug" cell, each
# check's logs in a directory of its own (MATRIX_LIFECYCLE=0: "-").
lifecycle() {
	local l=$dir/$3 k=fail h=fail m=fail
	[ "${MATRIX_LIFECYCLE:-1}" = 1 ] || { echo -; return; }
	mkdir -p "$l"
	LOGS=$l "$top/scripts/check-kexec.sh" "$1" "$2" > "$l/kexec.out" 2>&1 && k=pass
	LOGS=$l "$top/scripts/check-hibernate.sh" "$1" "$2" > "$l/hibernate.out" 2>&1 && h=pass
	LOGS=$l "$top/scripts/check-memhotplug.sh" "$1" "$2" > "$l/memhotplug.out" 2>&1 && m=pass
	echo "$k, $h, $m"
}

# boot_one VARIANT CPU NAME: the "levels, bytes/CPU | KUnit, hotplug, log |
# kexec, hibernate, memhotplug" cells.  A kernel with more than Debian's
# 512 CPUs boots with NR_CPUS possible CPUs, 4 of them online
# (scripts/possible-cpus-dtb.sh, no NUMA), in 8G: 4096 possible CPUs
# reserve 1.8G at boot (SWIOTLB's 1G for 4096 areas, the first chunk's
# 416M, printk's 150M), the debug options' slabs grow with them, and the
# KUnit suites' chunks take a page on each, so 4G ran out of memory in
# pcpu_local_test_dynamic; 15 to 40 minutes of TCG a boot.
boot_one() {
	local log=$LOGS/$3.log kunit=fail hotplug=fail clean=fail layout nr
	local qemu_args mem=1G timeout=${BOOT_TIMEOUT:-600} args=
	qemu_args=$(numa_nodes 4)
	nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$BUILD/out/$1/.config")
	if [ "$nr" -gt 512 ] && "$top/scripts/possible-cpus-dtb.sh" "$dir/$3.dtb" "$nr" "$2" 4; then
		qemu_args="-dtb $dir/$3.dtb" mem=8G timeout=${BOOT_TIMEOUT:-2400} args=maxcpus=4
	fi
	QEMU_ARGS=$qemu_args MEM=$mem SMP=4 BOOT_TIMEOUT=$timeout \
		GUEST_CHECKS=kunit_modules,hotplug,kunit_rerun,percpu_test \
		"$top/scripts/boot-guest.sh" "$1" "$2" "$3" guest.hotplug_cycles=3 $args \
		> "$dir/$3.boot" 2>&1
	layout=$(sed -n 's/.*per-CPU kernel page tables: \([0-9]*\) levels, \([0-9]*\) bytes per CPU.*/\1 levels, \2 B/p' "$log")
	[ -z "$args" ] || layout="$layout, $(sed -n 's/.*percpu local mapping: \([0-9]*\) regions.*/\1/p' "$log") possible CPUs"
	"$top/scripts/kunit-results.sh" "$log" > "$dir/$3.kunit" 2>&1 &&
		"$top/scripts/guest-results.py" --passed /kunit_modules "${log%.log}.ktap" 2> /dev/null &&
		"$top/scripts/guest-results.py" --passed /kunit_rerun "${log%.log}.ktap" 2> /dev/null &&
		"$top/scripts/guest-results.py" --passed /percpu_test "${log%.log}.ktap" 2> /dev/null && kunit=pass
	"$top/scripts/guest-results.py" --passed /hotplug "${log%.log}.ktap" 2> /dev/null && hotplug=pass
	"$top/scripts/log-clean.sh" "$log" > "$dir/$3.clean" 2>&1 && clean=pass
	if [ -n "$layout" ]; then
		echo "$layout | $kunit, $hotplug, $clean | $(lifecycle "$@")"
	else
		echo "no boot | $kunit, $hotplug, $clean | -"
	fi
}

echo "| geometry | config | LSE boot (-cpu max) | KUnit, hotplug, log | kexec, hibernate, memhotplug | LL/SC boot | KUnit, hotplug, log | kexec, hibernate, memhotplug | emitted code |" > "$table"
echo "|---|---|---|---|---|---|---|---|---|" >> "$table"
cat "$table"
failed=0
for g in $all; do
	case $g in *:*) extra=${g#*:} ;; *) extra= ;; esac
	geo=${g%%:*}${extra:++${extra//,/+}}
	geo=${geo/+expert/}
	variant=matrix-${geo//+/-}
	llvm=
	case ,$extra, in *,clang,*)
		llvm=${MATRIX_LLVM:--19}
		extra=$(echo ",$extra," | sed 's/,clang,/,/; s/^,//; s/,$//') ;;
	esac
	guest=guest
	case ,$extra, in *,kcsan,*)
		# KCSAN excludes software PAN, which guest.config turns on
		grep -v '^CONFIG_ARM64_SW_TTBR0_PAN=' "$top/configs/guest.config" > "$dir/guest-kcsan.config"
		guest=$dir/guest-kcsan.config ;;
	esac
	frags=("$guest" "${g%%:*}" ${extra//,/ } local-mapping-y series-kunit debug numa memhotplug)
	if ! LLVM=$llvm "$top/scripts/build-kernel.sh" "$variant" "${frags[@]}" > "$dir/$geo.build" 2>&1 ||
	   ! "$top/scripts/build-initramfs.sh" "$variant" >> "$dir/$geo.build" 2>&1; then
		row "$geo" "build failed ($dir/$geo.build)" - - - - - - -
		failed=$((failed + 1))
		continue
	fi
	# log-clean.sh leaves the base kernel's own KCSAN reports out
	unset KCSAN_VARIANT
	grep -q '^CONFIG_KCSAN=y' "$BUILD/out/$variant/.config" && export KCSAN_VARIANT=$variant
	if ! grep -q '^CONFIG_PERCPU_LOCAL_MAPPING=y' "$BUILD/out/$variant/.config"; then
		row "$geo" "the option is off: ARCH_SUPPORTS_PERCPU_LOCAL_MAPPING is n" - - - - - - -
		failed=$((failed + 1))
		continue
	fi
	cfg=$(grep -E '^CONFIG_(ARM64_(4K|16K|64K)_PAGES|ARM64_VA_BITS|PGTABLE_LEVELS|NR_CPUS|PREEMPT_RT)=' \
		"$BUILD/out/$variant/.config" | sed 's/^CONFIG_//' | tr '\n' ' ')
	code=fail
	code_variants=("$variant")
	# gcc's column: this geometry's row, or make check's kernel (same geometry)
	gcc_variant=matrix-${g%%:*}
	[ -d "$BUILD/out/$gcc_variant/refcode" ] || [ "${g%%:*}" != "$GEOMETRY" ] || gcc_variant=lm-y-debug
	[ -n "$llvm" ] && [ -d "$BUILD/out/$gcc_variant/refcode" ] && code_variants=("$gcc_variant" "$variant")
	"$top/scripts/check-emitted-code.py" "${code_variants[@]}" > "$dir/$geo.code" 2>&1 && code=pass
	lse=$(boot_one "$variant" max "matrix-${geo//+/-}-max")
	if grep -q '^CONFIG_ARM64_16K_PAGES=y' "$BUILD/out/$variant/.config"; then
		llsc="n/a: no LL/SC CPU with 16K pages | - | -"
	else
		llsc="cortex-a57: $(boot_one "$variant" cortex-a57 "matrix-${geo//+/-}-a57")"
	fi
	row "$geo" "$cfg" "${lse%% | *}" "$(mid "$lse")" "${lse##* | }" \
		"${llsc%% | *}" "$(mid "$llsc")" "${llsc##* | }" "$code"
	case "$lse $llsc $code" in *fail*|*"no boot"*) failed=$((failed + 1)) ;; esac
	if grep -q '^CONFIG_ARM64_16K_PAGES=y' "$BUILD/out/$variant/.config"; then
		n1=$(MATRIX_LIFECYCLE=0 boot_one "$variant" neoverse-n1 "matrix-${geo//+/-}-n1")
		row "$geo" "$cfg" "neoverse-n1: ${n1%% | *}" "$(mid "$n1")" - - - - "$code"
		case "$lse $llsc $code" in *fail*|*"no boot"*) ;; *)
			case "$n1" in *fail*|*"no boot"*) failed=$((failed + 1)) ;; esac ;;
		esac
	fi
done
echo "$failed geometries with a failure (logs: $dir)"
[ "$failed" -eq 0 ]
