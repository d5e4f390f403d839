#!/usr/bin/env bash
# Pin a QEMU guest's vCPU threads as they appear, vCPU n to the n-th host
# CPU of CPULIST: a KVM benchmark whose vCPUs the host's scheduler moves
# would measure the moves too.  The QEMU is the one whose command line
# contains MATCH (boot-guest.sh gives its results channel's path, unique to
# a boot); it names its vCPU threads "CPU n/KVM" (or "CPU n/TCG", each
# vCPU a thread of its own without -icount) with -name NAME,debug-threads=on.  Ends once every CPU of the list has its vCPU, or
# when the QEMU has gone; gives up after a minute without it.
#
# usage: pin-vcpus.sh MATCH CPULIST
set -uo pipefail
match=${1:?usage: pin-vcpus.sh MATCH CPULIST}
IFS=, read -r -a cpus <<< "${2:?usage: pin-vcpus.sh MATCH CPULIST}"
pid=
for _ in $(seq 600); do
	pid=$(pgrep -n -f -- "^qemu-system-aarch64 .*$match") && break
	sleep 0.1
done
[ -n "$pid" ] || { echo "pin-vcpus: no QEMU running with $match" >&2; exit 1; }
pinned=()
while [ -d "/proc/$pid" ] && [ "${#pinned[@]}" -lt "${#cpus[@]}" ]; do
	for task in /proc/"$pid"/task/*; do
		comm=$(cat "$task/comm" 2> /dev/null) || continue
		case $comm in "CPU "*/KVM|"CPU "*/TCG) ;; *) continue ;; esac
		vcpu=${comm#CPU }
		vcpu=${vcpu%%/*}
		[ "$vcpu" -lt "${#cpus[@]}" ] && [ -z "${pinned[$vcpu]:-}" ] || continue
		taskset -p -c "${cpus[$vcpu]}" "${task##*/}" > /dev/null &&
			pinned[$vcpu]=${task##*/} &&
			echo "pin-vcpus: vCPU $vcpu (thread ${task##*/}) on host CPU ${cpus[$vcpu]}" >&2
	done
	sleep 0.1
done
