// SPDX-License-Identifier: GPL-2.0
/*
 * The guest side of "make bench": what this_cpu_*() and the percpu
 * allocator cost.  QEMU runs the guest with -icount shift=0, where the
 * guest clock advances one nanosecond per instruction executed, so every
 * figure printed here is a count of guest instructions, not a time.
 *
 * ops:   every this_cpu_*() operation and size, on a static and on a
 *        dynamic variable, LOOPS times; the cost of an empty loop is
 *        subtracted.  Prints "pcpu_bench: op NAME SIZE static|dynamic X"
 *        with X in instructions per operation, to two decimals.
 * api:   the two percpu users of the upstream reports, LOOPS times:
 *        a percpu-rwsem read lock and unlock (this_cpu_inc() and
 *        this_cpu_dec() of its read_count, inside the preempt_disable()
 *        of its own fast path, so only the nested one goes) and
 *        percpu_counter_add() of 1 (on arm64, HAVE_CMPXCHG_LOCAL: a
 *        this_cpu_read() and a this_cpu_try_cmpxchg() loop, the lock
 *        taken once a batch).  Interrupts stay on, since
 *        percpu_down_read() may sleep.  Prints "pcpu_bench: op NAME 0
 *        api X".
 * alloc: the workload of the bitmap allocator series (lore, "percpu:
 *        replace percpu area map allocator with bitmap allocator"): OBJS
 *        objects of 4, 16, 64, 128 and 1024 bytes, freed in order,
 *        alternately (even ones, then odd ones) and in reverse.  Prints
 *        "pcpu_bench: alloc SIZE ORDER ALLOC FREE", instructions in all.
 *
 * The module does its work at load time; guest/checks/bench unloads it.
 */
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/percpu-rwsem.h>
#include <linux/percpu_counter.h>
#include <linux/vmalloc.h>

static unsigned int loops = 100000;
module_param(loops, uint, 0444);
static unsigned int objs = 65536;
module_param(objs, uint, 0444);

struct bench_vars {
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64;
	u128 v128;
};

static DEFINE_PER_CPU_ALIGNED(struct bench_vars, bench_static);

static u64 empty_loop(void)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < loops; i++)
		barrier();
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

static void report(const char *name, int size, const char *kind, u64 ns,
		   u64 empty)
{
	u64 per100 = ns > empty ? (ns - empty) * 100 / loops : 0;

	pr_info("pcpu_bench: op %s %d %s %llu.%02llu\n", name, size, kind,
		per100 / 100, per100 % 100);
}

/* LOOPS runs of @stmt (which may use the index __i) into @ns */
#define BENCH_LOOP(ns, stmt) do {					\
	unsigned int __i;						\
	u64 __t0 = ktime_get_ns();					\
									\
	for (__i = 0; __i < loops; __i++) {				\
		stmt;							\
		barrier();						\
	}								\
	ns = ktime_get_ns() - __t0;					\
} while (0)

/*
 * Time LOOPS runs of @stmt on @v, a percpu lvalue.  Interrupts are off so
 * that the figure is the operation's own; the operation's instructions are
 * the same with them on.
 */
#define BENCH_OP(name, v, kind, stmt) do {				\
	unsigned long __flags;						\
	u64 __ns;							\
									\
	local_irq_save(__flags);					\
	BENCH_LOOP(__ns, stmt);						\
	local_irq_restore(__flags);					\
	report(name, sizeof(v), kind, __ns, empty);			\
} while (0)

#define BENCH_SIZE(v, kind) do {					\
	typeof(v) __o = 0;						\
									\
	BENCH_OP("read", v, kind, (void)this_cpu_read(v));		\
	BENCH_OP("write", v, kind, this_cpu_write(v, __i));		\
	BENCH_OP("add", v, kind, this_cpu_add(v, __i));			\
	BENCH_OP("inc", v, kind, this_cpu_inc(v));			\
	BENCH_OP("add_return", v, kind,					\
		 (void)this_cpu_add_return(v, 3));			\
	BENCH_OP("and", v, kind, this_cpu_and(v, ~(typeof(v))4));	\
	BENCH_OP("or", v, kind, this_cpu_or(v, 4));			\
	BENCH_OP("xchg", v, kind, (void)this_cpu_xchg(v, __i));		\
	BENCH_OP("cmpxchg", v, kind, (void)this_cpu_cmpxchg(v, 0, 1));	\
	BENCH_OP("try_cmpxchg", v, kind,				\
		 (void)this_cpu_try_cmpxchg(v, &__o, __o + 1));		\
	BENCH_OP("raw_add", v, kind, raw_cpu_add(v, __i));		\
} while (0)

