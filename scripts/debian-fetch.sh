#!/usr/bin/env bash
# Download one Debian binary package from Debian unstable into the cache and
# print the path of the .deb.  Uses a private apt configuration under the
# cache directory so the machine's own apt sources are never touched.
#
# usage: debian-fetch.sh PACKAGE[:ARCH][=VERSION]
set -euo pipefail
. "$(dirname "$0")/common.sh"

spec=${1:?usage: debian-fetch.sh PACKAGE[:ARCH][=VERSION]}
apt_dir=$CACHE_DIR/apt
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

mkdir -p "$apt_dir"/{lists/partial,archives/partial,etc} "$CACHE_DIR/debs"
cat > "$apt_dir/etc/sources.list" <<EOS
deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror unstable main
EOS
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

# Refresh the index at most once a day.
stamp=$apt_dir/lists/.updated
if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
	apt-get "${apt_opts[@]}" -q update >&2 ||
		die "cannot read Debian's unstable index from $mirror (no network?)"
	touch "$stamp"
fi

cd "$CACHE_DIR/debs"
if ! apt-get "${apt_opts[@]}" -q download "$spec" >&2; then
	die "Debian unstable no longer offers $spec; fetch it by hand (snapshot.debian.org) and put it in $CACHE_DIR/debs"
fi
name=${spec%%=*}
name=${name%%:*}
ls -t "$CACHE_DIR/debs/${name}_"*.deb | head -n 1
