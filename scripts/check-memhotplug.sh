#!/usr/bin/env bash
# Memory hot-add and hot-remove (guest/checks/memhotplug_add and
# memhotplug_remove) through a virtio-mem device, which QEMU's virt machine
# takes without ACPI or UEFI.  The device sits at 1 TB, 1023 GB above RAM
# (64 GB with 39-bit VA): its linear map is in another 512 GB top-level
# slot than RAM's on a 4-level kernel (4K pages, 48 bits, or 52 folded on
# a CPU without LPA2), so hot-add sets a new entry in swapper_pg_dir that
# every CPU's copy must get, and hot-remove clears it and frees the table
# below.  The host removes the memory through QMP when the guest asks.
# Log: build/logs/memhotplug-CPU.log.
#
# usage: check-memhotplug.sh VARIANT CPU
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: check-memhotplug.sh VARIANT CPU}
cpu=${2:?usage: check-memhotplug.sh VARIANT CPU}
log=$LOGS/memhotplug-$cpu.log
qmp=$LOGS/memhotplug-$cpu.qmp
size=$((512 << 20))
# 39-bit VA gives the linear map 256 GB: there the device sits at 64 GB.
addr=0x10000000000
grep -q '^CONFIG_ARM64_VA_BITS=39$' "$BUILD/out/$variant/.config" && addr=0x1000000000
mkdir -p "$LOGS"
rm -f "$log" "$qmp"

# unplug: once the guest asks, set the device's requested size to 0.
unplug() {
	local i
	for ((i = 0; i < ${BOOT_TIMEOUT:-600}; i++)); do
		if grep -q '^memhotplug: unplug now' "$log" 2> /dev/null; then
			python3 - "$qmp" <<-'PY'
			import json, socket, sys
			s = socket.socket(socket.AF_UNIX)
			s.connect(sys.argv[1])
			f = s.makefile("rw")
			f.readline()
			for cmd in ({"execute": "qmp_capabilities"},
			            {"execute": "qom-set", "arguments": {"path": "/machine/peripheral/vm0",
			             "property": "requested-size", "value": 0}}):
			    f.write(json.dumps(cmd) + "\n")
			    f.flush()
			    reply = json.loads(f.readline())
			    while "event" in reply:
			        reply = json.loads(f.readline())
			    if "error" in reply:
			        sys.exit("QMP: %s" % reply["error"])
			PY
			return
		fi
		sleep 1
	done
}
unplug &
watcher=$!
# (a watcher that has finished cannot be killed: not an error)
trap 'kill $watcher 2> /dev/null || true; rm -f "$qmp"' EXIT

export MEM=1G,slots=1,maxmem=2T
export QEMU_ARGS="-object memory-backend-ram,id=vmem0,size=$size
 -device virtio-mem-pci,id=vm0,memdev=vmem0,memaddr=$addr,requested-size=$size
 -qmp unix:$qmp,server=on,wait=off"
export SMP=${SMP:-4}
GUEST_CHECKS=kunit_modules,memhotplug_add,memhotplug_remove "$top/scripts/boot-guest.sh" "$variant" "$cpu" "memhotplug-$cpu" \
	guest.memhp_size=$size memhp_default_state=online_movable ||
	die "the guest failed (log: $log)"
ktap=${log%.log}.ktap
"$top/scripts/guest-results.py" --passed /memhotplug_add "$ktap" ||
	die "memory hot-add failed (log: $log)"
wait $watcher || die "could not remove the memory through QMP (log: $log)"
"$top/scripts/guest-results.py" --passed /memhotplug_remove "$ktap" ||
	die "memory hot-remove failed (log: $log)"
"$top/scripts/kunit-results.sh" "$log" > /dev/null || die "KUnit at boot failed (log: $log)"
"$top/scripts/log-clean.sh" "$log"
echo "memory hot-added at $addr and removed: $log"
