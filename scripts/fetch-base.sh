#!/usr/bin/env bash
# Find the base tarball (bases/$BASE.conf: by default Linux 7.2.13 from
# Debian's linux-source-7.2 7.2.13-1), verify it, and print its path.  Looked up in this order: $LINUX_TARBALL,
# the cache directory, a download of the Debian package.
set -euo pipefail
. "$(dirname "$0")/common.sh"

verify() {
	local sum
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$sum" = "$BASE_SHA256" ] && return 0
	cat >&2 <<EOM
error: checksum mismatch for $1
  expected $BASE_SHA256
  got      $sum
This is not $BASE_SRC_TARBALL from Debian's $BASE_PKG $BASE_VERSION.
Point LINUX_TARBALL at the right file, or delete this one to download it again.
EOM
	exit 1
}

cached=$CACHE_DIR/$BASE_TARBALL_NAME

if [ -n "${LINUX_TARBALL:-}" ]; then
	[ -f "$LINUX_TARBALL" ] || die "LINUX_TARBALL=$LINUX_TARBALL: no such file"
	verify "$LINUX_TARBALL"
	echo "$LINUX_TARBALL"
	exit 0
fi

if [ -f "$cached" ]; then
	verify "$cached"
	echo "$cached"
	exit 0
fi

note "downloading $BASE_PKG=$BASE_VERSION from Debian $BASE_SUITE"
deb=$("$(dirname "$0")/debian-fetch.sh" "$BASE_PKG=$BASE_VERSION") || cat >&2 <<EOM
Debian no longer has $BASE_PKG $BASE_VERSION.  Get $BASE_SRC_TARBALL
(sha256 $BASE_SHA256) from that package and run with LINUX_TARBALL=/path/to/it.
EOM
[ -n "$deb" ] || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards "*/$BASE_SRC_TARBALL"
mkdir -p "$CACHE_DIR"
mv "$tmp/usr/src/$BASE_SRC_TARBALL" "$cached.part"
verify "$cached.part"
mv "$cached.part" "$cached"
rm -f "$deb"
echo "$cached"
