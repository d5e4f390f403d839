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
