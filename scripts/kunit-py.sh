#!/usr/bin/env bash
# Run KUnit suites as a maintainer does: the tree's own kunit.py, which
# builds a kernel of its arm64 defaults and the given .kunitconfig files
# (merged), boots it under QEMU -cpu max with 4 vCPUs and parses its KTAP;
# fails if a test fails or the kernel does not finish.  ccache goes in
# through CC: a CROSS_COMPILE with a space would break kunit.py's
# compile_commands.json.
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
	--build_dir="$dir" --qemu_args="-smp 4" --timeout=900 "${args[@]}"
