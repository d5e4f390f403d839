#!/usr/bin/env bash
# Write OUTDIR/.config: allnoconfig plus the given fragments of configs/,
# merged with the tree's scripts/kconfig/merge_config.sh in strict mode, so
# an option that does not take effect stops the build.
#
# usage: configure-kernel.sh OUTDIR FRAGMENT...   (a fragment is a name of
#        configs/ without .config; debian-FLAVOR, the page-table geometry
#        of Debian's FLAVOR kernel (debian-geometry.sh); or a path with a
#        '/' in it)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: configure-kernel.sh OUTDIR FRAGMENT...}
shift
[ -d "$KSRC" ] || die "no kernel tree at $KSRC; run 'make tree' first"
mkdir -p "$out"

# defined SYMBOL: the tree has a Kconfig entry for SYMBOL.
defined() {
	grep -rqs --include='Kconfig*' -e "^config $1\$" -e "^menuconfig $1\$" "$KSRC"
}

frags=()
for f in "$@"; do
	case $f in
	*/*)	[ -f "$f" ] || die "no fragment $f"
		path=$(realpath -- "$f") ;;	# merge_config runs in $KSRC
	debian-*)	# The geometry of Debian's kernel of that flavor
		path=$BUILD/configs/$f.config
		if [ ! -f "$path" ]; then
			mkdir -p "$BUILD/configs"
			"$top/scripts/debian-geometry.sh" "${f#debian-}" "$path"
		fi ;;
	*)	path=$top/configs/$f.config
		[ -f "$path" ] || die "no fragment configs/$f.config" ;;
	esac
	# The series' own options appear patch by patch: one that an earlier
	# patch does not define yet is left out (so "=y" is the base config
	# before the first patch).  An option that exists must take effect.
	if [ "$f" = local-mapping-y ] || [ "$f" = series-kunit ]; then
		mkdir -p "$out"
		: > "$out/$f.config"
		while read -r line; do
			sym=$(echo "$line" | sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p')
			if [ -n "$sym" ] && ! defined "$sym"; then
				note "CONFIG_$sym is not in $KSRC: left out"
				continue
			fi
			echo "$line" >> "$out/$f.config"
		done < "$path"
		path=$out/$f.config
	fi
	# merge_config's strict mode passes "=n" for an option the tree does
	# not have (the old "max, no LSE" kernel, CONFIG_ARM64_LSE_ATOMICS=n,
	# was an LSE one): such a line must name an option that exists.  The
	# option off is the one exception, since before the patch that
	# defines it the tree has it off by having none.
	if [ "$f" != local-mapping-n ]; then
		for sym in $(sed -n -e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p' \
				    -e 's/^CONFIG_\([A-Za-z0-9_]*\)=n$/\1/p' "$path"); do
			defined "$sym" ||
				die "$f sets CONFIG_$sym off, but $KSRC has no such option: the setting would change nothing"
		done
	fi
	frags+=("$path")
done

if ! (cd "$KSRC" && scripts/kconfig/merge_config.sh -s -n -O "$out" "${frags[@]}") > "$out/config.log" 2>&1; then
	grep -A2 -E '^WARNING|rror' "$out/config.log" >&2 || tail -n 20 "$out/config.log" >&2
	die "a fragment option did not take effect (full log: $out/config.log)"
fi
