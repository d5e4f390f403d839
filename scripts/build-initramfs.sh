#!/usr/bin/env bash
# Pack the guest's initramfs for one built variant: Debian's busybox-static
# (arm64), guest/ (init and checks) and the test modules of that build.
# Written to build/out/VARIANT/initramfs.cpio.gz with the tree's own
# usr/gen_initramfs.sh.
#
# --bench adds make bench's workloads: Debian's stress-ng, and tcc, make
# and the libc headers with the C project that guest/checks/build
# compiles.  The boot tests' initramfs does without them (about 50 MB).
# --perf adds Debian's perf (linux-perf) for make bench's hardware path.
# --kvm-host writes initramfs-kvm-host.cpio.gz beside the plain one: the
# same with Debian's QEMU and, under /l2, the variant's kernel and its
# plain initramfs, for a KVM guest of the guest (guest/checks/kvm_guest).
#
# usage: build-initramfs.sh VARIANT [--bench] [--perf] [--kvm-host]
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: build-initramfs.sh VARIANT [--bench] [--perf]}
shift
bench= perf= kvm_host=
for arg; do
	case $arg in
	--bench) bench=1 ;;
	--perf) perf=1 ;;
	--kvm-host) kvm_host=1 ;;
	*) die "usage: build-initramfs.sh VARIANT [--bench] [--perf] [--kvm-host]" ;;
	esac
done
out=$BUILD/out/$variant
[ -f "$out/usr/gen_init_cpio" ] || die "$variant is not built; run build-kernel.sh first"

bb=$CACHE_DIR/busybox-arm64
if [ ! -x "$bb/usr/bin/busybox" ]; then
	rm -rf "$bb.new"
	deb=$("$top/scripts/debian-fetch.sh" busybox-static:arm64)
	dpkg-deb -x "$deb" "$bb.new"
	basename "$deb" .deb > "$bb.new/.deb"
	mv "$bb.new" "$bb"
fi

root=$out/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules}
cp "$bb/usr/bin/busybox" "$root/bin/"
# /packages: the Debian packages in the guest, PACKAGE_VERSION_ARCH a line
# (make bench's report quotes it)
cat "$bb/.deb" > "$root/packages" 2>/dev/null || echo "busybox-static (cached before its version was kept)" > "$root/packages"
cp -r "$top/guest/init" "$top/guest/checks" "$root/"
# The results channel's helpers (ours, and the kernel's own KTAP printer)
# and the bench checks' (guest/bench.sh)
mkdir -p "$root/lib"
cp "$top/guest/ktap.sh" "$top/guest/bench.sh" \
	"$KSRC/tools/testing/selftests/kselftest/ktap_helpers.sh" "$root/lib/"
# guest/checks/kexec's loader (busybox has no kexec), bpf_percpu's program
# (no libbpf in the guest), kvm's VMM and loops' program.
for prog in kexec-file bpf-percpu kvm-vcpus bench-loops; do
	${CROSS_COMPILE}gcc -static -Os -Wall -o "$root/bin/$prog" "$top/guest/$prog.c" ||
		die "cannot build guest/$prog.c (libc6-dev-arm64-cross)"
done
# The modules this build made (modules.order), not every .ko in $out: an
# older build's, of a test the series no longer builds as a module, would
# fail to load.  The reference modules and make bench's are built apart,
# in refcode/ and bench/.
sed -n 's/\.o$/.ko/p' "$out/modules.order" |
	while read -r ko; do cp "$out/$ko" "$root/lib/modules/"; done
cp "$out"/refcode/*.ko "$out"/bench/*.ko "$root/lib/modules/" 2> /dev/null || true

if [ -n "$bench" ]; then
	"$top/scripts/initramfs-programs.sh" "$root" \
		stress-ng tcc make libc6-dev linux-libc-dev
	# guest/checks/build's project: kconfig's conf and three standalone
	# host programs of the kernel tree; the lexer and parser that this
	# build generated stand in for flex and bison.
	src=$root/usr/src/hostprogs
	mkdir -p "$src/kconfig" "$src/include"
	cp "$top/guest/hostprogs/Makefile" "$KSRC/scripts/basic/fixdep.c" \
		"$KSRC/scripts/kallsyms.c" "$KSRC/usr/gen_init_cpio.c" "$src/"
	cp "$KSRC"/scripts/include/*.h "$src/include/"
	cp "$KSRC"/scripts/kconfig/*.h "$src/kconfig/"
	for f in conf confdata expr menu preprocess symbol util; do
		cp "$KSRC/scripts/kconfig/$f.c" "$src/kconfig/"
	done
	cp "$out"/scripts/kconfig/{lexer.lex.c,parser.tab.c,parser.tab.h} "$src/kconfig/" ||
		die "$variant: no generated kconfig lexer and parser in $out"
fi

[ -z "$perf" ] || "$top/scripts/initramfs-programs.sh" "$root" linux-perf

# The console node must exist before /init runs (devtmpfs comes later).
printf 'nod /dev/console 0600 0 0 c 5 1\n' > "$out/initramfs.extra"
(cd "$out" && "$KSRC/usr/gen_initramfs.sh" -o initramfs.cpio -u 0 -g 0 "$root" initramfs.extra)
gzip -f -n "$out/initramfs.cpio"

if [ -n "$kvm_host" ]; then
	host_root=$out/initramfs-kvm-host
	rm -rf "$host_root"
	cp -a "$root" "$host_root"
	"$top/scripts/initramfs-programs.sh" "$host_root" qemu-system-arm
	# (the 32-bit emulator, 34 MB, is not needed)
	rm -f "$host_root"/usr/bin/qemu-system-arm{,el,hf}
	mkdir -p "$host_root/l2"
	cp "$out/arch/arm64/boot/Image" "$out/initramfs.cpio.gz" "$host_root/l2/"
	(cd "$out" && "$KSRC/usr/gen_initramfs.sh" -o initramfs-kvm-host.cpio -u 0 -g 0 \
		"$host_root" initramfs.extra)
	gzip -f -n "$out/initramfs-kvm-host.cpio"
fi
