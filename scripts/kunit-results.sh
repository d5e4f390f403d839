#!/usr/bin/env bash
# Parse the KTAP of the built-in KUnit suites' boot run in a guest console
# log with the tree's kunit.py.  Fails when a test failed or crashed, and
# when the log holds no test at all (kunit.py counts a log without KTAP as
# one passing test).  The suites the guest runs later (from modules, or
# again through debugfs) are on the results channel: guest-results.py.
set -euo pipefail
. "$(dirname "$0")/common.sh"

log=$(realpath "${1:?usage: kunit-results.sh CONSOLE-LOG}")
rc=0
res=$(python3 "$KSRC/tools/testing/kunit/kunit.py" parse "$log") || rc=$?
echo "$res"
echo "$res" | grep -Eq 'Ran [1-9][0-9]* tests' || die "no KUnit test ran in $log"
exit "$rc"
