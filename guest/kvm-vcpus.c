// SPDX-License-Identifier: GPL-2.0
/*
 * guest/checks/kvm's program: a minimal VMM.  One VM with a vCPU for each
 * online CPU, each run by a thread of its own that moves to the next CPU
 * every MOVE_EVERY exits, so that every CPU enters and leaves the guest
 * (the world switch: with VHE the host kernel stays on its own table at
 * EL2; with nVHE the hypervisor runs on its own tables and per-CPU data,
 * and the host's TTBR1 must be the CPU's own on return) and every vCPU is
 * loaded on every CPU.
 *
 * The guest, at EL1 with its MMU off, stores a counter to an address that
 * no memory slot holds, in a loop: each store is an MMIO exit to this
 * program, which checks its address (the vCPU's own) and value (the next
 * count), and, at the end, that each vCPU ran on every CPU.
 *
 * usage: kvm-vcpus [EXITS]   (per vCPU; 2000 by default)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_VCPUS	64
#define MOVE_EVERY	50
#define RAM_BASE	0x80000000UL
#define RAM_SIZE	0x10000UL
#define MMIO_BASE	0x10000000UL

#define CORE_REG(r)	(KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
			 (offsetof(struct kvm_regs, r) / sizeof(__u32)))

/* x0 holds the vCPU's MMIO address, x1 the count (0 after KVM_ARM_VCPU_INIT) */
static const uint32_t guest_code[] = {
	0xf9000001,	/* 1: str x1, [x0] */
	0x91000421,	/*    add x1, x1, #1 */
	0x17fffffe,	/*    b 1b */
};

struct vcpu {
	int index;
	int fd;
	struct kvm_run *run;
	pthread_t thread;
	uint64_t ran_on;	/* a bit per entry of cpus[], as sched_getcpu() saw */
	int failed;
};

static int vm, ncpus, cpus[MAX_VCPUS];
static long exits = 2000;
static struct vcpu vcpus[MAX_VCPUS];

static int set_reg(int fd, uint64_t id, uint64_t val)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uintptr_t)&val };

	return ioctl(fd, KVM_SET_ONE_REG, &reg);
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *run_vcpu(void *arg)
{
	struct vcpu *v = arg;
	struct kvm_run *r = v->run;
	uint64_t want = 0, got, addr = MMIO_BASE + 8 * v->index;
	int i, j, cpu, slot;

	for (i = 0; i < exits; i++) {
		if (i % MOVE_EVERY == 0) {
			slot = (v->index + i / MOVE_EVERY) % ncpus;
			if (pin(cpus[slot])) {
				perror("kvm: sched_setaffinity");
				break;
			}
		}
		if (ioctl(v->fd, KVM_RUN, 0)) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			fprintf(stderr, "kvm: vCPU %d: KVM_RUN: %s\n", v->index, strerror(errno));
			break;
		}
		cpu = sched_getcpu();
		for (j = 0; j < ncpus; j++)
			if (cpus[j] == cpu)
				v->ran_on |= 1ULL << j;
		got = 0;
		if (r->exit_reason == KVM_EXIT_MMIO)
			memcpy(&got, r->mmio.data, sizeof(got));
		if (r->exit_reason != KVM_EXIT_MMIO || !r->mmio.is_write ||
		    r->mmio.len != 8 || r->mmio.phys_addr != addr || got != want) {
			fprintf(stderr, "kvm: vCPU %d, exit %d: reason %u, write %u of %u bytes at %#llx of %#llx; expected the write of %#llx at %#llx\n",
				v->index, i, r->exit_reason, r->mmio.is_write, r->mmio.len,
				(unsigned long long)r->mmio.phys_addr, (unsigned long long)got,
				(unsigned long long)want, (unsigned long long)addr);
			break;
		}
		want++;
	}
	v->failed = i < exits;
	return NULL;
}

int main(int argc, char **argv)
{
	struct kvm_userspace_memory_region region;
	struct kvm_vcpu_init init;
	int kvm, cpu, i, failed = 0;
	long run_size;
	cpu_set_t online;
	void *ram;

	/* A line at a time: guest/init pipes a check's output through tee */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		exits = atol(argv[1]);
	if (sched_getaffinity(0, sizeof(online), &online)) {
		perror("kvm: sched_getaffinity");
		return 1;
	}
	if (CPU_COUNT(&online) > MAX_VCPUS) {
		fprintf(stderr, "kvm: more than %d CPUs online\n", MAX_VCPUS);
		return 1;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &online))
			cpus[ncpus++] = cpu;
	if (exits < (long)MOVE_EVERY * ncpus) {
		fprintf(stderr, "kvm: %ld exits cannot take each vCPU to all %d CPUs\n",
			exits, ncpus);
		return 1;
	}

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0) {
		perror("kvm: /dev/kvm");
		return 1;
	}
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		fprintf(stderr, "kvm: unexpected KVM API version\n");
		return 1;
	}
	run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0 || run_size <= 0) {
		perror("kvm: KVM_CREATE_VM");
		return 1;
	}

	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ram == MAP_FAILED) {
		perror("kvm: mmap");
		return 1;
	}
	memcpy(ram, guest_code, sizeof(guest_code));
	region = (struct kvm_userspace_memory_region){
		.slot = 0,
		.guest_phys_addr = RAM_BASE,
		.memory_size = RAM_SIZE,
		.userspace_addr = (uintptr_t)ram,
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) ||
	    ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init)) {
		perror("kvm: memory region or preferred target");
		return 1;
	}

	for (i = 0; i < ncpus; i++) {
		struct vcpu *v = &vcpus[i];

		v->index = i;
		v->fd = ioctl(vm, KVM_CREATE_VCPU, i);
		if (v->fd < 0 || ioctl(v->fd, KVM_ARM_VCPU_INIT, &init) ||
		    set_reg(v->fd, CORE_REG(regs.pc), RAM_BASE) ||
		    set_reg(v->fd, CORE_REG(regs.regs[0]), MMIO_BASE + 8 * i)) {
			fprintf(stderr, "kvm: vCPU %d: %s\n", i, strerror(errno));
			return 1;
		}
		v->run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
		if (v->run == MAP_FAILED) {
			perror("kvm: mmap of kvm_run");
			return 1;
		}
	}
	for (i = 0; i < ncpus; i++)
		if (pthread_create(&vcpus[i].thread, NULL, run_vcpu, &vcpus[i])) {
			fprintf(stderr, "kvm: cannot start vCPU %d's thread\n", i);
			return 1;
		}
	for (i = 0; i < ncpus; i++) {
		struct vcpu *v = &vcpus[i];
		int visited;

		pthread_join(v->thread, NULL);
		visited = __builtin_popcountll(v->ran_on);
		if (v->failed || visited != ncpus) {
			fprintf(stderr, "kvm: vCPU %d failed or ran on %d of %d CPUs\n",
				i, visited, ncpus);
			failed++;
		}
	}
	printf("kvm: %d vCPUs, %ld MMIO exits each, every vCPU on each of %d CPUs: %s\n",
	       ncpus, exits, ncpus, failed ? "FAILED" : "ok");
	return failed != 0;
}
