# Sourced by make bench's guest checks (copied to /lib/bench.sh).

# guest_param KEY DEFAULT: V of the last guest.KEY=V on the kernel command
# line, or DEFAULT.
guest_param() {
	v=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^guest\.$1=//p" | tail -n 1)
	echo "${v:-$2}"
}

# now_ns: nanoseconds of CLOCK_MONOTONIC, from /proc/timer_list's "now at N
# nsecs" (busybox's date has no %N, /proc/uptime counts centiseconds);
# guest instructions under make bench's -icount shift=0.
now_ns() {
	sed -n 's/^now at \([0-9]*\) nsecs$/\1/p' /proc/timer_list
}

# memcg_dir NAME: /sys/fs/cgroup/NAME, a memory cgroup of its own under a
# cgroup2 mount that another check may have made already.
memcg_dir() {
	mkdir -p /sys/fs/cgroup &&
	{ grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts ||
	  mount -t cgroup2 none /sys/fs/cgroup; } &&
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "/sys/fs/cgroup/$1"
}

# perf_stat WORKLOAD COMMAND...: COMMAND under perf stat, system-wide, one
# line per counter, "perf: WORKLOAD EVENT COUNT" (COUNT "n/a" where the
# vCPU's PMU lacks the event); fails if COMMAND does, or if no cycles were
# counted (every PMU counts them: without them the guest has no PMU).
# dTLB-load-misses and iTLB-load-misses are L1 TLB refills (arm_pmuv3's
# cache map); r34 and r35, DTLB_WALK and ITLB_WALK, the refills that
# walked the tables, where per-CPU top-level tables would show.
perf_stat() {
	w=$1
	shift
	# -x,: CSV, the count first and the event third
	perf stat -a -x, -o /tmp/perf.csv \
		-e cycles,instructions,dTLB-loads,dTLB-load-misses,iTLB-load-misses,r34,r35 "$@" ||
		{ echo "perf: $* failed"; return 1; }
	awk -F, -v w="$w" '$3 != "" && $1 !~ /^#/ {
		c = ($1 ~ /^[0-9]+$/) ? $1 : "n/a"
		print "perf: " w " " $3 " " c
	}' /tmp/perf.csv | tee /tmp/perf.lines
	grep -q "^perf: $w cycles [0-9]" /tmp/perf.lines ||
		{ echo "perf: no cycles counted for $w (no PMU in the guest?)"; return 1; }
}
