#!/usr/bin/env bash
# Print the instructions of the reference this_cpu_*() functions
# (refcode/pcpu_ref.c) as built for one variant.  The LL/SC forms are
# inline; the LSE forms are alternative replacements, patched in at boot
# on LSE CPUs, and follow the functions at the end of .text.
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: show-emitted-code.sh VARIANT}
ko=$BUILD/out/$variant/refcode/pcpu_ref.ko
[ -f "$ko" ] || die "$ko is not built"
${CROSS_COMPILE}objdump -d --no-show-raw-insn -j .text "$ko" | sed -n '/^[0-9a-f]* <.*>:$/,$p'
