#!/usr/bin/env bash
# Fail when a console log holds a kernel splat: a warning, an oops or BUG,
# a lockdep report, a DEBUG_PREEMPT or DEBUG_VM complaint, or a CPU that did
# not come online (a secondary that dies before it can report).  Prints them.
set -euo pipefail

log=${1:?usage: log-clean.sh CONSOLE-LOG}
name=$log
# A KCSAN kernel (make matrix sets KCSAN_VARIANT): the base kernel's own
# race reports are left out first (scripts/kcsan-filter.py).
if [ -n "${KCSAN_VARIANT:-}" ]; then
	. "$(dirname "$0")/common.sh"
	filtered=$(mktemp)
	trap 'rm -f "$filtered"' EXIT
	KSRC=$KSRC BASE_TAG=$BASE_TAG "$top/scripts/kcsan-filter.py" "$KCSAN_VARIANT" "$log" > "$filtered"
	log=$filtered
fi
pattern='WARNING:|BUG:|BUG at|Oops|Kernel panic|Call trace:|Unable to handle|'\
'possible recursive locking|possible circular locking|inconsistent lock state|'\
'turning off the locking correctness validator|suspicious RCU usage|in preemptible|sleeping function called|'\
'bad page|page dumped because|VM_BUG_ON|soft lockup|hung task|failed to come online'
if grep -nE "$pattern" "$log"; then
	echo "kernel splats in $name (above)"
	exit 1
fi
