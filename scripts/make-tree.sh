#!/usr/bin/env bash
# Build the kernel work tree: the base as one tagged commit, then one commit
# per patch of patches/series, applied with git am.  patches/ holds a stack
# of series, each a directory with its cover letter (the core, then the
# follow-ups on top of it); branch series is the top, and a branch named
# after each directory marks where that series ends, its description the
# cover letter.  The tree records the
# patches/ state it was made from and the commit that made, so that a run
# can tell which side moved:
#   neither        nothing is touched (no new mtimes, so no rebuild);
#   patches/ only  (a git pull) the series is applied again;
#   the tree only  (unexported commits or edits) it refuses;
#   both           it names the conflict.
# FORCE=1 applies patches/ whatever the tree holds.  The series is applied
# in a worktree of its own (KSRC-apply) and the tree then checks out the
# result, so that only the files whose content changed get new mtimes: a
# reworded commit message or cover letter rebuilds nothing.
set -euo pipefail
. "$(dirname "$0")/common.sh"

create_base() {
	local tarball tmp
	tarball=$("$top/scripts/fetch-base.sh")
	tmp=$KSRC.new
	rm -rf "$tmp"
	mkdir -p "$tmp"
	note "unpacking $tarball"
	tar -x -f "$tarball" -C "$tmp" --strip-components=1
	# Debian appends "/*" to .gitignore (everything at the top level is
	# ignored); drop that block so new files show up in git status.
	sed -i '/^# Debian packaging:/,/^!\/debian\/$/d' "$tmp/.gitignore"
	sed -i -e '${/^#$/d}' "$tmp/.gitignore"
	git -C "$tmp" init -q -b series
	# No background gc: its daemon inherits the lock below (fd 9) and holds
	# every other make-tree.sh caller for minutes.
	git -C "$tmp" config gc.auto 0
	# Force: the tarball holds files its own ignore rules match (dot files,
	# every .gitignore) that upstream tracks.
	git -C "$tmp" add -f -A
	# A fixed identity and date make the base commit id the same everywhere,
	# so the exported cover letter's base-commit line is reproducible.
	GIT_AUTHOR_NAME="Debian kernel team" GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
	GIT_COMMITTER_NAME="Debian kernel team" GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git -C "$tmp" commit -q -m "$BASE_TITLE (Debian $BASE_PKG $BASE_VERSION)" \
			-m "$BASE_SRC_TARBALL, sha256 $BASE_SHA256, without the Debian-only .gitignore lines that ignore the whole top level."
	git -C "$tmp" tag "$BASE_TAG"
	mv "$tmp" "$KSRC"
}

# On another base than the default, a patch of bases/$BASE/ (same path as
# in patches/, core/v5-0006-... say) takes the place of patches/'s: its
# conflicts resolved there.
base_patches=$top/bases/$BASE

# A patch there that patches/series does not name (renamed by a reworded
# subject, say) would be left out without a word, and one whose original
# changed since (resolved-from, export-base.sh) would drop that change.
if [ -d "$base_patches" ]; then
	[ -f "$PATCHES/series" ] || die "no patches/series: bases/$BASE/ resolves patches of it"
	for p in $(cd "$base_patches" && find . -name '*.patch' | sed 's|^\./||' | LC_ALL=C sort); do
		sed 's/^[[:space:]]*//;s/[[:space:]]*$//' "$PATCHES/series" | grep -qxF "$p" ||
			die "bases/$BASE/$p is no patch of patches/series: give it the path of the patch it resolves"
		was=$(awk -v p="$p" '$2 == p { print $1 }' "$base_patches/resolved-from" 2> /dev/null)
		[ "$was" = "$("$top/scripts/patch-sum.sh" "$PATCHES/$p")" ] ||
			die "patches/$p changed since bases/$BASE/$p was resolved from it (bases/$BASE/resolved-from): resolve it again in build/base-$BASE/linux and run BASE=$BASE scripts/export-base.sh"
	done
fi

# The state of patches/: every file the series is made from (the
# directories patches/series names: patches/alt-resume/ goes elsewhere).
patches_state() {
	{ (export LC_ALL=C; cd "$PATCHES" &&
	   sha256sum series $(sed -n 's|^[[:space:]]*\([^#/[:space:]][^/]*\)/.*|\1/*.patch|p' series | sort -u))
	  if [ -d "$base_patches" ]; then
		(cd "$base_patches" && find . -name '*.patch' | LC_ALL=C sort | xargs -r sha256sum)
	  fi; } | sha256sum | cut -d' ' -f1
}

# The state of the tree: its branch's commit, the series' branches and
# their descriptions (the cover letters), "dirty" with edits.
tree_state() {
	if [ -n "$(git -C "$KSRC" status --porcelain)" ] || [ -d "$KSRC/.git/rebase-apply" ] ||
	   [ "$(git -C "$KSRC" symbolic-ref -q --short HEAD)" != series ]; then
		echo dirty
	else
		echo "$(git -C "$KSRC" rev-parse HEAD)-$(stack_state)"
	fi
}

stack_state() {
	{ git -C "$KSRC" config --get-regexp '^(series\.stack|branch\..*\.(description|reroll))$' || true
	  for b in $(git -C "$KSRC" config series.stack || true); do
		git -C "$KSRC" rev-parse -q --verify "refs/heads/$b" || echo "no $b"
	  done; } | sha256sum | cut -c1-16
}

