# Sourced by guest/init and the checks: results go to the host in KTAP, on a
# channel of their own (the virtio console /dev/hvc0 that boot-guest.sh
# adds; the serial console when there is none).  init writes one test line
# per check with the kernel's ktap_helpers.sh (copied from the tree into
# /lib); a check that runs KUnit suites nests their results under its own
# line with the functions below.  The host parses the whole of it with the
# tree's kunit_parser (scripts/guest-results.py).
GUEST_KTAP=${GUEST_KTAP:-/dev/hvc0}
[ -c "$GUEST_KTAP" ] || GUEST_KTAP=/dev/console

# ktap_subtests CHECK: open the check's list of subtests.
ktap_subtests() {
	printf '    KTAP version 1\n    # Subtest: %s\n' "$1" >> "$GUEST_KTAP"
}

# ktap_suite N SUITE: the check's N-th subtest, KUnit SUITE's last results
# (debugfs), one level down: its cases at the third level.
ktap_suite() {
	sed -E -e '1,2d' -e '/^# Totals:/d' -e 's/^/    /' \
	    -e "s/^    (not ok|ok) 1 $2\$/    \1 $1 $2/" \
	    "/sys/kernel/debug/kunit/$2/results" >> "$GUEST_KTAP"
}

# ktap_suite_passed SUITE: SUITE's last run passed.
ktap_suite_passed() {
	tail -n 1 "/sys/kernel/debug/kunit/$1/results" | grep -qx "ok 1 $1"
}

# ktap_run_suites CHECK SUITE...: run each KUnit SUITE again (debugfs), its
# results nested under CHECK; false, with the suite named, at the first
# one that is missing or fails.
ktap_run_suites() {
	_check=$1
	shift
	ktap_subtests "$_check"
	_n=0
	for _s in "$@"; do
		[ -w "/sys/kernel/debug/kunit/$_s/run" ] || { echo "$_check: no suite $_s"; return 1; }
		echo > "/sys/kernel/debug/kunit/$_s/run"
		_n=$((_n + 1))
		ktap_suite $_n "$_s"
		ktap_suite_passed "$_s" || { echo "$_check: $_s failed"; return 1; }
	done
}
