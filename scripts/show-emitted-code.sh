#!/usr/bin/env bash
# Print the instructions of the reference this_cpu_*() functions
# (refcode/pcpu_ref.c) as built for one variant.  The LSE forms sit in
# .altinstr_replacement and are patched in at boot on LSE CPUs; the listing
# shows the LL/SC default inline and the replacement section after it.
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: show-emitted-code.sh VARIANT [FUNCTION...]}
shift
ko=$BUILD/out/$variant/refcode/pcpu_ref.ko
[ -f "$ko" ] || die "$ko is not built"
[ $# -gt 0 ] || set -- pcpu_ref_this_cpu_add
for fn in "$@"; do
	${CROSS_COMPILE}objdump -d --no-show-raw-insn --disassemble="$fn" "$ko" |
		sed -n '/^[0-9a-f]* <'"$fn"'>:/,/^$/p'
done
echo ".altinstr_replacement (LSE forms):"
${CROSS_COMPILE}objdump -d --no-show-raw-insn -j .altinstr_replacement "$ko" | sed -n '/^[ ]*[0-9a-f]*:/p'
