// SPDX-License-Identifier: GPL-2.0
/* A second file of tapc's test module: a static of the same name as one
 * of tapc_testmod.c's (two symbols "tapc_tm_dup" in the module). */
#include <linux/compiler.h>
#include "tapc_testmod.h"

static noinline int tapc_tm_dup(int x)
{
	return x * 3;
}

int tapc_tm_dup_b(int x)
{
	return tapc_tm_dup(x) + 1;
}

long tapc_tm_longs[2] = { 11, 13 };

/*
 * At -O2 gcc describes these locals, which the code never keeps, as
 * computations on the parameters the probe sees: a shift of a register,
 * a register cut to an int, a memory read times a constant, two registers
 * added, a mask, a shift right (location expressions tapc evaluates when
 * the probe hits: tapc.dwarf/exprs.stp).
 */
noinline __attribute__((__noipa__)) long tapc_tm_exprs(long x, long *p, unsigned long u)
{
	long twice = x << 3;
	int narrow = (int)x;
	long loaded = p[1] * 5;
	unsigned long masked = u & 0xff0;
	long sum = x + (long)u;
	int shrunk = (int)(u >> 4);

	tapc_tm_sink(0);
	tapc_tm_sink(1);
	(void)twice;
	(void)narrow;
	(void)loaded;
	(void)masked;
	(void)sum;
	(void)shrunk;
	return tapc_tm_sink(2);
}

/*
 * Past its second call gcc keeps neither a nor b: at -O2 it describes
 * them by the registers they came in, DW_OP_entry_value(rdi) and (rsi),
 * which a statement probe there reads as saved by a companion kprobe on
 * the function's entry (tapc.dwarf/testmod.stp).
 */
noinline __attribute__((__noipa__)) long tapc_tm_entry(long a, long b)
{
	tapc_tm_sink(a + b);
	tapc_tm_sink(a - b);
	tapc_tm_sink(0);
	return 7;
}
