#!/usr/bin/env bash
# The kernel tree of one series of the stack with the series below it, at
# the end of that series (its branch in the work tree, as make-tree.sh
# made it), in a worktree of its own (build/SERIES-tree), so that the core
# is built and booted alone as it is posted first.  Prints the tree's path.
#
# usage: series-tree.sh SERIES   (core, or any other name of series.stack)
set -euo pipefail
. "$(dirname "$0")/common.sh"

s=${1:?usage: series-tree.sh SERIES}
t=$BUILD/$s-tree
commit=$(git -C "$KSRC" rev-parse -q --verify "refs/heads/$s") ||
	die "no branch $s in $KSRC (series.stack: $(git -C "$KSRC" config series.stack || true)); run make tree"
[ -d "$t" ] || git -C "$KSRC" worktree add -q --detach "$t" "$commit" >&2 ||
	die "cannot make the worktree $t"
# Only files whose content differs get new mtimes: no needless rebuild
[ "$(git -C "$t" rev-parse HEAD)" = "$commit" ] && [ -z "$(git -C "$t" status --porcelain)" ] ||
	git -C "$t" checkout -q -f --detach "$commit"
echo "$t"
