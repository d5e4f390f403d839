// SPDX-License-Identifier: GPL-2.0
/*
 * guest/checks/bpf_percpu's program: a BPF program on a per-CPU array map,
 * run by the JIT on each online CPU in turn.
 *
 * The verifier inlines bpf_map_lookup_elem() on a per-CPU array into a
 * BPF_MOV64_PERCPU_REG instruction, which the arm64 JIT turns into its own
 * "mrs tpidr_el1 (or tpidr_el2); add": per-CPU address arithmetic outside
 * asm/percpu.h, on the map's percpu pointer.  The program counts its runs
 * in its CPU's slot and stores the CPU number it runs on there; each CPU's
 * slot must then hold its own runs and number, and no other CPU's.  It
 * guards that arithmetic (the percpu pointer plus TPIDR's offset, the same
 * as per_cpu_ptr()), not the window, which the JIT never uses.
 *
 * No libbpf in the guest: the bpf() system call, with the instructions
 * written out.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RUNS 100

struct slot {
	uint64_t runs;
	uint64_t cpu_plus_one;
};

static int bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

static int load(int map)
{
	struct bpf_insn prog[] = {
		/* u32 key = 0 on the stack */
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 7, 0),
		/* slot->runs++ */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_0, 0, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_6, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_6, BPF_REG_1, 0, 0),
		/* slot->cpu_plus_one = bpf_get_smp_processor_id() + 1 */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_smp_processor_id),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_0, 0, 0, 1),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_6, BPF_REG_0, 8, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static char log[65536];
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SYSCALL;
	a.prog_flags = BPF_F_SLEEPABLE;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		perror("bpf_percpu: BPF_PROG_LOAD");
		fputs(log, stderr);
	}
	return fd;
}

/* The program as the verifier left it has the inlined per-CPU lookup, and
 * the JIT compiled it.
 */
static int check_inlined(int prog)
{
	struct bpf_insn xlated[64];
	struct bpf_prog_info info;
	union bpf_attr a;
	unsigned int i, n;
	int found = 0;

	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = sizeof(xlated);
	info.xlated_prog_insns = (uintptr_t)xlated;
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uintptr_t)&info;
	if (bpf(BPF_OBJ_GET_INFO_BY_FD, &a)) {
		perror("bpf_percpu: BPF_OBJ_GET_INFO_BY_FD");
		return -1;
	}
	n = info.xlated_prog_len / sizeof(xlated[0]);
	if (n > sizeof(xlated) / sizeof(xlated[0]))
		n = sizeof(xlated) / sizeof(xlated[0]);
	/* BPF_MOV64_PERCPU_REG: a register move with off BPF_ADDR_PERCPU */
	for (i = 0; i < n; i++)
		if (xlated[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) && xlated[i].off == -1)
			found = 1;
	printf("bpf_percpu: %u instructions after the verifier, %u bytes of JIT code, per-CPU lookup %s\n",
	       n, info.jited_prog_len, found ? "inlined" : "not inlined");
	if (!info.jited_prog_len || !found)
		return -1;
	return 0;
}

/*
 * The possible CPUs, as the kernel lays out a per-CPU map's values: one
 * value per possible CPU, in order.  @slot[cpu] is its place, -1 if none.
 */
static int possible_cpus(int *slot, int max)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int a, b, n = 0, cpu;
	char sep;

	for (cpu = 0; cpu < max; cpu++)
		slot[cpu] = -1;
	if (!f)
		return -1;
	while (fscanf(f, "%d", &a) == 1) {
		b = a;
		sep = fgetc(f);
		if (sep == '-') {
			if (fscanf(f, "%d", &b) != 1)
				break;
			sep = fgetc(f);
		}
		for (cpu = a; cpu <= b && cpu < max; cpu++)
			slot[cpu] = n++;
		if (sep != ',')
			break;
	}
	fclose(f);
	return n;
}

#define MAX_CPUS 4096

int main(void)
{
	static int slot[MAX_CPUS];
	int ncpus = possible_cpus(slot, MAX_CPUS);
	int map, prog, cpu, i, bad = 0, ran = 0;
	uint32_t key = 0;
	struct slot *slots;
	union bpf_attr a;
	cpu_set_t set;

	/* A line at a time: guest/init pipes a check's output through tee */
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
	a.key_size = sizeof(key);
	a.value_size = sizeof(struct slot);
	a.max_entries = 1;
	map = bpf(BPF_MAP_CREATE, &a);
	if (map < 0) {
		perror("bpf_percpu: BPF_MAP_CREATE");
		return 1;
	}
	if (ncpus <= 0) {
		fprintf(stderr, "bpf_percpu: cannot read the possible CPUs\n");
		return 1;
	}
	prog = load(map);
	if (prog < 0 || check_inlined(prog))
		return 1;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (slot[cpu] < 0)
			continue;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;	/* offline */
		for (i = 0; i < RUNS; i++) {
			memset(&a, 0, sizeof(a));
			a.test.prog_fd = prog;
			if (bpf(BPF_PROG_TEST_RUN, &a)) {
				perror("bpf_percpu: BPF_PROG_TEST_RUN");
				return 1;
			}
		}
		ran++;
	}

	/* One value per possible CPU */
	slots = calloc(ncpus, sizeof(*slots));
	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)slots;
	if (!slots || bpf(BPF_MAP_LOOKUP_ELEM, &a)) {
		perror("bpf_percpu: BPF_MAP_LOOKUP_ELEM");
		return 1;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct slot *v;
		uint64_t runs, id;
		int online;

		if (slot[cpu] < 0)
			continue;
		v = &slots[slot[cpu]];
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		online = !sched_setaffinity(0, sizeof(set), &set);
		runs = online ? RUNS : 0;
		id = online ? cpu + 1 : 0;
		if (v->runs != runs || v->cpu_plus_one != id) {
			printf("bpf_percpu: CPU %d's slot holds %llu runs by CPU %lld, not %llu by CPU %lld\n",
			       cpu, (unsigned long long)v->runs,
			       (long long)v->cpu_plus_one - 1,
			       (unsigned long long)runs, (long long)id - 1);
			bad++;
		}
	}
	printf("bpf_percpu: %d CPUs ran the program %d times each, %d slots wrong\n",
	       ran, RUNS, bad);
	return bad || !ran;
}
