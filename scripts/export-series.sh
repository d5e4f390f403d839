#!/usr/bin/env bash
# Write the work tree's commits on top of the base back to patches/: the
# format-patch files, a cover letter and the series file.  Deterministic:
# exporting an unchanged tree rewrites identical files.
#
# usage: export-series.sh [OUTDIR]   (default: patches/)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:-$PATCHES}
# patches/ is the default base's series; another base's differences are
# patches of bases/$BASE/, written by hand (git format-patch).
[ "$BASE" = 7.2.13 ] || [ $# -gt 0 ] ||
	die "BASE=$BASE: export writes the default base's series to patches/; put this base's resolved patches in bases/$BASE/ (git format-patch -o DIR), or name an OUTDIR"
# The version of the series as posted: v2 reworked the address space, v3
# reserved the regions once.
reroll=3
[ -e "$KSRC/.git" ] || die "no work tree at $KSRC; run 'make tree' first"
cd "$KSRC"
[ "$(git symbolic-ref -q --short HEAD)" = series ] ||
	die "the work tree is not on branch 'series'"

mkdir -p "$out"
rm -f "$out"/*.patch "$out/series"
if [ "$(git rev-list --count "$BASE_TAG..series")" -gt 0 ]; then
	git -c core.abbrev=12 format-patch -q --zero-commit --no-signature --cover-letter \
		--cover-from-description=subject --subject-prefix="RFC PATCH" --reroll-count="$reroll" \
		--base="$BASE_TAG" -o "$out" "$BASE_TAG..series"
	# format-patch dates the cover letter "now"; use the newest commit's
	# date so that exporting twice gives the same file.
	sed -i "1,/^\$/s/^Date: .*/Date: $(git log -1 --format=%aD series)/" \
		"$out/v$reroll-0000-cover-letter.patch"
fi
(cd "$out" && ls | grep -E '^v[0-9]+-[0-9]{4}-.*\.patch$' | grep -v -- '-0000-cover-letter' || true) > "$out/series"
