// SPDX-License-Identifier: GPL-2.0
/*
 * tapc's test module: functions and data whose values the tests in
 * testsuite/tapc.dwarf/testmod_*.stp know exactly.  Writing a number N to
 * /proc/tapc_testmod runs tapc_tm_run(N) once.  The line numbers of this
 * file are named by the tests (kernel.statement, pp()): keep them.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include "tapc_testmod.h"

#define TAPC_TM_KEEP noinline __attribute__((__noipa__))

int tapc_tm_global = 42;
static unsigned long tapc_tm_calls;
static char tapc_tm_banner[16] = "tapc-banner";
static int tapc_tm_noted;
long tapc_tm_last;

static struct tapc_tm_req tapc_tm_first = {
	.id = 7,
	.name = "first",
	.label = "tail",
};

TAPC_TM_KEEP long tapc_tm_add(int a, long b)
{
	return a + b;
}

TAPC_TM_KEEP long tapc_tm_handle(struct tapc_tm_req *req, long scale)
{
	long total;

	total = req->id * scale;
	total += req->flags.mode;
	return total;
}

static __always_inline void tapc_tm_note(int x)
{
	WRITE_ONCE(tapc_tm_noted, READ_ONCE(tapc_tm_noted) + x);
}

static TAPC_TM_KEEP int tapc_tm_dup(int x)
{
	return x * 2;
}

/* At -O2, p lives in two registers: a DW_OP_piece location. */
TAPC_TM_KEEP long tapc_tm_sink(long v)
{
	return v;
}

TAPC_TM_KEEP long tapc_tm_pair(long x, long y)
{
	struct tapc_tm_pair p = { x + 1, y * 2 };

	tapc_tm_sink(p.a);
	tapc_tm_sink(p.b);
	return p.a - p.b;
}

static TAPC_TM_KEEP void tapc_tm_run(int n)
{
	struct tapc_tm_req r = {
		.id = n,
		.flags = { .ready = 1, .mode = 5, .delta = -3, .wide = 0x12345 },
		.val.l = 0x0102030405060708L,
		.arr = { 10, -20, 30, -40 },
		.next = &tapc_tm_first,
		.label = "hello",
	};
	long sum;

	snprintf(r.name, sizeof(r.name), "req-%d", n);
	tapc_tm_calls++;
	sum = tapc_tm_handle(&r, 10L * n);
	sum += tapc_tm_add(n, 100);
	tapc_tm_note(n);
	sum += tapc_tm_dup(n) + tapc_tm_dup_b(n);
	sum += tapc_tm_pair(n, 4);
	sum += tapc_tm_exprs(n, tapc_tm_longs, 0x1234UL * n);
	sum += tapc_tm_entry(n, 7L * n);
	sum += tapc_tm_prefs(n);
	WRITE_ONCE(tapc_tm_last, sum);
}

static ssize_t tapc_tm_write(struct file *file, const char __user *buf, size_t len,
			     loff_t *pos)
{
	int n, ret = kstrtoint_from_user(buf, len, 10, &n);

	if (ret)
		return ret;
	tapc_tm_run(n);
	return len;
}

static const struct proc_ops tapc_tm_ops = {
	.proc_write = tapc_tm_write,
};

static int __init tapc_tm_init(void)
{
	if (!proc_create("tapc_testmod", 0200, NULL, &tapc_tm_ops))
		return -ENOMEM;
	pr_info("tapc_testmod: %s\n", tapc_tm_banner);
	return 0;
}

static void __exit tapc_tm_exit(void)
{
	remove_proc_entry("tapc_testmod", NULL);
}

module_init(tapc_tm_init);
module_exit(tapc_tm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc's test module for DWARF module probes");
