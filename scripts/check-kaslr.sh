#!/usr/bin/env bash
# The boots of make check each print where KASLR put the image, the percpu
# local window, CPU 0's percpu region and the lowest module
# (guest/checks/addresses).  Each must move: at least two distinct values
# over the boots; the modules relative to the image, as mainline's
# RANDOMIZE_MODULE_REGION_FULL draws the module region apart from the
# image (a region at a fixed distance from the image gives it away with
# the first module's address).  (The regions' base has about 14 bits of
# randomness, so two boots may agree; all of them agreeing means it is not
# randomized.)
#
# usage: check-kaslr.sh LOG...
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -ge 2 ] || die "usage: check-kaslr.sh LOG LOG..."
lines=$(grep -h '^guest-addresses:' "$@" | tr -d '\r' || true)
[ "$(echo "$lines" | grep -c .)" -eq $# ] || die "not every log has a guest-addresses line"
echo "$lines"
for what in text window region; do
	n=$(echo "$lines" | sed -n "s/.* $what=\([^ ]*\).*/\1/p" | sort -u | wc -l)
	[ "$n" -ge 2 ] || die "$what is the same in all $# boots"
	echo "$what: $n distinct values in $# boots"
done
# The boots that loaded modules (make check's all do)
offsets=$(echo "$lines" | sed -n 's/.* text=\([^ ]*\).* modules=\([0-9a-f][^ ]*\).*/\1 \2/p' |
	while read -r text modules; do echo $((0x$modules - 0x$text)); done)
m=$(echo "$offsets" | grep -c .) || true
[ "$m" -ge 2 ] || die "only $m of the $# boots loaded a module: the module region is not checked"
n=$(echo "$offsets" | sort -u | wc -l)
[ "$n" -ge 2 ] || die "the modules are at the same distance from the image in all $m boots that loaded any"
echo "modules - text: $n distinct values in $m boots"
