// SPDX-License-Identifier: GPL-2.0
/*
 * The memory tapset's kernel side: GFP flags and page-fault results as
 * SystemTap spells them, the NUMA node of a kernel address, and the
 * resident pages of a process as the kernel counts them.  The flag
 * values come from the headers this runtime is built against, so they
 * follow the kernel, not a copy of its numbers.
 */
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "tap_internal.h"

struct gfp_name {
	gfp_t mask;
	const char *name;
};

#define GFP_NAME(flag) { (__force gfp_t)(flag), #flag }

/* Whole values printed alone, as SystemTap tries them: first match wins. */
static const struct gfp_name gfp_composites[] = {
	GFP_NAME(GFP_ZONEMASK),
	GFP_NAME(GFP_ATOMIC),
	GFP_NAME(GFP_NOIO),
	GFP_NAME(GFP_NOFS),
	GFP_NAME(GFP_KERNEL),
	/* GFP_TEMPORARY is gone from the kernel; SystemTap defines it so */
	{ __GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_RECLAIMABLE, "GFP_TEMPORARY" },
	GFP_NAME(GFP_USER),
	GFP_NAME(GFP_HIGHUSER),
	GFP_NAME(GFP_HIGHUSER_MOVABLE),
#ifdef CONFIG_NUMA
	{ __GFP_THISNODE | __GFP_NOWARN | __GFP_NORETRY, "GFP_THISNODE" },
#endif
	GFP_NAME(GFP_DMA),
	GFP_NAME(GFP_DMA32),
};

/*
 * Else each bit, in SystemTap's order, joined by " | ".  "__GFP_WAIT" is
 * SystemTap's name for the reclaim bits (__GFP_RECLAIM) since the kernel
 * dropped __GFP_WAIT; a flag this kernel defines as 0 never shows.
 */
static const struct gfp_name gfp_bits[] = {
	GFP_NAME(__GFP_DMA),
	GFP_NAME(__GFP_HIGHMEM),
	GFP_NAME(__GFP_DMA32),
	GFP_NAME(__GFP_MOVABLE),
	GFP_NAME(__GFP_RECLAIMABLE),
	{ __GFP_RECLAIM, "__GFP_WAIT" },
	GFP_NAME(__GFP_HIGH),
	GFP_NAME(__GFP_IO),
	GFP_NAME(__GFP_FS),
	GFP_NAME(__GFP_NOWARN),
	GFP_NAME(__GFP_RETRY_MAYFAIL),
	GFP_NAME(__GFP_NOFAIL),
	GFP_NAME(__GFP_NORETRY),
	GFP_NAME(__GFP_MEMALLOC),
	GFP_NAME(__GFP_COMP),
	GFP_NAME(__GFP_ZERO),
	GFP_NAME(__GFP_NOMEMALLOC),
	GFP_NAME(__GFP_HARDWALL),
	GFP_NAME(__GFP_THISNODE),
#ifdef ___GFP_ATOMIC
	GFP_NAME(__GFP_ATOMIC),
#endif
	GFP_NAME(__GFP_ACCOUNT),
	GFP_NAME(__GFP_DIRECT_RECLAIM),
	GFP_NAME(__GFP_WRITE),
	GFP_NAME(__GFP_KSWAPD_RECLAIM),
	GFP_NAME(__GFP_NOLOCKDEP),
};

void tapset_gfp_flag_str(char *out, long long flags)
{
	gfp_t gfp = (__force gfp_t)(unsigned int)flags;
	size_t i;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(gfp_composites); i++) {
		if (gfp == gfp_composites[i].mask) {
			strscpy(out, gfp_composites[i].name, MAXSTRINGLEN);
			return;
		}
	}
	for (i = 0; i < ARRAY_SIZE(gfp_bits); i++) {
		if (!(gfp & gfp_bits[i].mask))
			continue;
		if (out[0])
			strlcat(out, " | ", MAXSTRINGLEN);
		strlcat(out, gfp_bits[i].name, MAXSTRINGLEN);
	}
}

/*
 * vm_fault_contains(): @test is one of SystemTap's VM_FAULT_* numbers
 * (OOM 0, SIGBUS 1, MINOR 2, MAJOR 3, NOPAGE 4, LOCKED 5, ERROR 6); a
 * minor fault is one that is none of OOM, SIGBUS and MAJOR (the kernel
 * has had no VM_FAULT_MINOR bit since it became 0).
 */
long long tapset_vm_fault_contains(long long value, long long test)
{
	vm_fault_t v = (vm_fault_t)value;

	switch (test) {
	case 0:
		return !!(v & VM_FAULT_OOM);
	case 1:
		return !!(v & VM_FAULT_SIGBUS);
	case 2:
		return !(v & (VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_MAJOR));
	case 3:
		return !!(v & VM_FAULT_MAJOR);
	case 4:
		return !!(v & VM_FAULT_NOPAGE);
	case 5:
		return !!(v & VM_FAULT_LOCKED);
	case 6:
		return !!(v & VM_FAULT_ERROR);
	default:
		return 0;
	}
}

/* The NUMA node whose memory holds kernel address @addr. */
long long tapset_addr_to_node(struct tap_context *c, long long addr)
{
	void *p = (void *)(unsigned long)addr;

	if (!virt_addr_valid(p)) {
		tap_errorf(c, "invalid kernel virtual address 0x%lx",
			   (unsigned long)addr);
		return 0;
	}
	return page_to_nid(virt_to_page(p));
}

long long tapset_page_size(void)
{
	return PAGE_SIZE;
}

long long tapset_gfp_kernel(void)
{
	return (__force unsigned int)GFP_KERNEL;
}

/* x86-64 has one zero page for every address; ZERO_PAGE() still takes
 * the address, for the architectures that colour theirs */
long long tapset_is_zero_page(long long page, long long vaddr)
{
	return (unsigned long)page == (unsigned long)ZERO_PAGE((unsigned long)vaddr);
}

/*
 * Pages of counter @member (MM_FILEPAGES ...) that the current task has
 * counted but not yet added to its mm's (SPLIT_RSS_COUNTING: the kernel
 * adds them every 64 faults), so that the current process's resident
 * size is exact; 0 for any other mm, whose counts the kernel keeps.
 */
long long tapset_mm_counter_pending(long long mm, long long member)
{
#ifdef SPLIT_RSS_COUNTING
	if (member < 0 || member >= NR_MM_COUNTERS || !current->mm ||
	    (unsigned long)current->mm != (unsigned long)mm)
		return 0;
	return current->rss_stat.count[member];
#else
	return 0;
#endif
}
