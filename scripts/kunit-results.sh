#!/usr/bin/env bash
# Parse the KTAP in a guest console log with the tree's kunit.py: the boot
# run, then each suite that guest/checks/kunit_modules ran from a module
# (its lines carry a "kunit-module: " prefix).  Fails when a test failed or
# crashed, and when the boot run holds no test at all (kunit.py counts a log
# without KTAP as one passing test).
set -euo pipefail
. "$(dirname "$0")/common.sh"

log=$(realpath "${1:?usage: kunit-results.sh CONSOLE-LOG}")
parse() {
	python3 "$KSRC/tools/testing/kunit/kunit.py" parse "$1"
}

rc=0
res=$(parse "$log") || rc=$?
echo "$res"
echo "$res" | grep -Eq 'Ran [1-9][0-9]* tests' || die "no KUnit test ran in $log"

# One file per module suite: each results file starts at a top-level
# "KTAP version" line.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -n 's/^kunit-module: //p' "$log" | sed 's/^\( *\)ktap version/\1KTAP version/' |
	awk -v dir="$dir" '/^KTAP version/ { n++ } n { print > (dir "/" n ".ktap") }'
for f in "$dir"/*.ktap; do
	[ -e "$f" ] || continue
	res=$(parse "$f") || rc=$?
	echo "$res"
done
exit "$rc"
