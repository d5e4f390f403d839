#!/usr/bin/env bash
# Write another base's resolved patches to bases/$BASE/: the work tree of
# that base (build/base-$BASE/linux, its conflicts resolved in its commits)
# is exported, and each patch that says other than patches/'s is kept
# under the same path; bases/$BASE/resolved-from records the content of
# the original it was resolved from, so that make-tree.sh refuses the
# resolution once patches/ moves on without it.
#
# usage: BASE=NAME export-base.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$BASE" != 7.2.13 ] || die "BASE=7.2.13 is patches/ itself: use make export"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/scripts/export-series.sh" "$tmp"
differ=$(diff <(sed '/^#/d;/^$/d' "$PATCHES/series") "$tmp/series" | grep -m 1 '^[<>]' || true)
[ -z "$differ" ] ||
	die "the $BASE tree's patches are not patches/series' ($differ): make export on the default base first, then make the $BASE tree again"

out=$top/bases/$BASE
rm -rf "$out"
mkdir -p "$out"
while read -r p; do
	was=$("$top/scripts/patch-sum.sh" "$PATCHES/$p")
	[ "$("$top/scripts/patch-sum.sh" "$tmp/$p")" != "$was" ] || continue
	mkdir -p "$out/${p%/*}"
	cp "$tmp/$p" "$out/$p"
	echo "$was  $p" >> "$out/resolved-from"
	note "bases/$BASE/$p"
done < "$tmp/series"
[ -s "$out/resolved-from" ] || { rmdir "$out"; note "every patch applies to $BASE as it is"; }
