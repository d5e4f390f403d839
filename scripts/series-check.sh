#!/usr/bin/env bash
# Fail, and say why, when the kernel work tree holds commits or edits that
# are not in patches/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -e "$KSRC/.git" ] || exit 0
cd "$KSRC"
[ ! -d .git/rebase-apply ] && [ ! -d .git/rebase-merge ] ||
	die "$KSRC: a git am or rebase is in progress"
[ "$(git symbolic-ref -q --short HEAD)" = series ] ||
	die "$KSRC: not on branch 'series' (the export only reads that branch)"
if [ -n "$(git status --porcelain)" ]; then
	git status --short | head -n 20 >&2
	die "$KSRC has uncommitted edits: commit them, then 'make export'"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/scripts/export-series.sh" "$tmp"
mkdir -p "$tmp/old"
cp "$PATCHES/series" "$tmp/old/" 2>/dev/null || touch "$tmp/old/series"
# The stack's directories only: patches/alt-resume/ is a series of its own
for d in $(sed -n 's|^[[:space:]]*\([^#/[:space:]][^/]*\)/.*|'"$PATCHES"'/\1/|p' "$PATCHES/series" | sort -u); do
	[ -d "$d" ] || continue
	mkdir -p "$tmp/old/$(basename "$d")"
	cp "$d"*.patch "$tmp/old/$(basename "$d")/" 2>/dev/null || true
done
if ! diff -r -q -x old "$tmp/old" "$tmp" >&2; then
	die "commits in $KSRC differ from patches/: run 'make export'"
fi
