#!/usr/bin/env bash
# Print the instructions of the reference this_cpu_*() functions
# (refcode/pcpu_ref.c) as built for one variant: all of them, or the ones
# named (without the pcpu_ref_ prefix).  The LL/SC forms are inline; the
# LSE forms are alternative replacements, patched in at boot on LSE CPUs,
# and follow the functions at the end of .text.
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: show-emitted-code.sh VARIANT [FUNCTION...]}
shift
ko=$BUILD/out/$variant/refcode/pcpu_ref.ko
[ -f "$ko" ] || die "$ko is not built"
dump=$(${CROSS_COMPILE}objdump -d --no-show-raw-insn -j .text "$ko" | sed -n '/^[0-9a-f]* <.*>:$/,$p')
[ $# -eq 0 ] && { echo "$dump"; exit 0; }
for f in "$@"; do
	echo "$dump" | sed -n "/^[0-9a-f]* <pcpu_ref_$f>:\$/,/^\$/p"
done
