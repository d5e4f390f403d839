# Sourced by every host script: the project's paths and a few helpers.
# Each variable can be set from the environment (see docs/reference.md).

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The base the series applies to: bases/$BASE.conf (Debian's package, its
# tarball's checksum, the base tag).  Another base than the default builds
# apart, under build/base-$BASE: its own work tree, kernels and logs.
BASE=${BASE:-7.2.13}
[ -f "$top/bases/$BASE.conf" ] || {
	echo "error: BASE=$BASE: no bases/$BASE.conf (there are: $(cd "$top/bases" && ls -- *.conf | sed 's/\.conf$//' | paste -sd' '))" >&2
	exit 1
}
# shellcheck source=bases/7.2.13.conf
. "$top/bases/$BASE.conf"
if [ "$BASE" = 7.2.13 ]; then
	BUILD=${BUILD:-$top/build}
else
	BUILD=${BUILD:-$top/build/base-$BASE}
fi
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/arm64-percpu-lm}
KSRC=${KSRC:-$BUILD/linux}
PATCHES=${PATCHES:-$top/patches}
LOGS=${LOGS:-$BUILD/logs}

# The page-table geometry every kernel is built with: Debian's arm64 flavor
# (4K pages, 52-bit VA with LPA2, NR_CPUS 512), read from its linux-headers
# package (configure-kernel.sh, debian-geometry.sh).  -cpu max runs it with
# 5 levels, -cpu cortex-a57, without LPA2, with 4 (the top level folded).
GEOMETRY=${GEOMETRY:-debian-arm64}

export ARCH=arm64
export CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
# Never write .pyc files into the kernel work tree (kunit.py is run from it).
export PYTHONDONTWRITEBYTECODE=1

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo ">>> $*" >&2
}

# Kernel make with the project's cross compiler, through ccache when present;
# with LLVM set (LLVM=1, or LLVM=-19 for Debian's clang-19), with clang.
kmake() {
	local cc=${CROSS_COMPILE}gcc llvm=()
	if [ -n "${LLVM:-}" ]; then
		cc=clang${LLVM#1}
		llvm=(LLVM="$LLVM")
	fi
	command -v ccache >/dev/null && cc="ccache $cc"
	make -C "$KSRC" "${llvm[@]}" CC="$cc" -j"$(nproc)" "$@"
}

# t NAME CMD...: one test of a suite (make check, the slow tests),
# announced as it starts (a kernel build or a boot takes minutes), timed,
# its output in $test_logs/NAME.log, counted in the caller's passed and
# failed.
t() {
	local name=$1 log start
	shift
	log=$test_logs/$(echo "$name" | tr -c 'A-Za-z0-9._\n-' '_').log
	start=$SECONDS
	echo "RUN  $name"
	if "$@" > "$log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name ($((SECONDS - start)) s)"
	else
		failed=$((failed + 1))
		echo "FAIL $name ($((SECONDS - start)) s, log: $log)"
		grep -E '^error:' "$log" | sed 's/^/    /' || tail -n 5 "$log" | sed 's/^/    /'
		return 1
	fi
}

# debian_mirror: the Debian archive this machine's apt sources name (the
# first URI that ends in /debian: not the security archive, nor another
# vendor's), or DEBIAN_MIRROR: the workbench writes no mirror of its own.
debian_mirror() {
	local uri
	if [ -n "${DEBIAN_MIRROR:-}" ]; then
		echo "${DEBIAN_MIRROR%/}"
		return
	fi
	# A Debian archive's root ends in /debian; another vendor's source
	# (a .sources file sorted first) does not.
	uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit }' || true)
	[ -n "$uri" ] || uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { if ($i ~ /\/debian\/?$/) { print $i; exit } break } }' || true)
	[ -n "$uri" ] || die "no Debian archive in /etc/apt/sources.list{,.d}: set DEBIAN_MIRROR to one"
	echo "${uri%/}"
}

