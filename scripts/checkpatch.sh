#!/usr/bin/env bash
# scripts/checkpatch.pl --strict on one patch file; any error, warning or
# check fails, but one: "does MAINTAINERS need updating?" for a new file
# that an existing MAINTAINERS entry already covers (arch/arm64/ under
# ARM64 PORT, mm/tests/percpu*_kunit.c under PER-CPU MEMORY ALLOCATOR),
# which checkpatch cannot see.
set -euo pipefail
. "$(dirname "$0")/common.sh"
patch=$(realpath "${1:?usage: checkpatch.sh PATCH}")
cd "$KSRC"
# spdxcheck.py must find Debian's python3 with python3-ply and python3-git,
# not a python3 of the user's that lacks them.
export PATH=/usr/bin:$PATH
out=$(scripts/checkpatch.pl --strict --no-summary --show-types --color=never "$patch") && exit 0
if [ "$(echo "$out" | grep -cE '^(ERROR|WARNING|CHECK):')" = 1 ] &&
   grep -q '^WARNING:FILE_PATH_CHANGES:' <<< "$out"; then
	covered=1
	one=$(mktemp)
	trap 'rm -f "$one"' EXIT
	for f in $(sed -n 's|^+++ b/||p' "$patch"); do
		grep -q "^--- /dev/null" <(grep -B1 "^+++ b/$f\$" "$patch") || continue
		# A patch of that file alone: get_maintainer.pl -f wants it to
		# exist in the tree already
		printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+\n' "$f" > "$one"
		who=$(scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "$one" 2>/dev/null |
		      grep -v 'linux-kernel@vger.kernel.org' || true)
		if [ -z "$who" ]; then
			echo "$f: no MAINTAINERS entry covers it" >&2
			covered=
		fi
	done
	[ -z "$covered" ] || exit 0
fi
echo "$out"
exit 1
