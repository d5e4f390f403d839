#!/usr/bin/env bash
# make check: every test that fits in CI, on the series in patches/.  Each
# test prints PASS or FAIL with its log under build/logs/check/; the last
# line is "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"

# The one kernel every boot test runs: the series on, with the debug options.
variant=lm-y-debug
fragments=(guest local-mapping-y debug)
cpus=${CHECK_CPUS:-max cortex-a57}
checks=hotplug,percpu_test

passed=0
failed=0
mkdir -p "$LOGS/check"

# t NAME CMD...: one test.
t() {
	local name=$1 log
	shift
	log=$LOGS/check/$(echo "$name" | tr -c 'A-Za-z0-9._\n-' '_').log
	if "$@" > "$log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name (log: $log)"
		grep -E '^error:' "$log" | sed 's/^/    /' || tail -n 5 "$log" | sed 's/^/    /'
		return 1
	fi
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

t setup:host-tools "$top/scripts/host-tools.sh" || finish
t setup:tree "$top/scripts/make-tree.sh" || finish

while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	t "checkpatch:$p" "$top/scripts/checkpatch.sh" "$PATCHES/$p"
done < "$PATCHES/series"
t static:sparse-w1 "$top/scripts/static-check.sh" "${fragments[@]}"

t "build:$variant" "$top/scripts/build-kernel.sh" "$variant" "${fragments[@]}" || finish
t build:initramfs "$top/scripts/build-initramfs.sh" "$variant" || finish

for cpu in $cpus; do
	log=$LOGS/check-$cpu.log
	GUEST_CHECKS=$checks t "boot:$cpu" "$top/scripts/boot-guest.sh" "$variant" "$cpu" "check-$cpu" \
		guest.hotplug_cycles="${HOTPLUG_CYCLES:-5}"
	t "boot:$cpu:finished" grep -q '^guest-done' "$log"
	t "kunit:$cpu" "$top/scripts/kunit-results.sh" "$log"
	for c in ${checks//,/ }; do
		t "guest:$cpu:$c" grep -q "^guest-check: $c pass" "$log"
	done
	t "log-clean:$cpu" "$top/scripts/log-clean.sh" "$log"
done

for tt in checksum broken-patch roundtrip unexported; do
	t "tooling:$tt" "$top/tests/tooling.sh" "$tt"
done
t tooling:hang "$top/tests/tooling.sh" hang "$variant"
finish
