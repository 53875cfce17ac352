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
