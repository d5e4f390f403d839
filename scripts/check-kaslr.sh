#!/usr/bin/env bash
# The boots of make check each print where KASLR put the image, the percpu
# local window and CPU 0's percpu region (guest/checks/addresses).  Each of
# the three must move: at least two distinct values over the boots.  (The
# regions' base has about 14 bits of randomness, so two boots may agree;
# all of them agreeing means it is not randomized.)
#
# usage: check-kaslr.sh LOG...
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -ge 2 ] || die "usage: check-kaslr.sh LOG LOG..."
lines=$(grep -h '^guest-addresses:' "$@" || true)
[ "$(echo "$lines" | grep -c .)" -eq $# ] || die "not every log has a guest-addresses line"
echo "$lines"
for what in text window region; do
	n=$(echo "$lines" | sed -n "s/.* $what=\([^ ]*\).*/\1/p" | sort -u | wc -l)
	[ "$n" -ge 2 ] || die "$what is the same in all $# boots"
	echo "$what: $n distinct values in $# boots"
done
