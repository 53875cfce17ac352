// SPDX-License-Identifier: GPL-2.0
/*
 * .callee probes: whether a hit of the callee comes from the caller the
 * probe was derived from (struct tap_callers, src/callee.h).
 *
 * As SystemTap checks it, by the return addresses on the stack: the
 * caller's call returns to a known address, at depth 1 of the stack at
 * the callee's entry (its pc at depth 0), and each call further out one
 * level deeper; in a .return probe the pc is the return address itself.
 * The kernel's stack is unwound as backtrace() unwinds it, a user
 * task's as ubacktrace() does (through the unwind rows of the probed
 * binary, which pass 3 places in the module for such probes).
 * -DSTAP_CALLEE_MATCHALL runs every hit, as in SystemTap.
 */
#include <linux/kernel.h>
#include "tap_internal.h"
#include "tapc_tapset.h"
#include "uunwind.h"

/* Return address @i of @k where the code is now, 0 when unknown (the
 * module of a symbol is not loaded). */
static unsigned long tap_callers_addr(struct tap_context *c, const struct tap_callers *k,
				      unsigned int i)
{
	unsigned long at;

	if (k->user)
		return k->addr[i] + tap_uprobe_bias(c);
	if (!k->modsym)
		return k->addr[i] + tap_kernel_reloc(k->reloc_ref);
	at = tap_modsym_addr(k->modsym[i]);
	return at ? at + k->addr[i] : 0;
}

bool tap_callers_match(struct tap_context *c, const struct tap_callers *k)
{
#ifdef STAP_CALLEE_MATCHALL
	return true;
#else
	unsigned long pcs[MAXBACKTRACE + 1];
	bool inexact[MAXBACKTRACE + 1];
	unsigned int first = k->at_return ? 0 : 1, want = first + k->n, got, i;

	if (want > ARRAY_SIZE(pcs))
		return false;
	got = k->user ? tap_ustack(c, pcs, inexact, want) : tap_kstack(c, pcs, want);
	if (got < want)
		return false;
	for (i = 0; i < k->n; i++) {
		unsigned long want_pc = tap_callers_addr(c, k, i);

		if (!want_pc || pcs[first + i] != want_pc)
			return false;
	}
	return true;
#endif
}
