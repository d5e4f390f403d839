#!/usr/bin/env bash
# Download one Debian binary package from Debian unstable (or experimental,
# which apt takes only for a version that is there alone) into the cache and
# print the path of the .deb.  Uses a private apt configuration under the
# cache directory so the machine's own apt sources are never touched.
#
# --deps: the package and its dependency closure (Depends, Pre-Depends; no
# Recommends), as apt would install them on an empty arm64 system, one .deb
# path a line (for a guest's program with its shared libraries).
#
# usage: debian-fetch.sh [--deps] PACKAGE[:ARCH][=VERSION]
set -euo pipefail
. "$(dirname "$0")/common.sh"

deps=
[ "${1:-}" = --deps ] && { deps=1; shift; }
spec=${1:?usage: debian-fetch.sh [--deps] PACKAGE[:ARCH][=VERSION]}
apt_dir=$CACHE_DIR/apt
mirror=$(debian_mirror)

mkdir -p "$apt_dir"/{lists/partial,archives/partial,etc} "$CACHE_DIR/debs"
sources="deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror unstable main
deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror experimental main"
stamp=$apt_dir/lists/.updated
# New sources (a suite added): the index must be read again, but an older
# one still serves offline
stale=
[ "$(cat "$apt_dir/etc/sources.list" 2>/dev/null)" = "$sources" ] || stale=1
echo "$sources" > "$apt_dir/etc/sources.list"
apt_opts=(
	-o Dir::Etc::SourceList="$apt_dir/etc/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$apt_dir/lists"
	-o Dir::State::status=/dev/null
	-o Dir::Cache="$apt_dir"
	-o APT::Architectures::=arm64
	-o Debug::NoLocking=1
	-o APT::Sandbox::User=root
)

# Refresh the index at most once a day.  Offline, an older index still
# serves the .debs already in the cache (apt-get download keeps them); with
# none, a failed update is the network's (apt only warns: --error-on=any).
if [ -n "$stale" ] || [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
	if apt-get "${apt_opts[@]}" -q update --error-on=any >&2; then
		touch "$stamp"
	elif [ -f "$stamp" ]; then
		note "cannot refresh Debian's index from $mirror (no network?): using the one of $(date -r "$stamp" +%F)"
	else
		die "cannot read Debian's index from $mirror (no network?)"
	fi
fi

cd "$CACHE_DIR/debs"
if [ -n "$deps" ]; then
	# The closure as apt resolves it with nothing installed (status is
	# /dev/null): 'URI' FILE SIZE HASH, one .deb a line.  arm64 as the
	# native architecture: a dependency of a Multi-Arch: foreign package
	# then resolves to arm64, not to the host's architecture.
	uris=$(apt-get "${apt_opts[@]}" -o APT::Architecture=arm64 -qq --print-uris \
		--no-install-recommends install "$spec" 2>&1) ||
		die "Debian unstable cannot install $spec with its dependencies:"$'\n'"$uris"
	files=$(awk '/^\x27/ { print $2 }' <<< "$uris")
	[ -n "$files" ] || die "apt printed no package for $spec: $uris"
	# apt-get download takes NAME:ARCH=VERSION; the file is
	# NAME_VERSION_ARCH.deb with the epoch's colon as %3a.
	want=()
	for f in $files; do
		[ -f "$f" ] && continue
		IFS=_ read -r name version arch <<< "${f%.deb}"
		want+=("$name:$arch=${version//%3a/:}")
	done
	if [ ${#want[@]} -gt 0 ]; then
		apt-get "${apt_opts[@]}" -q download "${want[@]}" >&2 ||
			die "cannot download the dependencies of $spec from $mirror: ${want[*]}"
	fi
	for f in $files; do
		[ -f "$f" ] || die "$f is not in $CACHE_DIR/debs after the download"
		echo "$CACHE_DIR/debs/$f"
	done
	exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! apt-get "${apt_opts[@]}" -q download "$spec" 2>&1 | tee "$log" >&2; then
	grep -qE 'Temporary failure resolving|Could not (resolve|connect)|Connection (failed|timed out|refused)|Network is unreachable' "$log" &&
		die "cannot download $spec from $mirror: network failure"
	die "Debian unstable no longer offers $spec; fetch it by hand (Debian's snapshot archive) and put it in $CACHE_DIR/debs"
fi
name=${spec%%=*}
name=${name%%:*}
ls -t "$CACHE_DIR/debs/${name}_"*.deb | head -n 1
