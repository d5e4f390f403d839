#!/usr/bin/env bash
# Build the kernel work tree: the base as one tagged commit, then one commit
# per patch of patches/series, applied with git am.  An existing tree is
# reused; it is only reset when it holds nothing that is not exported.
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
	# Force: the tarball holds files its own ignore rules match (dot files,
	# every .gitignore) that upstream tracks.
	git -C "$tmp" add -f -A
	# A fixed identity and date make the base commit id the same everywhere,
	# so the exported cover letter's base-commit line is reproducible.
	GIT_AUTHOR_NAME="Debian kernel team" GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
	GIT_COMMITTER_NAME="Debian kernel team" GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git -C "$tmp" commit -q -m "Linux 7.2.13 (Debian linux-source-7.2 $BASE_VERSION)" \
			-m "linux-source-7.2.tar.xz, sha256 $BASE_SHA256, without the Debian-only .gitignore lines that ignore the whole top level."
	git -C "$tmp" tag "$BASE_TAG"
	mv "$tmp" "$KSRC"
}

if [ ! -e "$KSRC/.git" ]; then
	create_base
elif [ -z "${FORCE:-}" ] && ! "$top/scripts/series-check.sh" >&2; then
	die "the work tree holds work that is not exported; run 'make export' first (or FORCE=1 to drop it)"
fi

cd "$KSRC"
git rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null ||
	die "$KSRC has no tag $BASE_TAG; move it away and run again"
[ -z "$(git status --porcelain)" ] || [ -n "${FORCE:-}" ] ||
	die "$KSRC has uncommitted changes"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B series "$BASE_TAG"

# The cover letter's subject and text become the branch description, which
# export turns back into the cover letter.
"$top/scripts/cover-description.sh" "$(ls "$PATCHES"/*0000-cover-letter.patch | head -n 1)" |
	git config --file .git/config branch.series.description "$(cat)"

n=0
if [ -f "$PATCHES/series" ]; then
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		if ! git am -q --committer-date-is-author-date "$PATCHES/$p"; then
			git am --abort
			die "patch $p does not apply to $(git log -1 --format='%h %s')"
		fi
		n=$((n + 1))
	done < "$PATCHES/series"
fi
note "$KSRC: $BASE_TAG + $n patches on branch series"
