// SPDX-License-Identifier: GPL-2.0
/*
 * Reference functions whose disassembly shows what one this_cpu_*()
 * operation compiles to in this kernel configuration: every operation, on
 * a dynamic pointer of every size, and a few on a static variable.
 * Nothing calls them; scripts/show-emitted-code.sh prints them and
 * scripts/check-emitted-code.py checks them, from the built module.
 */
#include <linux/module.h>
#include <linux/percpu.h>

static DEFINE_PER_CPU(unsigned long, pcpu_ref_counter);
static DEFINE_PER_CPU_ALIGNED(u128, pcpu_ref_pair);

/* One exported, never inlined function per operation and type. */
#define REF(name, ret, args, body)					\
	noinline ret pcpu_ref_##name args;				\
	noinline ret pcpu_ref_##name args { body; }			\
	EXPORT_SYMBOL_GPL(pcpu_ref_##name)

/*
 * Every operation of one family, this_cpu_*() or raw_cpu_*() (which
 * __this_cpu_*() are built on), on one type, named PFX##op_##t.  With the
 * local mapping raw_cpu_*() are on the local address too, their
 * read-modify-writes the same atomics (see asm/percpu.h).
 */
#define REF_SIZE(pfx, ops, t)						\
REF(pfx##read_##t, t, (t __percpu *p), return ops##_read(*p));		\
REF(pfx##write_##t, void, (t __percpu *p, t v), ops##_write(*p, v));	\
REF(pfx##add_##t, void, (t __percpu *p, t v), ops##_add(*p, v));	\
REF(pfx##sub_##t, void, (t __percpu *p, t v), ops##_sub(*p, v));	\
REF(pfx##inc_##t, void, (t __percpu *p), ops##_inc(*p));		\
REF(pfx##dec_##t, void, (t __percpu *p), ops##_dec(*p));		\
REF(pfx##and_##t, void, (t __percpu *p, t v), ops##_and(*p, v));	\
REF(pfx##or_##t, void, (t __percpu *p, t v), ops##_or(*p, v));		\
REF(pfx##add_return_##t, t, (t __percpu *p, t v),			\
    return ops##_add_return(*p, v));					\
REF(pfx##xchg_##t, t, (t __percpu *p, t v), return ops##_xchg(*p, v));	\
REF(pfx##cmpxchg_##t, t, (t __percpu *p, t o, t n),			\
    return ops##_cmpxchg(*p, o, n));					\
REF(pfx##try_cmpxchg_##t, bool, (t __percpu *p, t *o, t n),		\
    return ops##_try_cmpxchg(*p, o, n))

REF_SIZE(, this_cpu, u8);
REF_SIZE(, this_cpu, u16);
REF_SIZE(, this_cpu, u32);
REF_SIZE(, this_cpu, u64);
REF_SIZE(raw_, raw_cpu, u8);
REF_SIZE(raw_, raw_cpu, u16);
REF_SIZE(raw_, raw_cpu, u32);
REF_SIZE(raw_, raw_cpu, u64);

REF(raw_cmpxchg128, u128, (u128 __percpu *p, u128 o, u128 n),
    return raw_cpu_cmpxchg128(*p, o, n));

REF(cmpxchg64, u64, (u64 __percpu *p, u64 o, u64 n),
    return this_cpu_cmpxchg64(*p, o, n));
REF(cmpxchg128, u128, (u128 __percpu *p, u128 o, u128 n),
    return this_cpu_cmpxchg128(*p, o, n));
REF(try_cmpxchg128, bool, (u128 __percpu *p, u128 *o, u128 n),
    return this_cpu_try_cmpxchg128(*p, o, n));

/* The figures the series is judged by: see scripts/check-emitted-code.py */
REF(this_cpu_add, void, (unsigned long __percpu *p, unsigned long v),
    this_cpu_add(*p, v));
REF(this_cpu_inc_static, void, (void), this_cpu_inc(pcpu_ref_counter));
REF(this_cpu_read_static, unsigned long, (void),
    return this_cpu_read(pcpu_ref_counter));
REF(this_cpu_cmpxchg128_static, u128, (u128 o, u128 n),
    return this_cpu_cmpxchg128(pcpu_ref_pair, o, n));
REF(raw_cpu_inc_static, void, (void), raw_cpu_inc(pcpu_ref_counter));
REF(raw_cpu_read_static, unsigned long, (void),
    return raw_cpu_read(pcpu_ref_counter));
/* With DEBUG_PREEMPT, also a call to __this_cpu_preempt_check() */
REF(__this_cpu_inc_static, void, (void), __this_cpu_inc(pcpu_ref_counter));
REF(__this_cpu_read_static, unsigned long, (void),
    return __this_cpu_read(pcpu_ref_counter));

/*
 * Every this_cpu_*() is a compiler barrier, as 7.2's preempt_disable()
 * made each one and mainline 7.4's preemptible ones are (each clobbers
 * "memory"): pcpu_ref_plain, stored before it, is loaded again after it
 * rather than taken from a register.  The operations are on a static
 * percpu variable, which the compiler can tell from pcpu_ref_plain (a
 * dynamic pointer might point at it).
 */
static unsigned long pcpu_ref_plain;

#define REF_BARRIER(name, op)						\
REF(barrier_##name, unsigned long, (void),				\
    pcpu_ref_plain = 1; op; return pcpu_ref_plain)

REF_BARRIER(read, (void)this_cpu_read(pcpu_ref_counter));
REF_BARRIER(write, this_cpu_write(pcpu_ref_counter, 2));
REF_BARRIER(add, this_cpu_add(pcpu_ref_counter, 1));
REF_BARRIER(add_return, this_cpu_add_return(pcpu_ref_counter, 1));
REF_BARRIER(xchg, this_cpu_xchg(pcpu_ref_counter, 0));
REF_BARRIER(cmpxchg, this_cpu_cmpxchg(pcpu_ref_counter, 0, 1));
REF_BARRIER(cmpxchg128, this_cpu_cmpxchg128(pcpu_ref_pair, 0, 1));

MODULE_DESCRIPTION("this_cpu_*() reference functions for code inspection");
MODULE_LICENSE("GPL");
