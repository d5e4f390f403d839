#!/usr/bin/env bash
# The tree of the entry-fixup variant (make bench's third, and its check):
# the series, as make-tree.sh made it, with bench/entry-fixup/*.patch on
# top, in a worktree of its own.  Made again when either moves; prints the
# tree's path.
#
# usage: entry-fixup-tree.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

t=$BUILD/fixup-tree
patches=("$top"/bench/entry-fixup/*.patch)
[ -f "${patches[0]}" ] || die "no patches in bench/entry-fixup/"
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
	die "bench/entry-fixup/ does not apply to the series ($(git -C "$KSRC" rev-parse --short series)); rebase it in $t"
fi
echo "$state" > "$t.made-from"
echo "$t"
