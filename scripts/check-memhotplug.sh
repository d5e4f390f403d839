#!/usr/bin/env bash
# Memory hot-add, hot-remove and hot-add again (guest/checks/memhotplug_add,
# memhotplug_remove and memhotplug_readd) through a virtio-mem device, which QEMU's virt machine
# takes without ACPI or UEFI.  The device sits a top-level entry above RAM
# in the linear map, for the levels this CPU runs: hot-add sets a new entry
# in swapper_pg_dir that every CPU's copy must get, and hot-remove clears
# it and frees the tables below.  The host removes the memory through QMP
# when the guest asks, and plugs it back when asked again, while the
# per-CPU table suite runs.  Log: build/logs/memhotplug-CPU.log.
#
# usage: check-memhotplug.sh VARIANT CPU
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:?usage: check-memhotplug.sh VARIANT CPU}
cpu=${2:?usage: check-memhotplug.sh VARIANT CPU}
log=$LOGS/memhotplug-$cpu.log
# (a UNIX socket's path has 107 bytes at most: not under LOGS)
qmp=$(mktemp -u /tmp/memhotplug-XXXXXX.qmp)
size=$((512 << 20))
# The device's address: RAM starts the linear map at 1 GB; one top-level
# entry's span above it (64 GB at least) is the next entry.  The levels
# are ARM64_HW_PGTABLE_LEVELS() of the VA size this CPU runs: 52 bits
# only on -cpu max (LPA2, LVA), 48 on the others.  With 16K pages and
# 48-bit VA the linear map is the whole of the first of two top-level
# entries, and the window's path goes through the second one's PUD table,
# which every CPU has a copy of: there the device sits where its
# vmemmap (64 bytes of struct page a page at least) needs a PUD entry
# of its own, two PUD spans above RAM's, which hot-add sets and hot-remove
# clears in every copy.
cfg=$BUILD/out/$variant/.config
page_shift=$(sed -n 's/^CONFIG_PAGE_SHIFT=//p' "$cfg")
va=$(sed -n 's/^CONFIG_ARM64_VA_BITS=//p' "$cfg")
[ -n "$page_shift" ] && [ -n "$va" ] || die "no page size or VA size in $cfg"
[ "$va" = 52 ] && [ "$cpu" != max ] && va=48
levels=$(((va - 4) / (page_shift - 3)))
span=$((1 << (page_shift + (levels - 1) * (page_shift - 3))))
if [ $span -lt $((1 << (va - 1))) ]; then
	addr=$((span + (1 << 30)))
	what="a top-level entry of its own"
else
	addr=$((2 * (span >> (page_shift - 3)) << (page_shift - 6)))
	what="its vmemmap a PUD entry of its own on the window's path"
fi
[ $addr -ge $((64 << 30)) ] || addr=$((64 << 30))
addr=$(printf '%#x' $addr)
mkdir -p "$LOGS"
rm -f "$log" "$qmp"

# requested_size BYTES: set the device's requested size through QMP.
requested_size() {
	python3 - "$qmp" "$1" <<-'PY'
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX)
	s.connect(sys.argv[1])
	f = s.makefile("rw")
	f.readline()
	for cmd in ({"execute": "qmp_capabilities"},
	            {"execute": "qom-set", "arguments": {"path": "/machine/peripheral/vm0",
	             "property": "requested-size", "value": int(sys.argv[2])}}):
	    f.write(json.dumps(cmd) + "\n")
	    f.flush()
	    reply = json.loads(f.readline())
	    while "event" in reply:
	        reply = json.loads(f.readline())
	    if "error" in reply:
	        sys.exit("QMP: %s" % reply["error"])
	PY
}
# cue LINE BYTES: once the guest prints LINE, set the requested size.
cue() {
	local i
	for ((i = 0; i < ${BOOT_TIMEOUT:-600}; i++)); do
		if grep -q "$1" "$log" 2> /dev/null; then
			requested_size "$2"
			return
		fi
		sleep 1
	done
	return 1
}
# The guest's cues: unplug (memhotplug_remove), then plug again
# (memhotplug_readd, its suite running meanwhile)
unplug() {
	cue "memhotplug: unplug now" 0 && cue "memhotplug: plug now" "$size"
}
unplug &
watcher=$!
# (a watcher that has finished cannot be killed: not an error)
trap 'kill $watcher 2> /dev/null || true; rm -f "$qmp"' EXIT

export MEM=1G,slots=1,maxmem=$(((addr >> 30) + 2))G
export QEMU_ARGS="-object memory-backend-ram,id=vmem0,size=$size
 -device virtio-mem-pci,id=vm0,memdev=vmem0,memaddr=$addr,requested-size=$size
 -qmp unix:$qmp,server=on,wait=off"
export SMP=${SMP:-4}
GUEST_CHECKS=kunit_modules,memhotplug_add,memhotplug_remove,memhotplug_readd "$top/scripts/boot-guest.sh" "$variant" "$cpu" "memhotplug-$cpu" \
	guest.memhp_size=$size memhp_default_state=online_movable ||
	die "the guest failed (log: $log)"
ktap=${log%.log}.ktap
"$top/scripts/guest-results.py" --passed /memhotplug_add "$ktap" ||
	die "memory hot-add failed (log: $log)"
wait $watcher || die "could not remove or add back the memory through QMP (log: $log)"
"$top/scripts/guest-results.py" --passed /memhotplug_remove "$ktap" ||
	die "memory hot-remove failed (log: $log)"
"$top/scripts/guest-results.py" --passed /memhotplug_readd "$ktap" ||
	die "memory hot-add beside the per-CPU table suite failed (log: $log)"
"$top/scripts/kunit-results.sh" "$log" > /dev/null || die "KUnit at boot failed (log: $log)"
"$top/scripts/log-clean.sh" "$log"
echo "memory hot-added at $addr ($levels levels: $what), removed, and added again beside the per-CPU table suite: $log"
