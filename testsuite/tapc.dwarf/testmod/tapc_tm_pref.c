// SPDX-License-Identifier: GPL-2.0
/*
 * A third file of tapc's test module, the only one built with
 * -ftoplevel-reorder (the others' -fno-toplevel-reorder turns gcc's
 * interprocedural clones off).  tag is never used: gcc drops it from
 * tapc_tm_pref's clone and describes it by what each call site passed,
 * DW_OP_GNU_parameter_ref with the call sites' DW_AT_call_value (17 and
 * 23), which a probe at the clone's entry picks by the return address
 * (tapc.dwarf/testmod.stp); away from the entry, a companion kprobe on the
 * clone's entry computed it there.  tapc_tm_pfb's where is never used
 * either: each call passes the address of the caller's v[1], which the
 * call site states on the caller's frame base (DW_OP_fbreg).
 */
#include <linux/compiler.h>
#include "tapc_testmod.h"

static noinline long tapc_tm_pref(long *p, long k, long tag)
{
	tapc_tm_sink(p[0] * k);
	return p[1] + k;
}

static noinline long tapc_tm_pfb(long *p, long k, long *where)
{
	tapc_tm_sink(p[1] - k);
	return p[0] + k;
}

long tapc_tm_prefs(long n)
{
	long v[2] = { n, 3 * n };
	long s = tapc_tm_pref(v, n + 1, 17);

	s += tapc_tm_pref(v, 2 * n, 23);
	s += tapc_tm_pfb(v, n, &v[1]);
	return s + tapc_tm_sink(v[0]);
}
