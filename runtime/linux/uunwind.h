/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User addresses and user stacks of the current task (uunwind.c): an
 * address found in the task's mappings and, when it lies in one of the
 * module's user binaries (tap_umods[]), in that binary's symbols; the
 * stack unwound through the binaries' unwind rows, by frame pointers
 * where there are none.
 */
#ifndef TAP_UUNWIND_H
#define TAP_UUNWIND_H

#include <linux/types.h>

struct tap_context;
struct pt_regs;

/* Where a user address is. */
struct tap_uloc {
	const struct tap_umod *mod;	/* NULL: in no binary of the module */
	unsigned long rel;		/* link-time address less mod->base */
	const char *sym;		/* the symbol, or NULL */
	unsigned long sym_off, sym_size;
	/* the mapped file, when the address is in one (its path in
	 * path_buf), else path is NULL */
	const char *path;
	unsigned long map_off;		/* from the file's first mapping */
	unsigned long map_size;		/* the file's mappings' extent */
	char path_buf[256];
};

/* Locate @addr in the current task; false when it is in no mapping
 * (or the task's mappings cannot be read now). */
bool tap_ulocate(unsigned long addr, struct tap_uloc *l);

/* The user registers of the hit: the event's when they are a user
 * space's, else those saved when the task entered the kernel; NULL in a
 * kernel thread. */
struct pt_regs *tap_uregs(struct tap_context *c);

/*
 * Up to @max return addresses of the current task's user stack into
 * @pcs, the current pc first; @inexact[i] says pcs[i] was found by frame
 * pointers (no unwind rows for the frame below it).  Their number.
 */
unsigned int tap_ustack(struct tap_context *c, unsigned long *pcs,
			bool *inexact, unsigned int max);

/* The module's family of "umods": finds its binaries at load. */
extern const struct tap_family tap_family_umods;

#endif
