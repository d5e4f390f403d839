// SPDX-License-Identifier: GPL-2.0
/*
 * Reference functions whose disassembly shows what one this_cpu_*()
 * operation compiles to in this kernel configuration.  Nothing calls them;
 * scripts/show-emitted-code.sh prints them from the built module.
 */
#include <linux/module.h>
#include <linux/percpu.h>

static DEFINE_PER_CPU(unsigned long, pcpu_ref_counter);

void pcpu_ref_this_cpu_add(unsigned long __percpu *p, unsigned long v);
void pcpu_ref_this_cpu_inc_static(void);
unsigned long pcpu_ref_this_cpu_read(unsigned long __percpu *p);

noinline void pcpu_ref_this_cpu_add(unsigned long __percpu *p, unsigned long v)
{
	this_cpu_add(*p, v);
}
EXPORT_SYMBOL_GPL(pcpu_ref_this_cpu_add);

noinline void pcpu_ref_this_cpu_inc_static(void)
{
	this_cpu_inc(pcpu_ref_counter);
}
EXPORT_SYMBOL_GPL(pcpu_ref_this_cpu_inc_static);

noinline unsigned long pcpu_ref_this_cpu_read(unsigned long __percpu *p)
{
	return this_cpu_read(*p);
}
EXPORT_SYMBOL_GPL(pcpu_ref_this_cpu_read);

MODULE_DESCRIPTION("this_cpu_*() reference functions for code inspection");
MODULE_LICENSE("GPL");
