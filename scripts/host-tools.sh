#!/usr/bin/env bash
# Install the host tools the workbench needs from the machine's own Debian
# archive, when missing.  Without root, print what to install instead.
# On an amd64 host the kernel and the guest's programs are cross-built; on
# an arm64 host Debian's native gcc and binutils answer to the same
# aarch64-linux-gnu- names, so the same scripts build natively.
#
# usage: host-tools.sh [--print]   (--print: list the packages this host
#        needs, installed or not; HOST_ARCH overrides dpkg's answer)
set -euo pipefail

arch=${HOST_ARCH:-$(dpkg --print-architecture)}
case $arch in
amd64)	toolchain=(aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu
		   aarch64-linux-gnu-objdump:binutils-aarch64-linux-gnu)
	libc=/usr/aarch64-linux-gnu/lib/libc.a:libc6-dev-arm64-cross ;;
arm64)	toolchain=(aarch64-linux-gnu-gcc:gcc aarch64-linux-gnu-objdump:binutils)
	libc=/usr/lib/aarch64-linux-gnu/libc.a:libc6-dev ;;
*)	echo "error: the workbench runs on amd64 (cross) or arm64 (native) Debian, not $arch" >&2
	exit 1 ;;
esac

# command:package
need=(
	"${toolchain[@]}"
	qemu-system-aarch64:qemu-system-arm
	ccache:ccache
	flex:flex
	bison:bison
	bc:bc
	cpio:cpio
	xz:xz-utils
	perl:perl
	python3:python3
	git:git
	make:make
	gcc:gcc
	dpkg-deb:dpkg
	mke2fs:e2fsprogs
	apt-get:apt
	timeout:coreutils
	b4:b4
	dtc:device-tree-compiler
)
# A clang build (LLVM=-19 make check: Debian 12's clang-19; LLVM=1: the
# unversioned names) needs its compiler, linker and binutils.
if [ -n "${LLVM:-}" ]; then
	llvm=${LLVM#1}
	need+=("clang$llvm:clang$llvm" "ld.lld$llvm:lld$llvm" "llvm-objcopy$llvm:llvm$llvm")
fi
# headers: package
headers=(/usr/include/openssl/ssl.h:libssl-dev /usr/include/gelf.h:libelf-dev "$libc")
# What the packages above only recommend: the C library's headers for the
# kernel's host programs (gcc), and the option ROM of the default NIC that
# QEMU's virt machine loads at start (qemu-system-arm).
headers+=(/usr/include/stdio.h:libc6-dev /usr/lib/ipxe/qemu/efi-virtio.rom:ipxe-qemu)
if [ "${1:-}" = --print ]; then
	printf '%s\n' "${need[@]##*:}" "${headers[@]##*:}" python3-ply python3-git python3-matplotlib
	exit 0
fi

missing=()
for n in "${need[@]}"; do
	command -v "${n%%:*}" >/dev/null || missing+=("${n##*:}")
done
for h in "${headers[@]}"; do
	[ -e "${h%%:*}" ] || missing+=("${h##*:}")
done
# checkpatch.pl runs scripts/spdxcheck.py, which needs these two.
/usr/bin/python3 -c 'import ply' 2>/dev/null || missing+=(python3-ply)
/usr/bin/python3 -c 'import git' 2>/dev/null || missing+=(python3-git)
# make bench draws its charts with matplotlib.
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || missing+=(python3-matplotlib)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "error: missing host packages; as root run:" >&2
	echo "  apt-get install ${missing[*]}" >&2
	exit 1
fi
echo ">>> installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Recommends would bring GUI, audio and GStreamer libraries that neither
# qemu-system-arm nor matplotlib needs here (docs/times.md: the count).
install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
"${install[@]}" >&2 || { apt-get update -q >&2 && "${install[@]}" >&2; }
