// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the TLB invalidations a guest executes, by
 * kind, for make bench (issue 13: per-CPU kernel tables ask what a percpu
 * depopulate costs in TLBIs).  Under TCG the TLB itself cannot be
 * measured; the invalidations the kernel issues can.
 *
 * A TLBI is SYS with op0 = 1 and CRn = 8 (the range and outer shareable
 * forms of FEAT_TLBIRANGE / FEAT_TLBIOS too, by CRm) or 9 (the nXS forms
 * of FEAT_XS).  Each kind counted is
 * named by op1, CRn, CRm, op2, e.g. VMALLE1IS (0,8,3,0), VAALE1IS
 * (0,8,3,7), VALE1IS (0,8,3,5), RVAALE1IS (0,8,2,7).
 *
 * The guest marks the span it wants counted with HINT #0x7f, an
 * unallocated hint (a NOP), from user space (bench-loops mark): at each
 * mark the plugin prints the counts so far, "tlbi: mark N kind=count...",
 * and the instructions every vCPU has executed so far, "insns: mark N
 * COUNT" (a translation block counted whole as it starts; a halted vCPU
 * executes none, where the guest clock of -icount sleep=off runs on), and
 * the host takes differences.  At exit it prints the totals, and
 * with the argument "pcs=on" the count of each TLBI site, "tlbi: pc
 * ADDRESS kind count", for the host to name with the kernel's symbols.
 *
 * Built against QEMU's own qemu-plugin.h (scripts/tlbi-plugin.sh fetches
 * it from Debian's qemu source); run with -plugin FILE.so.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK		0xD5032FFFu	/* hint #0x7f */
#define NKINDS		(8 * 2 * 16 * 8)	/* op1, CRn 8/9, CRm, op2 */

#define NSITES		4096

static uint64_t counts[NKINDS];
static uint64_t insns;
static int marks;
static bool pcs;

/* Each TLBI instruction translated: its address, kind and executions */
static struct site {
	uint64_t pc;
	unsigned int kind;
	uint64_t count;
} sites[NSITES];
static unsigned int nsites;

static unsigned int kind(uint32_t insn)
{
	unsigned int op1 = (insn >> 16) & 7, crn = (insn >> 12) & 15;
	unsigned int crm = (insn >> 8) & 15, op2 = (insn >> 5) & 7;

	return ((op1 * 2 + (crn - 8)) * 16 + crm) * 8 + op2;
}

static void report(const char *what)
{
	char line[8192];
	size_t n;
	unsigned int k;

	n = snprintf(line, sizeof(line), "tlbi: %s", what);
	for (k = 0; k < NKINDS; k++) {
		uint64_t c = __atomic_load_n(&counts[k], __ATOMIC_RELAXED);

		if (c && n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - n, " %u.%u.%u.%u=%" PRIu64,
				      k / 256, 8 + (k / 128) % 2, (k / 8) % 16, k % 8, c);
	}
	if (n < sizeof(line) - 1)
		strcat(line, "\n");
	qemu_plugin_outs(line);
}

static void tlbi(unsigned int vcpu, void *p)
{
	struct site *site = p;

	__atomic_fetch_add(&counts[site->kind], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&site->count, 1, __ATOMIC_RELAXED);
}

/* The site of the TLBI at @pc (a TB may be translated again, and vCPUs
 * translate in parallel)
 */
static struct site *site_of(uint64_t pc, unsigned int kind)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct site *site = &sites[NSITES - 1];	/* the last one takes the rest */
	unsigned int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nsites; i++)
		if (sites[i].pc == pc && sites[i].kind == kind)
			break;
	if (i < nsites) {
		site = &sites[i];
	} else if (nsites < NSITES) {
		site = &sites[nsites++];
		site->pc = pc;
		site->kind = kind;
	}
	pthread_mutex_unlock(&lock);
	return site;
}

static void mark(unsigned int vcpu, void *unused)
{
	int n = __atomic_fetch_add(&marks, 1, __ATOMIC_RELAXED);
	char what[64];

	snprintf(what, sizeof(what), "mark %d", n);
	report(what);
	snprintf(what, sizeof(what), "insns: mark %d %" PRIu64 "\n", n,
		 __atomic_load_n(&insns, __ATOMIC_RELAXED));
	qemu_plugin_outs(what);
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	/* Not atomic: exact under -icount, whose vCPUs take turns */
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t w;

		if (qemu_plugin_insn_size(insn) != 4)
			continue;
		memcpy(&w, qemu_plugin_insn_data(insn), 4);
		if ((w & 0xFFF8E000) == 0xD5088000)	/* SYS, op0 1, CRn 8 or 9 */
			qemu_plugin_register_vcpu_insn_exec_cb(insn, tlbi, QEMU_PLUGIN_CB_NO_REGS,
					site_of(qemu_plugin_insn_vaddr(insn), kind(w)));
		else if (w == MARK)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	char line[128];
	unsigned int i, k;

	report("total");
	for (i = 0; pcs && i < nsites; i++) {
		k = sites[i].kind;
		snprintf(line, sizeof(line), "tlbi: pc %#" PRIx64 " %u.%u.%u.%u %" PRIu64 "\n",
			 sites[i].pc, k / 256, 8 + (k / 128) % 2, (k / 8) % 16, k % 8,
			 sites[i].count);
		qemu_plugin_outs(line);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "pcs=on"))
			pcs = true;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
