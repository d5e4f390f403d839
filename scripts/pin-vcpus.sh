#!/usr/bin/env bash
# Pin a QEMU guest's vCPU threads as they appear, vCPU n to the n-th host
# CPU of CPULIST: a KVM benchmark whose vCPUs the host's scheduler moves
# would measure the moves too.  QEMU writes its process ID to PIDFILE
# (-pidfile) and names its vCPU threads "CPU n/KVM" (or "CPU n/TCG", each
# vCPU a thread of its own without -icount) with -name NAME,debug-threads=on.
# Ends once every CPU of the list has its vCPU, when the QEMU has gone, or
# at the first CPU it cannot pin to (said once); gives up after a minute
# without the QEMU.
#
# usage: pin-vcpus.sh PIDFILE CPULIST
set -uo pipefail
pidfile=${1:?usage: pin-vcpus.sh PIDFILE CPULIST}
IFS=, read -r -a cpus <<< "${2:?usage: pin-vcpus.sh PIDFILE CPULIST}"
pid=
for _ in $(seq 600); do
	pid=$(cat "$pidfile" 2> /dev/null) && [ -d "/proc/$pid" ] && break
	pid=
	sleep 0.1
done
[ -n "$pid" ] || { echo "pin-vcpus: no QEMU wrote $pidfile" >&2; exit 1; }
pinned=()
while [ -d "/proc/$pid" ] && [ "${#pinned[@]}" -lt "${#cpus[@]}" ]; do
	for task in /proc/"$pid"/task/*; do
		comm=$(cat "$task/comm" 2> /dev/null) || continue
		case $comm in "CPU "*/KVM|"CPU "*/TCG) ;; *) continue ;; esac
		vcpu=${comm#CPU }
		vcpu=${vcpu%%/*}
		[ "$vcpu" -lt "${#cpus[@]}" ] && [ -z "${pinned[$vcpu]:-}" ] || continue
		if ! taskset -p -c "${cpus[$vcpu]}" "${task##*/}" > /dev/null 2>&1; then
			echo "pin-vcpus: cannot pin vCPU $vcpu to host CPU ${cpus[$vcpu]}: the rest left unpinned" >&2
			exit 1
		fi
		pinned[$vcpu]=${task##*/}
		echo "pin-vcpus: vCPU $vcpu (thread ${task##*/}) on host CPU ${cpus[$vcpu]}" >&2
	done
	sleep 0.1
done
