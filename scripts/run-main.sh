#!/usr/bin/env bash
# make run: build the series with CONFIG_PERCPU_LOCAL_MAPPING=y, boot it on
# 4 vCPUs and show what it did: the KUnit summary, the guest's checks, and
# the instructions one this_cpu_add() compiles to.  SUITE=GLOB runs only the
# KUnit suites that match (kunit.filter_glob, the whole name), e.g.
# SUITE=arm64_cpu_pgd or SUITE='percpu_*'.
#
# usage: run-main.sh [shell]   (shell: make shell, the same kernel with a
#        shell on the console instead of the checks)
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=lm-y
cpu=${CPU:-max}

"$top/scripts/host-tools.sh"
"$top/scripts/make-tree.sh"
"$top/scripts/build-kernel.sh" "$variant" guest "$GEOMETRY" local-mapping-y series-kunit
"$top/scripts/build-initramfs.sh" "$variant"
if [ "${1:-}" = shell ]; then
	INTERACTIVE=1 exec "$top/scripts/boot-guest.sh" "$variant" "$cpu" shell
fi
rc=0
"$top/scripts/boot-guest.sh" "$variant" "$cpu" "run-$cpu" ${SUITE:+"kunit.filter_glob=$SUITE"} || rc=$?
log=$LOGS/run-$cpu.log

echo
echo "== KUnit ($log)"
"$top/scripts/kunit-results.sh" "$log" | grep -E '^\[..:..:..\] (Testing complete|=+ |\[FAILED|\[CRASHED)' || true
echo
echo "== guest checks (${log%.log}.ktap; the module suites are under kunit_modules)"
"$top/scripts/guest-results.py" --list "${log%.log}.ktap" || echo "(none: the guest did not get that far)"
echo
echo "== this_cpu_add(*p, v) and a static this_cpu_inc() as built ($variant, LL/SC form)"
"$top/scripts/show-emitted-code.sh" "$variant" this_cpu_add this_cpu_inc_static
echo
echo "== every this_cpu_*() operation (scripts/check-emitted-code.py)"
"$top/scripts/check-emitted-code.py" "$variant" | tail -n 1
# A suite ran at boot (console) or from a module (the channel, a level
# below kunit_modules)
if [ -n "${SUITE:-}" ] && ! grep -q '# Subtest:' "$log" &&
   ! grep -q '^        # Subtest:' "${log%.log}.ktap"; then
	die "no KUnit suite matches SUITE=$SUITE (the series': arm64_cpu_pgd, percpu_local_mapping, percpu_local_module, percpu_this_cpu)"
fi
[ "$rc" -eq 0 ] && "$top/scripts/guest-results.py" "${log%.log}.ktap" > /dev/null
