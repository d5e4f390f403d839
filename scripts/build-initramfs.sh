#!/usr/bin/env bash
# Pack the guest's initramfs for one built variant: Debian's busybox-static
# (arm64), guest/ (init and checks) and the test modules of that build.
# Written to build/out/VARIANT/initramfs.cpio.gz with the tree's own
# usr/gen_initramfs.sh.
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: build-initramfs.sh VARIANT}
out=$BUILD/out/$variant
[ -f "$out/usr/gen_init_cpio" ] || die "$variant is not built; run build-kernel.sh first"

bb=$CACHE_DIR/busybox-arm64
if [ ! -x "$bb/usr/bin/busybox" ]; then
	rm -rf "$bb.new"
	dpkg-deb -x "$("$top/scripts/debian-fetch.sh" busybox-static:arm64)" "$bb.new"
	mv "$bb.new" "$bb"
fi

root=$out/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules}
cp "$bb/usr/bin/busybox" "$root/bin/"
cp -r "$top/guest/init" "$top/guest/checks" "$root/"
find "$out" -path "$root" -prune -o -name '*.ko' -print |
	while read -r ko; do cp "$ko" "$root/lib/modules/"; done

# The console node must exist before /init runs (devtmpfs comes later).
printf 'nod /dev/console 0600 0 0 c 5 1\n' > "$out/initramfs.extra"
(cd "$out" && "$KSRC/usr/gen_initramfs.sh" -o initramfs.cpio -u 0 -g 0 "$root" initramfs.extra)
gzip -f -n "$out/initramfs.cpio"
