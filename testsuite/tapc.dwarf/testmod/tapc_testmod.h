/* SPDX-License-Identifier: GPL-2.0 */
/* tapc's test module: types its functions take (see tapc_testmod.c). */
#ifndef TAPC_TESTMOD_H
#define TAPC_TESTMOD_H

struct tapc_tm_flags {
	unsigned int ready:1;
	unsigned int mode:3;
	int delta:5;
	unsigned int wide:20;
};

union tapc_tm_val {
	long l;
	unsigned char b[8];
};

struct tapc_tm_req {
	int id;
	char name[16];
	struct tapc_tm_flags flags;
	union tapc_tm_val val;
	short arr[4];
	struct tapc_tm_req *next;
	const char *label;
};

struct tapc_tm_pair {
	long a;
	long b;
};

int tapc_tm_dup_b(int x);
long tapc_tm_sink(long v);
extern long tapc_tm_longs[2];
long tapc_tm_exprs(long x, long *p, unsigned long u);
long tapc_tm_entry(long a, long b);
long tapc_tm_prefs(long n);

#endif
