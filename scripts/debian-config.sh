#!/usr/bin/env bash
# Print the path of the .config of Debian's own arm64 kernel of the base
# version, flavor FLAVOR: the one in its linux-headers package (Debian
# unstable or experimental, through debian-fetch.sh), cached next to the .deb, so that a
# second run needs no network.
#
# usage: debian-config.sh FLAVOR   (arm64, arm64-16k, rt-arm64, ...)
set -euo pipefail
. "$(dirname "$0")/common.sh"

flavor=${1:?usage: debian-config.sh FLAVOR}
# Debian's kernel ABI name of the base (bases/$BASE.conf)
kabi=${DEBIAN_KABI:-$BASE_KABI}
pkg=linux-headers-$kabi-$flavor
deb=$CACHE_DIR/debs/${pkg}_${BASE_VERSION}_arm64.deb
config=${deb%.deb}.config
trap 'rm -f "$config.part"' EXIT

if [ ! -s "$config" ]; then
	if [ ! -f "$deb" ]; then
		note "fetching $pkg $BASE_VERSION from Debian $BASE_SUITE"
		"$top/scripts/debian-fetch.sh" "$pkg:arm64=$BASE_VERSION" > /dev/null ||
			die "cannot fetch $pkg $BASE_VERSION (arm64): see the error above"
		[ -f "$deb" ] || die "debian-fetch.sh did not leave $deb"
	fi
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-headers-*/.config' > "$config.part" ||
		die "no usr/src/linux-headers-*/.config in $deb"
	[ -s "$config.part" ] || die "no usr/src/linux-headers-*/.config in $deb"
	mv "$config.part" "$config"
fi
echo "$config"
