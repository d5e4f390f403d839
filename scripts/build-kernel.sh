#!/usr/bin/env bash
# Configure and build one kernel variant out of tree, in build/out/VARIANT:
# the config of configure-kernel.sh, then Image, modules and the project's
# reference module (refcode/).
#
# usage: build-kernel.sh VARIANT FRAGMENT...   (fragment names without .config)
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: build-kernel.sh VARIANT FRAGMENT...}
shift
out=$BUILD/out/$variant

note "configuring $variant: $*"
"$top/scripts/configure-kernel.sh" "$out" "$@"

note "building $variant in $out"
kmake O="$out" Image modules > "$out/build.log" 2>&1 ||
	{ grep -E 'error|Error' "$out/build.log" | head -n 30 >&2; die "$variant: build failed (log: $out/build.log)"; }
kmake O="$out" M="$top/refcode" MO="$out/refcode" modules >> "$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; die "$variant: refcode module failed (log: $out/build.log)"; }
grep -E ': warning:' "$out/build.log" >&2 || true
note "$variant: $(ls -l "$out/arch/arm64/boot/Image" | awk '{print $5}') bytes Image"
