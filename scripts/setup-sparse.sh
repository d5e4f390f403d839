#!/usr/bin/env bash
# Provide a sparse that 7.2's scripts/checker-valid.sh accepts and print the
# path of a wrapper to pass as CHECK=.  Debian 12's sparse 0.6.4 lacks
# __typeof_unqual__; unstable's 0.6.5~rc1 needs glibc 2.38, so both are
# unpacked under the cache and run through unstable's own loader, with no
# change to the system.
set -euo pipefail
. "$(dirname "$0")/common.sh"

root=$CACHE_DIR/sparse-root
wrapper=$BUILD/tools/sparse
if [ ! -x "$root/usr/bin/sparse" ]; then
	rm -rf "$root.new"
	mkdir -p "$root.new"
	for pkg in sparse:amd64 libc6:amd64; do
		dpkg-deb -x "$("$top/scripts/debian-fetch.sh" "$pkg")" "$root.new"
	done
	mv "$root.new" "$root"
fi
mkdir -p "$(dirname "$wrapper")"
cat > "$wrapper" <<EOW
#!/bin/sh
exec "$root/usr/lib64/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu" "$root/usr/bin/sparse" "\$@"
EOW
chmod +x "$wrapper"
"$wrapper" --version >/dev/null || die "the unpacked sparse does not run: $wrapper"
echo "$wrapper"
