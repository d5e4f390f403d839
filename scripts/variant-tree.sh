#!/usr/bin/env bash
# The tree of a comparison variant of make bench and make check: the
# series, as make-tree.sh made it, with bench/VARIANT/*.patch on top, in a
# worktree of its own (build/VARIANT-tree).  Made again when either moves;
# prints the tree's path.
#
# usage: variant-tree.sh VARIANT   (mainline-7.4 or entry-fixup)
set -euo pipefail
. "$(dirname "$0")/common.sh"

v=${1:?usage: variant-tree.sh VARIANT}
t=$BUILD/$v-tree
patches=("$top"/bench/"$v"/*.patch)
[ -f "${patches[0]}" ] || die "no patches in bench/$v/"
series=$(git -C "$KSRC" rev-parse series)
state="$series $(cat "${patches[@]}" | sha256sum | cut -c1-16)"
if [ -d "$t" ] && [ "$(cat "$t.made-from" 2>/dev/null)" = "$state" ] &&
   [ -z "$(git -C "$t" status --porcelain)" ]; then
	echo "$t"
	exit 0
fi

[ -d "$t" ] || git -C "$KSRC" worktree add -q --detach "$t" "$series" >&2 ||
	die "cannot make the worktree $t"
rm -f "$t.made-from"
git -C "$t" am --abort > /dev/null 2>&1 || true
git -C "$t" checkout -q -f --detach "$series"
if ! git -C "$t" am -q --3way "${patches[@]}" >&2; then
	git -C "$t" am --abort > /dev/null 2>&1 || true
	die "bench/$v/ does not apply to the series ($(git -C "$KSRC" rev-parse --short series)); rebase it in $t"
fi
echo "$state" > "$t.made-from"
echo "$t"
