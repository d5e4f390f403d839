#!/usr/bin/env bash
# Build bench/tlbi-count.c, the QEMU plugin that counts the guest's TLB
# invalidations, into build/tools/tlbi-count.so, and print its path.
# Debian ships QEMU with plugins enabled but not qemu-plugin.h: the header
# comes from the same QEMU's source in Debian's archive (the orig tarball,
# checked against the SHA256 in qemu_7.2+dfsg-7+deb12u18.dsc), which must
# match the qemu-system-arm installed (7.2).
set -euo pipefail
. "$(dirname "$0")/common.sh"

tarball=qemu_7.2+dfsg.orig.tar.xz
sha256=91aca71520040edc40b8d437aa3004dae614f58e286cf653ee8996c07af2962f
url=${QEMU_SOURCE_URL:-$(debian_mirror)/pool/main/q/qemu/qemu_7.2%2Bdfsg.orig.tar.xz}
out=$BUILD/tools/tlbi-count.so
src=$CACHE_DIR/qemu

case $(qemu-system-aarch64 --version | head -n 1) in
*"version 7.2"*) ;;
*) die "the plugin is built for QEMU 7.2's plugin API: $(qemu-system-aarch64 --version | head -n 1)" ;;
esac
if [ ! -f "$src/qemu-7.2.0/include/qemu/qemu-plugin.h" ]; then
	mkdir -p "$src"
	if [ ! -f "$src/$tarball" ]; then
		curl -fsS -o "$src/$tarball.part" "$url" || die "cannot download $url (network?)"
		mv "$src/$tarball.part" "$src/$tarball"
	fi
	echo "$sha256  $src/$tarball" | sha256sum -c --quiet - ||
		die "$src/$tarball: wrong SHA256 (expected $sha256); delete it to download again"
	tar -C "$src" -xJf "$src/$tarball" qemu-7.2.0/include/qemu/qemu-plugin.h
fi
mkdir -p "$(dirname "$out")"
if [ ! -f "$out" ] || [ "$top/bench/tlbi-count.c" -nt "$out" ]; then
	gcc -shared -fPIC -O2 -Wall -I"$src/qemu-7.2.0/include/qemu" \
		-o "$out" "$top/bench/tlbi-count.c" || die "cannot build bench/tlbi-count.c"
fi
echo "$out"