# One run at a time: make check, mutants, bisect and bench all call this.
mkdir -p "$BUILD"
exec 9> "$BUILD/make-tree.lock"
flock 9

record=$KSRC/.git/series-made-from
fresh=
[ -e "$KSRC/.git" ] || { create_base; fresh=1; }
git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null ||
	die "$KSRC has no tag $BASE_TAG; move it away and run again"

if [ -z "${FORCE:-}$fresh" ]; then
	read -r made_patches made_tree 2>/dev/null < "$record" || made_patches=none made_tree=none
	now_patches=$(patches_state)
	now_tree=$(tree_state)
	if [ "$made_tree" = applying ]; then
		# A run stopped while applying: the tree is this script's own.
		note "a previous run did not finish applying the series: applying it again"
	elif [ "$now_tree" != dirty ] && [ "$now_patches" = "$made_patches" ] &&
	     [ "$now_tree" = "$made_tree" ]; then
		note "$KSRC matches patches/; nothing to do"
		exit 0
	elif [ "$now_tree" = dirty ] || [ "$now_tree" != "$made_tree" ]; then
		# The tree moved (or the record is missing): fine if its export is
		# patches/ as it is now, e.g. after 'make export'.
		if "$top/scripts/series-check.sh" >/dev/null 2>&1; then
			echo "$now_patches $now_tree" > "$record"
			note "$KSRC matches patches/; nothing to do"
			exit 0
		fi
		[ "$made_tree" != none ] ||
			die "the work tree differs from patches/ and has no record of the patches/ it was made from, so which is newer is unknown: keep the tree's work with 'make export' (it overwrites patches/) or patches/ with FORCE=1 (it drops the tree's)"
		[ "$now_patches" != "$made_patches" ] ||
			die "the work tree holds work that is not exported (make series-check shows it); run 'make export' first (or FORCE=1 to drop it)"
		die "conflict: both patches/ and the work tree changed since the tree was made from patches/; keep the tree's work with 'make export' (it overwrites patches/) or patches/ with FORCE=1 (it drops the tree's)"
	else
		note "patches/ changed: applying the series again"
	fi
fi
# Until the last patch is in, the tree is this script's: a run that stops
# (a patch that does not apply, a Ctrl-C) is applied again next time,
# never taken for work to export.
echo "$(patches_state) applying" > "$record"

apply=$KSRC-apply
# A worktree of this tree, not of one that was moved away and made again
if [ "$(git -C "$apply" rev-parse --path-format=absolute --git-common-dir 2> /dev/null)" != \
     "$(git -C "$KSRC" rev-parse --path-format=absolute --git-common-dir)" ]; then
	rm -rf "$apply"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$apply" "$BASE_TAG"
fi
cd "$apply"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f --detach "$BASE_TAG"

# Each series' cover letter (subject and text) becomes the description of
# the branch that ends it, and its reroll (vN) a setting of that branch;
# export turns them back into the cover letters.
end_series() {
	local cover
	cover=$(ls "$PATCHES/$1"/*0000-cover-letter.patch 2>/dev/null | head -n 1)
	[ -n "$cover" ] || die "patches/$1 has no cover letter"
	git branch -f "$1" HEAD
	"$top/scripts/cover-description.sh" "$cover" |
		git config --file "$KSRC/.git/config" "branch.$1.description" "$(cat)"
	case $(basename "$cover") in
	v[0-9]*-*) git config --file "$KSRC/.git/config" "branch.$1.reroll" "$(basename "$cover" | sed 's/^v\([0-9]*\)-.*/\1/')" ;;
	*) git config --file "$KSRC/.git/config" --unset-all "branch.$1.reroll" || true ;;
	esac
}

n=0
stack=
current=
if [ -f "$PATCHES/series" ]; then
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		case $p in
		*/*) ;;
		*) die "patches/series names $p, which is in no series directory (patches/core/, ...)" ;;
		esac
		if [ "${p%/*}" != "$current" ]; then
			[ -z "$current" ] || end_series "$current"
			current=${p%/*}
			case " $stack " in *" $current "*) die "patches/series lists $current/ in two places" ;; esac
			stack="${stack:+$stack }$current"
		fi
		f=$PATCHES/$p
		[ ! -f "$base_patches/$p" ] || f=$base_patches/$p
		# A fixed committer (the date is the author's) makes the commit ids
		# the same on every machine.
		if ! GIT_COMMITTER_NAME="arm64 percpu series" GIT_COMMITTER_EMAIL=series@invalid \
		     git am -q --committer-date-is-author-date "$f"; then
			git am --abort
			die "patch $p does not apply to $(git log -1 --format='%h %s')"
		fi
		n=$((n + 1))
	done < "$PATCHES/series"
	[ -z "$current" ] || end_series "$current"
fi
git config --file "$KSRC/.git/config" series.stack "$stack"
applied=$(git rev-parse HEAD)
cd "$KSRC"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B series "$applied"
state=$(tree_state)
[ "$state" != dirty ] ||
	die "$KSRC is not clean after applying the series (untracked files?): $(git status --short | head -n 3 | tr '\n' ' ')"
echo "$(patches_state) $state" > "$record"
note "$KSRC: $BASE_TAG + $n patches on branch series ($stack)"