# default_accel: kvm on an arm64 host whose /dev/kvm (KVM_DEVICE) this
# user can open, else tcg (make bench's default; HOST_ARCH as in
# host-tools.sh).
default_accel() {
	if [ "${HOST_ARCH:-$(dpkg --print-architecture)}" = arm64 ] &&
	   [ -w "${KVM_DEVICE:-/dev/kvm}" ]; then
		echo kvm
	else
		echo tcg
	fi
}

# base_tree: the path of the base as a worktree of the work tree, at the
# base tag, made on first use (the static check, make bench's =n against
# base comparison and make distro compile it).
base_tree() {
	local t=$BUILD/linux-base
	[ -d "$t" ] || git -C "$KSRC" worktree add -q --detach "$t" "$BASE_TAG" ||
		die "cannot make the base worktree $t"
	echo "$t"
}

# QEMU options under which an interrupt can land between any two guest
# instructions, for the this_cpu_*() torture (tests/singlestep.sh says why
# each).
SINGLESTEP_QEMU_ARGS="-singlestep -icount shift=5,sleep=off"

# numa_nodes SMP: QEMU options for two NUMA nodes of 512MB each (the
# guest's default 1G), the first half of the vCPUs on node 0.
numa_nodes() {
	local half=$(($1 / 2))
	echo "-object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M" \
	     "-numa node,nodeid=0,cpus=0-$((half - 1)),memdev=m0" \
	     "-numa node,nodeid=1,cpus=$half-$(($1 - 1)),memdev=m1"
}

# kexec_disk VARIANT DISK: write DISK with VARIANT's kernel, padded to 4K,
# then its initramfs, for a guest to read and load with kexec_file_load()
# (guest/checks/kexec and kdump); print what the guest is told of them,
# KERNEL_BYTES,INITRD_4K_OFFSET,INITRD_BYTES.
kexec_disk() {
	local out=$BUILD/out/$1 kernel initrd offset
	kernel=$(stat -c %s "$out/arch/arm64/boot/Image")
	initrd=$(stat -c %s "$out/initramfs.cpio.gz")
	offset=$(((kernel + 4095) / 4096))
	cp "$out/arch/arm64/boot/Image" "$2"
	truncate -s $((offset * 4096)) "$2"
	cat "$out/initramfs.cpio.gz" >> "$2"
	echo "$kernel,$offset,$initrd"
}

# kexec_disk_read VARIANT LOG PREFIX: die unless the guest's "PREFIX: md5"
# lines in LOG are those of VARIANT's kernel and initramfs
kexec_disk_read() {
	local out=$BUILD/out/$1 f sum
	for f in "$out/arch/arm64/boot/Image:/tmp/Image" "$out/initramfs.cpio.gz:/tmp/initrd"; do
		sum=$(md5sum "${f%%:*}" | cut -d' ' -f1)
		grep -q "^$3: md5 $sum  ${f#*:}" "$2" ||
			die "the guest read another ${f#*:} than ${f%%:*} (log: $2)"
	done
}

# pcpu_off OUTDIR: __per_cpu_start's offset from start_kernel in the kernel
# built in OUTDIR (System.map), for guest/checks/tlb_reach in kernels
# without KALLSYMS_ALL (make bench)
pcpu_off() {
	local map=$1/System.map s t
	s=$(awk '$3 == "__per_cpu_start" { print $1 }' "$map" 2> /dev/null)
	t=$(awk '$3 == "start_kernel" { print $1 }' "$map" 2> /dev/null)
	[ -n "$s" ] && [ -n "$t" ] && echo $((0x${s#????} - 0x${t#????}))
}

# allowed_cpus: the CPUs this process may run on, one number a line
# (Cpus_allowed_list: a cpuset or taskset may leave out CPU 0, or others)
allowed_cpus() {
	sed -n 's/^Cpus_allowed_list:\s*//p' /proc/self/status | tr , '\n' |
		while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done
}
