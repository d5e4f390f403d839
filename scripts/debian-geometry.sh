#!/usr/bin/env bash
# Write OUTFILE: a config fragment with the page-table geometry of Debian's
# own arm64 kernel of the base version, taken from the .config in the
# flavor's linux-headers package (debian-config.sh).
#
# usage: debian-geometry.sh FLAVOR OUTFILE   (FLAVOR: arm64, arm64-16k,
#        rt-arm64, ...; empty for arm64)
set -euo pipefail
. "$(dirname "$0")/common.sh"

# The geometry: what decides the shape of the kernel page tables and of
# the address space the per-CPU tables and windows live in (page size, VA
# and PA width; LPA2 is what 52 bits means with 4K/16K pages), how many
# CPUs the percpu regions are laid out for (NR_CPUS), and erratum 843419
# (it rewrites ADRP in modules, the instruction a static this_cpu_*() starts
# with).  Extended regular expressions on the symbol, without CONFIG_.
# Lines are copied as the .config has them, "is not set" included, so that
# merge_config in strict mode sees the whole of each choice.
geometry=(
	'ARM64_(4K|16K|64K)_PAGES'
	'ARM64_VA_BITS_[0-9]+'
	'ARM64_PA_BITS_[0-9]+'
	'NR_CPUS'
	'ARM64_ERRATUM_843419'
)
# Copied only when set (def_bool y, not a choice).
geometry_if_set=(
	'ARM64_LPA2'
)
# rt-arm64 only: its preemption, the one thing that flavor is about: the
# model choice and PREEMPT_RT (a separate option since 6.12).  The other
# flavors' model is left to the fragments (guest.config: PREEMPT).
geometry_rt=(
	'PREEMPT(_NONE|_VOLUNTARY|_LAZY|_RT)?'
)

flavor=${1:-arm64}
outfile=${2:?usage: debian-geometry.sh FLAVOR OUTFILE}
trap 'rm -f "$outfile.part"' EXIT
config=$("$top/scripts/debian-config.sh" "$flavor")
pkg=$(basename "$config" | cut -d_ -f1)

syms=("${geometry[@]}")
[ "$flavor" = rt-arm64 ] && syms+=("${geometry_rt[@]}")
{
	echo "# Page-table geometry of Debian's arm64 kernel, flavor $flavor:"
	echo "# from the .config of $pkg $BASE_VERSION (arm64)."
	echo "# Written by scripts/debian-geometry.sh; do not edit."
	for re in "${syms[@]}"; do
		grep -E "^(CONFIG_($re)=.*|# CONFIG_($re) is not set)\$" "$config" ||
			die "no CONFIG_$re in the .config of $pkg $BASE_VERSION"
	done
	for re in "${geometry_if_set[@]}"; do
		grep -E "^CONFIG_($re)=y\$" "$config" || true
	done
} > "$outfile.part"
mv "$outfile.part" "$outfile"
