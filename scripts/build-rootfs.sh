#!/usr/bin/env bash
# The root filesystem of make bench's kernel build (guest/checks/kbuild): a
# Debian arm64 system unpacked from Debian's packages (gcc, make, flex,
# bison, bc and the tools Kbuild calls, with their dependency closures), and
# the base's source tree in /usr/src/linux, as an ext4 image the guest
# mounts read-only and chroots into (it builds into its own memory).
# The packages are unpacked, not installed: their maintainer scripts do not
# run, so the few links those would make (awk, sh) are made here.
# Written to build/rootfs/kbuild.img, its package list beside it; built
# again only when the package list, the base or this script changes.
#
# usage: build-rootfs.sh   (prints the image's path)
set -euo pipefail
. "$(dirname "$0")/common.sh"

# What a kernel build runs: the compiler and make; Kconfig's flex and
# bison; the shells and text tools of Kbuild's scripts; cmp (diffutils) of
# filechk.  Essential packages too: apt does not pull them in for an
# empty system.
packages="gcc make flex bison bc libc6-dev bash dash coreutils sed grep gawk findutils diffutils"
dir=$BUILD/rootfs
img=$dir/kbuild.img
command -v mke2fs > /dev/null || die "no mke2fs (e2fsprogs) to write the kernel build's image"
base=$(git -C "$KSRC" rev-parse "$BASE_TAG^{commit}") ||
	die "no base tag $BASE_TAG in $KSRC (run make-tree.sh)"
id="$packages $base $(sha256sum < "$0" | cut -c 1-16)"
if [ -f "$img" ] && [ "$(cat "$img.id" 2> /dev/null)" = "$id" ]; then
	echo "$img"
	exit 0
fi

root=$dir/root
rm -rf "$root" "$img" "$img.id"
mkdir -p "$root"
# (2.2 GB: not left behind by a failure)
trap 'rm -rf "$root"' EXIT
debs=$(for p in $packages; do
	"$top/scripts/debian-fetch.sh" --deps "$p:arm64" ||
		die "cannot fetch $p:arm64 and its dependencies from Debian"
done | sort -u)
for deb in $debs; do
	dpkg-deb -x "$deb" "$root" || die "cannot unpack $deb"
done
# Debian's merged /usr (base-files makes the links, the packages are
# moving their files to /usr): whatever a package put in /bin, /sbin or
# /lib joins /usr, and the links stand in for them.
for d in bin sbin lib; do
	mkdir -p "$root/usr/$d"
	if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
		cp -a "$root/$d/." "$root/usr/$d/"
		rm -rf "${root:?}/$d"
	fi
	ln -sfn "usr/$d" "$root/$d"
done
# The alternatives and links the maintainer scripts would have made
[ -e "$root/usr/bin/awk" ] || ln -s gawk "$root/usr/bin/awk"
[ -e "$root/usr/bin/sh" ] || ln -s dash "$root/usr/bin/sh"
[ -e "$root/usr/bin/cc" ] || ln -s gcc "$root/usr/bin/cc"
mkdir -p "$root"/{dev,proc,sys,tmp,etc}
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
git -C "$KSRC" archive --prefix=usr/src/linux/ "$base" | tar -C "$root" -xf - ||
	die "cannot write the base's tree into $root"
for deb in $debs; do basename "$deb" .deb; done > "$root/packages"
# Every file as old as can be: the guest's clock may start at 1970 (no
# RTC), and a source newer than the clock makes make rebuild its
# included makefiles, and so restart, forever.
find "$root" -exec touch -h -d @0 {} +
cp "$root/packages" "$img.packages"

# Room for the files' bytes and a block more each (the host's own
# filesystem may compress, so not its du); the guest writes nothing to it.
mb=$(du -sm --apparent-size "$root" | cut -f 1)
files=$(find "$root" | wc -l)
mke2fs -q -t ext4 -L kbuild -m 0 -d "$root" "$img" "$((mb + files * 4 / 1024 + 64))M" ||
	die "mke2fs could not write $img"
rm -rf "$root"
echo "$id" > "$img.id"
note "kernel build image: $img, $(wc -l < "$img.packages") packages, $(du -sh --apparent-size "$img" | cut -f 1)"
echo "$img"
