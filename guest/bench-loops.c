// SPDX-License-Identifier: GPL-2.0
/*
 * guest/checks/loops' program: the loops of the upstream reports that
 * moved hot counters to this_cpu_*() and measured arm64 paying for its
 * preempt_disable() (issue 13's workloads), written for this guest:
 *
 * munmap N:  map 1MB of anonymous memory, touch each page, unmap it, N
 *            times: each fault charges the page to the memory cgroup and
 *            updates its per-CPU statistics, each munmap uncharges them.
 * page_fault3 N:  will-it-scale's page_fault3 loop, written anew: map a
 *            128MB file (tmpfs) shared, write to each page, unmap, N
 *            times (mod_memcg_lruvec_state() and
 *            percpu_counter_add_batch() lead its profile).
 * pwrite N:  write one byte to a tmpfs file, N times: every write()
 *            takes the superblock's freeze protection, a percpu-rwsem
 *            read lock (this_cpu_inc() and this_cpu_dec() of its
 *            read_count), as percpu-rwsem readers do.
 *
 * pingpong N:  a byte sent back and forth over two pipes, N times, between
 *            a process on CPU 0 and one on CPU 1: each read() sleeps, so
 *            each write() wakes an idle CPU with an IPI, taken in kernel
 *            mode (the entry-fixup variant's check on exception return).
 *
 * fork N:   fork a child that exits at once and wait for it, N times: each
 *            task's creation and end touch its percpu counters, and its
 *            kernel stack comes from and goes back to a per-CPU cache.
 *
 * cgroups N DIR:  create N directories in DIR (a cgroup2 directory:
 *            each a memory cgroup with its percpu counters), then remove
 *            them, with mkdir() and rmdir() and no process per call.
 *
 * mark:      execute HINT #0x7f, a NOP that bench/tlbi-count.c, a QEMU
 *            plugin, takes as the mark to print its TLBI counts at.
 *
 * No randomness and fixed sizes, so that a run's instruction count is
 * the same from boot to boot.
 *
 * usage: bench-loops munmap|page_fault3|pwrite|pingpong|fork N
 *        bench-loops cgroups N DIR
 *        bench-loops mark
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MUNMAP_SIZE	(1UL << 20)
#define PF3_SIZE	(128UL << 20)

/* Map @size bytes (of @fd, or anonymous), write each page, unmap, @n times */
static int touch_loop(long n, size_t size, int flags, int fd)
{
	long page = sysconf(_SC_PAGESIZE), i, off;
	char *p;

	for (i = 0; i < n; i++) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
		if (p == MAP_FAILED) {
			perror("bench-loops: mmap");
			return 1;
		}
		for (off = 0; off < (long)size; off += page)
			p[off] = 1;
		munmap(p, size);
	}
	return 0;
}

static int munmap_loop(long n)
{
	return touch_loop(n, MUNMAP_SIZE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static int page_fault3(long n)
{
	char path[] = "/tmp/page_fault3.XXXXXX";
	int fd = mkstemp(path), ret;

	if (fd < 0 || unlink(path) || ftruncate(fd, PF3_SIZE)) {
		perror("bench-loops: page_fault3's file");
		return 1;
	}
	ret = touch_loop(n, PF3_SIZE, MAP_SHARED, fd);
	close(fd);
	return ret;
}

static int pwrite_loop(long n)
{
	int fd = open("/tmp/pwrite.bench", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char c = 1;
	long i;

	if (fd < 0) {
		perror("bench-loops: /tmp/pwrite.bench");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (pwrite(fd, &c, 1, 0) != 1) {
			perror("bench-loops: pwrite");
			return 1;
		}
	close(fd);
	unlink("/tmp/pwrite.bench");
	return 0;
}

static int on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("bench-loops: sched_setaffinity (two CPUs online?)");
		return 1;
	}
	return 0;
}

/* Send a byte on @out and wait for it on @in, @n times (@first: send first) */
static int bounce(long n, int in, int out, int first)
{
	char c = 0;
	long i;

	for (i = 0; i < n; i++) {
		if ((first && write(out, &c, 1) != 1) || read(in, &c, 1) != 1 ||
		    (!first && write(out, &c, 1) != 1)) {
			perror("bench-loops: pingpong");
			return 1;
		}
	}
	return 0;
}

static int pingpong(long n)
{
	int ab[2], ba[2], status;
	pid_t pid;

	if (pipe(ab) || pipe(ba)) {
		perror("bench-loops: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("bench-loops: fork");
		return 1;
	}
	/* Each end closed where unused: a side that dies ends the other's read() */
	if (!pid) {
		close(ab[1]);
		close(ba[0]);
		_exit(on_cpu(1) || bounce(n, ab[0], ba[1], 0));
	}
	close(ab[0]);
	close(ba[1]);
	if (on_cpu(0) || bounce(n, ba[0], ab[1], 1)) {
		kill(pid, SIGKILL);
		return 1;
	}
	return waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	       WEXITSTATUS(status);
}

static int fork_loop(long n)
{
	int status;
	pid_t pid;
	long i;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			perror("bench-loops: fork");
			return 1;
		}
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			return 1;
	}
	return 0;
}

static int cgroups(long n, const char *dir)
{
	char path[4096];
	long i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		if (mkdir(path, 0755)) {
			perror("bench-loops: cgroups: mkdir");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		if (rmdir(path)) {
			perror("bench-loops: cgroups: rmdir");
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc == 2 && !strcmp(argv[1], "mark")) {
		asm volatile("hint #0x7f" ::: "memory");
		return 0;
	}
	if (argc == 4 && n > 0 && !strcmp(argv[1], "cgroups"))
		return cgroups(n, argv[3]);
	if (argc != 3 || n <= 0) {
		fprintf(stderr, "usage: bench-loops munmap|page_fault3|pwrite|pingpong|fork N, bench-loops cgroups N DIR, or bench-loops mark\n");
		return 2;
	}
	if (!strcmp(argv[1], "munmap"))
		return munmap_loop(n);
	if (!strcmp(argv[1], "page_fault3"))
		return page_fault3(n);
	if (!strcmp(argv[1], "pwrite"))
		return pwrite_loop(n);
	if (!strcmp(argv[1], "pingpong"))
		return pingpong(n);
	if (!strcmp(argv[1], "fork"))
		return fork_loop(n);
	fprintf(stderr, "bench-loops: no loop %s\n", argv[1]);
	return 2;
}
