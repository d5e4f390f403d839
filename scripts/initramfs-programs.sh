#!/usr/bin/env bash
# Put Debian arm64 packages into an initramfs tree: each PACKAGE's own files
# (no documentation), and the shared libraries its programs load, nothing
# else.  A PACKAGE is unpacked with its dependency closure into a sysroot
# cached under CACHE_DIR; the libraries are the NEEDED closure of its
# programs resolved in that sysroot, with the dynamic loader where their
# PT_INTERP names it.  The dependency closure holds far more than the
# programs link (stress-ng's pulls in Mesa and LLVM through libgbm1), which
# is why only the NEEDED closure goes in.
#
# usage: initramfs-programs.sh ROOT PACKAGE...
set -euo pipefail
. "$(dirname "$0")/common.sh"

root=${1:?usage: initramfs-programs.sh ROOT PACKAGE...}
shift
[ $# -gt 0 ] || die "usage: initramfs-programs.sh ROOT PACKAGE..."
mkdir -p "$root"
libdirs="usr/lib/aarch64-linux-gnu lib/aarch64-linux-gnu usr/lib lib"

# lib SYSROOT SONAME: the path of SONAME in SYSROOT, relative to it.
lib() {
	local d
	for d in $libdirs; do
		[ -e "$1/$d/$2" ] && { echo "$d/$2"; return 0; }
	done
	return 1
}

for pkg in "$@"; do
	sys=$CACHE_DIR/sysroot-arm64/$pkg
	if [ ! -f "$sys/.files" ]; then
		rm -rf "$sys.new"
		mkdir -p "$sys.new"
		debs=$("$top/scripts/debian-fetch.sh" --deps "$pkg:arm64") ||
			die "cannot fetch $pkg:arm64 and its dependencies from Debian"
		for deb in $debs; do
			dpkg-deb -x "$deb" "$sys.new" || die "cannot unpack $deb"
		done
		# The package's own files and symlinks, "x" before the
		# programs; documentation and the other architectures'
		# multiarch directories (linux-libc-dev has them all) left out.
		deb=$(grep "/${pkg}_[^/]*\.deb\$" <<< "$debs") ||
			die "no .deb of $pkg among its dependencies"
		dpkg-deb -c "$deb" | awk '
			$1 !~ /^[-l]/ { next }
			{ p = $6; sub(/^\.\//, "", p) }
			p ~ /^usr\/share\// { next }
			p ~ /-linux-gnu[^\/]*\// && p !~ /aarch64-linux-gnu\// { next }
			{ print ($1 ~ /^-..x/ ? "x " : "- ") p }' > "$sys.new/.files"
		[ -s "$sys.new/.files" ] || die "$pkg has no file to put in the guest"
		basename "$deb" .deb > "$sys.new/.deb"
		rm -rf "$sys"
		mv "$sys.new" "$sys"
	fi

	cut -c 3- "$sys/.files" | tar -C "$sys" -cf - --no-recursion -T - | tar -C "$root" -xf -
	cat "$sys/.deb" >> "$root/packages" 2>/dev/null ||
		echo "$pkg (cached before its version was kept)" >> "$root/packages"
	progs=
	while read -r kind p; do
		# ELF programs only (make ships a shell script too).
		if [ "$kind" = x ] && [ ! -L "$sys/$p" ] &&
		   [ "$(head -c 4 "$sys/$p" | tr -d '\177')" = ELF ]; then
			progs="$progs $p"
		fi
	done < "$sys/.files"

	for p in $progs; do
		interp=$(${CROSS_COMPILE}readelf -l "$sys/$p" |
			sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
		if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
			# Debian's /lib is a symlink to usr/lib (base-files, not
			# in the closure); the guest's /lib is a directory.
			real=$(lib "$sys" "$(basename "$interp")") ||
				die "$p: no $interp in $pkg's dependencies"
			mkdir -p "$root/$(dirname "$real")" "$root$(dirname "$interp")"
			cp -L "$sys/$real" "$root/$real"
			[ "/$real" = "$interp" ] || ln -sf "/$real" "$root$interp"
		fi
	done
	# Breadth first through DT_NEEDED, from the programs.
	queue=$progs
	seen=" "
	while [ -n "$queue" ]; do
		next=
		for f in $queue; do
			for so in $(${CROSS_COMPILE}readelf -d "$sys/$f" |
					sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				case "$seen" in *" $so "*) continue ;; esac
				seen="$seen$so "
				path=$(lib "$sys" "$so") ||
					die "$f needs $so, which no package of $pkg's closure holds"
				mkdir -p "$root/$(dirname "$path")"
				cp -L "$sys/$path" "$root/$path"
				next="$next $path"
			done
		done
		queue=$next
	done
	note "$pkg: $(wc -l < "$sys/.files") files${progs:+ (programs:$progs)}, $(wc -w <<< "$seen") libraries"
done
