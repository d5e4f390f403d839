#!/usr/bin/env bash
# Write OUTDIR/.config: allnoconfig plus the given fragments of configs/,
# merged with the tree's scripts/kconfig/merge_config.sh in strict mode, so
# an option that does not take effect stops the build.
#
# usage: configure-kernel.sh OUTDIR FRAGMENT...   (fragment names without .config)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: configure-kernel.sh OUTDIR FRAGMENT...}
shift
[ -d "$KSRC" ] || die "no kernel tree at $KSRC; run 'make tree' first"
mkdir -p "$out"

frags=()
for f in "$@"; do
	path=$top/configs/$f.config
	[ -f "$path" ] || die "no fragment configs/$f.config"
	# Until the series adds the option, "=y" builds the base config.
	if [ "$f" = local-mapping-y ] &&
	   ! grep -rqs --include='Kconfig*' '^config PERCPU_LOCAL_MAPPING$' "$KSRC/mm" "$KSRC/arch/arm64"; then
		note "CONFIG_PERCPU_LOCAL_MAPPING is not in $KSRC: configuring without $f"
		continue
	fi
	frags+=("$path")
done

if ! (cd "$KSRC" && scripts/kconfig/merge_config.sh -s -n -O "$out" "${frags[@]}") > "$out/config.log" 2>&1; then
	grep -A2 -E '^WARNING|rror' "$out/config.log" >&2 || tail -n 20 "$out/config.log" >&2
	die "a fragment option did not take effect (full log: $out/config.log)"
fi
