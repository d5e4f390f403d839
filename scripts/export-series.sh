#!/usr/bin/env bash
# Write the work tree's commits on top of the base back to patches/: one
# directory per series of the stack (series.stack in the tree, as make-tree
# recorded it), each the format-patch files of the commits from the
# previous series' branch to its own, with a cover letter from the branch
# description; and patches/series, every patch in stack order.
# Deterministic: exporting an unchanged tree rewrites identical files.
#
# usage: export-series.sh [OUTDIR]   (default: patches/)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:-$PATCHES}
# patches/ is the default base's series; another base's differences are
# patches of bases/$BASE/ (export-base.sh).
[ "$BASE" = 7.2.13 ] || [ $# -gt 0 ] ||
	die "BASE=$BASE: export writes the default base's series to patches/; its resolved patches go to bases/$BASE/ with BASE=$BASE scripts/export-base.sh, or name an OUTDIR"
[ -e "$KSRC/.git" ] || die "no work tree at $KSRC; run 'make tree' first"
cd "$KSRC"
[ "$(git symbolic-ref -q --short HEAD)" = series ] ||
	die "the work tree is not on branch 'series'"
stack=$(git config series.stack || true)
[ -n "$stack" ] || die "$KSRC records no stack of series (series.stack): run 'make tree'"
# The last series ends at the tip of branch series: commits made on top of
# it are that series' (its branch moves when make-tree applies them).
last=${stack##* }
git merge-base --is-ancestor "$last" series ||
	die "branch $last, the last series, is not part of branch series: rebase with --update-refs, so that every series' branch follows"
end() { if [ "$1" = "$last" ]; then echo series; else echo "$1"; fi; }
prev=$BASE_TAG
for b in $stack; do
	git merge-base --is-ancestor "$prev" "$(end "$b")" ||
		die "branch $b does not follow $prev: rebase with --update-refs keeps the series' branches in order"
	prev=$b
done

mkdir -p "$out"
rm -f "$out/series"
for b in $stack; do
	rm -rf "${out:?}/$b"
done
: > "$out/series"
prev=$BASE_TAG
for b in $stack; do
	tip=$(end "$b")
	if [ "$(git rev-list --count "$prev..$tip")" -gt 0 ]; then
		reroll=$(git config "branch.$b.reroll" || true)
		# The cover letter is the description of the branch that ends the
		# range: branch $b's, given to series as well for the last one
		git -c core.abbrev=12 -c "branch.series.description=$(git config "branch.$b.description" || true)" \
			format-patch -q --zero-commit --no-signature --cover-letter \
			--cover-from-description=subject --subject-prefix="RFC PATCH" \
			${reroll:+--reroll-count="$reroll"} \
			--base="$BASE_TAG" -o "$out/$b" "$prev..$tip"
		# format-patch dates the cover letter "now"; use the newest
		# commit's date so that exporting twice gives the same file.
		sed -i "1,/^\$/s/^Date: .*/Date: $(git log -1 --format=%aD "$tip")/" \
			"$out/$b"/*0000-cover-letter.patch
		(cd "$out" && ls "$b" | grep -E '^(v[0-9]+-)?[0-9]{4}-.*\.patch$' |
			grep -v -- '0000-cover-letter' | sed "s|^|$b/|") >> "$out/series"
	fi
	prev=$b
done
