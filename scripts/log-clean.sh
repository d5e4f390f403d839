#!/usr/bin/env bash
# Fail when a console log holds a kernel splat: a warning, an oops or BUG,
# a lockdep report, a DEBUG_PREEMPT or DEBUG_VM complaint, or a CPU that did
# not come online (a secondary that dies before it can report).  Prints them.
set -euo pipefail

log=${1:?usage: log-clean.sh CONSOLE-LOG}
name=$log
# A KCSAN kernel (make matrix sets KCSAN_VARIANT): the base kernel's own
# race reports are left out first (scripts/kcsan-filter.py).
known=$(mktemp)
filtered=$(mktemp)
trap 'rm -f "$known" "$filtered"' EXIT
if [ -n "${KCSAN_VARIANT:-}" ]; then
	. "$(dirname "$0")/common.sh"
	KSRC=$KSRC BASE_TAG=$BASE_TAG "$top/scripts/kcsan-filter.py" "$KCSAN_VARIANT" "$log" > "$filtered"
	log=$filtered
fi
# One warning of the base kernel is let through (guest/checks/kvm): KVM
# finding a vCPU loaded twice when it is loaded again after a preemption
# (kvm_sched_in() from preempt_schedule(), in vcpu_load() or in the run
# loop), with VHE.  Its block, from the WARNING to the end of its trace,
# is left out when the trace is that one; the log is kept whole.
awk -v name="$name" '
/WARNING: arch\/arm64\/kvm\/debug.c:[0-9]+ at kvm_vcpu_load_debug/ { held = 1; block = ""; sig = 0 }
held {
	block = block $0 "\n"
	if ($0 ~ /^ *preempt_schedule\+/ || $0 ~ /^ *kvm_sched_in\+/) sig++
	if ($0 ~ /---\[ end trace/) {
		held = 0
		if (sig == 2) print "known base splat: " name ": kvm_vcpu_load_debug() on a load after a preemption" > "/dev/stderr"
		else printf "%s", block
	}
	next
}
{ print }
END { if (held) printf "%s", block }' "$log" > "$known"
log=$known
pattern='WARNING:|BUG:|BUG at|Oops|Kernel panic|Call trace:|Unable to handle|'\
'possible recursive locking|possible circular locking|inconsistent lock state|'\
'turning off the locking correctness validator|suspicious RCU usage|in preemptible|sleeping function called|'\
'bad page|page dumped because|VM_BUG_ON|soft lockup|hung task|failed to come online'
if grep -nE "$pattern" "$log"; then
	echo "kernel splats in $name (above)"
	# The first splat whole, as "error:" lines: make check shows those,
	# and CI's output is all that is kept of a run elsewhere.
	first=$(grep -nE "$pattern" "$log" | head -n 1 | cut -d: -f1)
	sed -n "$((first > 3 ? first - 3 : 1)),$((first + 40))p" "$log" | sed 's/^/error: /'
	exit 1
fi
