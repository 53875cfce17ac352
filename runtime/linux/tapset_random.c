// SPDX-License-Identifier: GPL-2.0
/* The random tapset's kernel side: randint()'s numbers. */
#include <linux/kernel.h>
#include <linux/random.h>
#include "tap_internal.h"

long long tapset_random(long long n)
{
	u64 range = (u64)n;

	/* As SystemTap, the range is taken as unsigned; 0 gives 0. */
	if (!range)
		return 0;
	return (long long)(get_random_u64() % range);
}
