#!/usr/bin/env bash
# Run KUnit suites as a maintainer does: the tree's own kunit.py, which
# builds a kernel of its arm64 defaults and the given .kunitconfig files
# (merged), boots it under QEMU with 4 vCPUs (-cpu max, or KVM on an
# arm64 host) and parses its KTAP; fails if a test fails or the kernel
# does not finish.  With what the cases need that kunit.py's kernel
# lacks, so that they run as at boot: modules (the module area's case),
# hugetlbfs (the first chunk's contiguous mapping) and the cpu_resume
# case with what it depends on (its own option, off by default, since it
# turns each CPU's MMU off).  ccache goes in
# through CC: a CROSS_COMPILE with a space would break kunit.py's
# compile_commands.json.  The console's log is BUILD_DIR/test.log.
#
# usage: kunit-py.sh TREE BUILD_DIR KUNITCONFIG...   (paths in TREE)
set -euo pipefail
. "$(dirname "$0")/common.sh"

tree=${1:?usage: kunit-py.sh TREE BUILD_DIR KUNITCONFIG...}
dir=${2:?usage: kunit-py.sh TREE BUILD_DIR KUNITCONFIG...}
shift 2
[ $# -gt 0 ] || die "usage: kunit-py.sh TREE BUILD_DIR KUNITCONFIG..."
[ -x "$tree/tools/testing/kunit/kunit.py" ] || die "no tools/testing/kunit/kunit.py in $tree"
cc=${CROSS_COMPILE}gcc make_opts=()
[ -z "${LLVM:-}" ] || { cc=clang${LLVM#1}; make_opts+=("LLVM=$LLVM"); }
command -v ccache > /dev/null && cc="ccache $cc"
args=()
for k; do
	[ -e "$tree/$k" ] || die "no $k in $tree"
	args+=(--kunitconfig="$k")
done
cd "$tree"
python3 tools/testing/kunit/kunit.py run --arch=arm64 --cross_compile="$CROSS_COMPILE" \
	--make_options "CC=$cc" ${make_opts[@]:+--make_options "${make_opts[@]}"} \
	--build_dir="$dir" --qemu_args="-smp 4" --timeout=900 \
	--kconfig_add=CONFIG_MODULES=y --kconfig_add=CONFIG_HUGETLBFS=y \
	--kconfig_add=CONFIG_KEXEC=y --kconfig_add=CONFIG_SUSPEND=y \
	--kconfig_add=CONFIG_ARM64_CPU_PGD_RESUME_KUNIT_TEST=y "${args[@]}"
