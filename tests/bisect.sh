#!/usr/bin/env bash
# Slow, not part of make check: every prefix of the series builds with the
# option on and with the option off, and the =y kernel boots cleanly with
# its KUnit suites passing, and no mapping of the freed init section left
# (guest/checks/initmem) (bisectability).  The option can be enabled only
# from the patch where arm64 selects ARCH_SUPPORTS_PERCPU_LOCAL_MAPPING, the
# core's last: before it, a prefix must refuse CONFIG_PERCPU_LOCAL_MAPPING=y,
# and is then built and booted with the select added by hand, as its author
# would test it.  Builds in a worktree of its own (build/bisect-tree) and
# build/out/bisect-{y,n}.
#
# usage: bisect.sh [N...]   only the prefixes ending at patches N..., say
#                           the ones that change the boot path
# BISECT_TO=BRANCH (default core, the core series; series for the whole
# stack): the last commit whose prefixes are checked.
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

tree=$BUILD/bisect-tree
# The series is patches/: a fresh clone gets its tree here.
"$top/scripts/make-tree.sh" || die "no work tree made from patches/"
[ -e "$tree/.git" ] || git -C "$KSRC" worktree add -q --detach "$tree" series ||
	die "cannot create $tree"

passed=0
failed=0
n=0
to=${BISECT_TO:-core}
git -C "$KSRC" rev-parse -q --verify "refs/heads/$to" > /dev/null ||
	die "no branch $to in $KSRC (series.stack: $(git -C "$KSRC" config series.stack))"
for c in $(git -C "$KSRC" rev-list --reverse "$BASE_TAG..$to"); do
	n=$((n + 1))
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$n"; then
		continue
	fi
	subject="$n/$(git -C "$KSRC" log -1 --format=%s "$c")"
	git -C "$tree" checkout -q -f --detach "$c"
	log=$LOGS/bisect-$c.log
	if grep -q '^config PERCPU_LOCAL_MAPPING$' "$tree/mm/Kconfig" &&
	   ! grep -q '^	select ARCH_SUPPORTS_PERCPU_LOCAL_MAPPING' "$tree/arch/arm64/Kconfig"; then
		if KSRC=$tree "$top/scripts/configure-kernel.sh" "$BUILD/out/bisect-probe" \
			guest geometry-4k-48 local-mapping-y > /dev/null 2>&1; then
			echo "FAIL $subject: the option can be enabled before arm64 selects it"
			failed=$((failed + 1))
			continue
		fi
		sed -i '/^	select ARCH_SUPPORTS_MEMORY_FAILURE$/a\
	select ARCH_SUPPORTS_PERCPU_LOCAL_MAPPING if ARM64_4K_PAGES && (ARM64_VA_BITS_48 || ARM64_VA_BITS_52)' \
			"$tree/arch/arm64/Kconfig"
		note "$subject: the option cannot be enabled yet (checked); built with it forced on"
	fi
	# Until the patch that supports GEOMETRY, the option exists with 4K
	# pages and 48-bit VA only: such a prefix is built there.
	geometry=$GEOMETRY
	if grep -q '^config ARCH_SUPPORTS_PERCPU_LOCAL_MAPPING$' "$tree/mm/Kconfig" &&
	   KSRC=$tree "$top/scripts/configure-kernel.sh" "$BUILD/out/bisect-probe" guest "$GEOMETRY" &&
	   ! grep -q '^CONFIG_ARCH_SUPPORTS_PERCPU_LOCAL_MAPPING=y' "$BUILD/out/bisect-probe/.config"; then
		geometry=geometry-4k-48
		note "$subject: the option cannot be on with $GEOMETRY yet: built with $geometry"
	fi
	if KSRC=$tree "$top/scripts/build-kernel.sh" bisect-n guest "$geometry" local-mapping-n debug &&
	   KSRC=$tree "$top/scripts/build-kernel.sh" bisect-y guest "$geometry" local-mapping-y series-kunit debug paths memhotplug &&
	   "$top/scripts/build-initramfs.sh" bisect-y &&
	   GUEST_CHECKS=kunit_modules,hotplug,initmem "$top/scripts/boot-guest.sh" bisect-y max "bisect-$c" &&
	   "$top/scripts/guest-results.py" --passed /hotplug "${log%.log}.ktap" &&
	   "$top/scripts/guest-results.py" --passed /initmem "${log%.log}.ktap" &&
	   "$top/scripts/kunit-results.sh" "$log" > /dev/null &&
	   "$top/scripts/log-clean.sh" "$log" > /dev/null; then
		echo "PASS $subject"
		passed=$((passed + 1))
	else
		echo "FAIL $subject (log: $log)"
		failed=$((failed + 1))
	fi
done
git -C "$tree" checkout -q -f --detach series
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
