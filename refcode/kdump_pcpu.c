// SPDX-License-Identifier: GPL-2.0
/*
 * Known per-CPU values for scripts/check-kdump.sh, which reads them back
 * from the vmcore with drgn (scripts/kdump-read.py): on load, each online
 * CPU writes its own copy of a static percpu variable (0x6b640000 + cpu)
 * and of a dynamic one (0x6b650000 + cpu) with this_cpu_write(), through
 * the local mapping; the reader finds them through __per_cpu_offset[].
 * The addresses are printed (%px: a test module) so the host can check
 * that drgn found the module's static variable where the kernel put it;
 * they are local addresses, in the window that guest/checks/addresses
 * wants out of the log: only guest/checks/kdump loads this module.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>

static DEFINE_PER_CPU(u32, kdump_pcpu_static);
/* The reader finds the dynamic pointer through this variable. */
static u32 __percpu *kdump_pcpu_dynamic;

static void kdump_pcpu_write(void *unused)
{
	unsigned int cpu = smp_processor_id();

	this_cpu_write(kdump_pcpu_static, 0x6b640000 + cpu);
	this_cpu_write(*kdump_pcpu_dynamic, 0x6b650000 + cpu);
}

static int __init kdump_pcpu_init(void)
{
	kdump_pcpu_dynamic = alloc_percpu(u32);
	if (!kdump_pcpu_dynamic)
		return -ENOMEM;
	on_each_cpu(kdump_pcpu_write, NULL, 1);
	pr_info("kdump_pcpu: static %px dynamic %px\n",
		&kdump_pcpu_static, kdump_pcpu_dynamic);
	return 0;
}
module_init(kdump_pcpu_init);

/* No exit: the module stays until the crash. */
MODULE_DESCRIPTION("Known per-CPU values for the kdump check");
MODULE_LICENSE("GPL");