static void bench_ops(struct bench_vars __percpu *p, const char *kind)
{
	u64 empty = empty_loop();
	u128 o = 0;

	BENCH_SIZE(p->v8, kind);
	BENCH_SIZE(p->v16, kind);
	BENCH_SIZE(p->v32, kind);
	BENCH_SIZE(p->v64, kind);
	BENCH_OP("cmpxchg128", p->v128, kind,
		 (void)this_cpu_cmpxchg128(p->v128, 0, 1));
	BENCH_OP("try_cmpxchg128", p->v128, kind,
		 (void)this_cpu_try_cmpxchg128(p->v128, &o, o + 1));
}

DEFINE_STATIC_PERCPU_RWSEM(bench_rwsem);

/* As BENCH_OP, interrupts on: the timer's ticks are in the figure */
#define BENCH_API(name, stmt) do {					\
	u64 __ns;							\
									\
	BENCH_LOOP(__ns, stmt);						\
	report(name, 0, "api", __ns, empty);				\
} while (0)

static struct percpu_counter bench_counter;

static int bench_api(void)
{
	u64 empty = empty_loop();
	int ret;

	BENCH_API("rwsem_read", ({ percpu_down_read(&bench_rwsem);
				   percpu_up_read(&bench_rwsem); }));
	ret = percpu_counter_init(&bench_counter, 0, GFP_KERNEL);
	if (ret)
		return ret;
	BENCH_API("counter_add", percpu_counter_add(&bench_counter, 1));
	if (percpu_counter_sum(&bench_counter) != loops) {
		pr_err("pcpu_bench: percpu_counter lost a count\n");
		ret = -EINVAL;
	}
	percpu_counter_destroy(&bench_counter);
	return ret;
}

static const char * const orders[] = { "inorder", "alternate", "reverse" };

static void bench_alloc(void __percpu **v, size_t size, int order)
{
	u64 t0, t_alloc, t_free;
	unsigned int i;

	t0 = ktime_get_ns();
	for (i = 0; i < objs; i++) {
		v[i] = __alloc_percpu(size, 4);
		if (!v[i])
			break;
	}
	t_alloc = ktime_get_ns() - t0;
	if (i < objs) {
		pr_err("pcpu_bench: alloc %zu: out of memory at %u\n", size, i);
		objs = i;
	}

	t0 = ktime_get_ns();
	switch (order) {
	case 0:
		for (i = 0; i < objs; i++)
			free_percpu(v[i]);
		break;
	case 1:
		for (i = 0; i < objs; i += 2)
			free_percpu(v[i]);
		for (i = 1; i < objs; i += 2)
			free_percpu(v[i]);
		break;
	default:
		for (i = objs; i-- > 0;)
			free_percpu(v[i]);
		break;
	}
	t_free = ktime_get_ns() - t0;
	pr_info("pcpu_bench: alloc %zu %s %llu %llu\n", size, orders[order],
		t_alloc, t_free);
}

static int __init pcpu_bench_init(void)
{
	static const size_t sizes[] = { 4, 16, 64, 128, 1024 };
	struct bench_vars __percpu *dyn;
	void __percpu **v;
	int s, o;

	dyn = alloc_percpu(struct bench_vars);
	if (!dyn)
		return -ENOMEM;
	bench_ops(&bench_static, "static");
	bench_ops(dyn, "dynamic");
	free_percpu(dyn);
	if (bench_api())
		return -EINVAL;

	v = vmalloc_array(objs, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (s = 0; s < ARRAY_SIZE(sizes); s++)
		for (o = 0; o < ARRAY_SIZE(orders); o++)
			bench_alloc(v, sizes[s], o);
	vfree(v);

	pr_info("pcpu_bench: done\n");
	return 0;
}
module_init(pcpu_bench_init);

static void __exit pcpu_bench_exit(void)
{
}
module_exit(pcpu_bench_exit);

MODULE_DESCRIPTION("this_cpu_*() and percpu allocator benchmark");
MODULE_LICENSE("GPL");
