#!/usr/bin/env bash
# sparse (C=2) and W=1 on the C files the series touches, compiled in the
# base tree and in the series tree with the same config; fails on any
# warning or error the series adds (the base already has a few).  When the
# series touches headers, mm/percpu.c and mm/vmstat.c (heavy this_cpu users)
# are checked too.  Only objects that VARIANT's build compiled are checked:
# the others are not part of the config.  The base tree is a git worktree
# at the base tag.
#
# usage: static-check.sh VARIANT FRAGMENT...   (a built variant and its config)
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: static-check.sh VARIANT FRAGMENT...}
shift
series_tree=$KSRC
files=$(git -C "$series_tree" diff --name-only "$BASE_TAG" series -- '*.c' '*.h')
if [ -z "$files" ]; then
	echo "the series touches no C file: nothing to check"
	exit 0
fi
built=$(ar t "$BUILD/out/$variant/vmlinux.a" 2> /dev/null || true)
objs=$( { echo "$files" | sed -n 's/\.c$/.o/p'
	  grep -q '\.h$' <<< "$files" && printf 'mm/percpu.o\nmm/vmstat.o\n'
	} | sort -u | while read -r o; do
		# In the build now: in vmlinux.a (a thin archive of the built-in
		# objects), a module of modules.order, or the early boot code's
		# (kernel/pi, its objects copied to .pi.o); an object or module
		# left from an older build, or a .c file another one includes, is
		# not
		if grep -q "\(^\|/\)$o\$" <<< "$built" ||
		   grep -qx "$o" "$BUILD/out/$variant/modules.order" 2> /dev/null ||
		   [ -f "$BUILD/out/$variant/${o%.o}.pi.o" ]; then
			echo "$o"
		fi
	done)
[ -n "$objs" ] || { echo "no touched file is in the $variant build"; exit 0; }

check=$("$top/scripts/setup-sparse.sh")
base_tree=$(base_tree)

# diagnostics TREE SIDE: the objects' sparse and W=1 diagnostics, without
# the tree's path and line numbers (the series moves lines), each once.
diagnostics() {
	local tree=$1 out=$BUILD/out/static-$2 o
	KSRC=$tree "$top/scripts/configure-kernel.sh" "$out" "${fragments[@]}" 2>/dev/null
	for o in $objs; do
		[ -f "$tree/${o%.o}.c" ] || continue
		KSRC=$tree kmake -s O="$out" C=2 CHECK="$check" W=1 "$o" 2>&1 || echo "$o: error: does not build"
	done | grep -E '(warning|error):' |
		sed -E "s|^$tree/||; s/:[0-9]+(:[0-9]+)?:/:/" | sort -u
}

fragments=("$@")
echo "checking: $objs"
diagnostics "$base_tree" base > "$BUILD/out/static-base.txt"
diagnostics "$series_tree" series > "$BUILD/out/static-series.txt"
new=$(comm -13 "$BUILD/out/static-base.txt" "$BUILD/out/static-series.txt")
if [ -n "$new" ]; then
	echo "new sparse / W=1 diagnostics:"
	echo "$new"
	exit 1
fi
echo "no new diagnostics ($(wc -l < "$BUILD/out/static-series.txt") in all, as in the base)"
