// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.data(ADDR|"SYMBOL")[.length(N)].write|.rw: one hardware
 * watchpoint on every CPU (register_wide_hw_breakpoint) per
 * TAP_PROBE_HWBKPT entry of tap_probes[]; the CPU that made the access
 * runs the probe with the registers of the trap, taken just after the
 * accessing instruction.
 *
 * Entry fields (src/probes/kdata.c writes them): target = the symbol, or
 * NULL when u.hwbkpt.addr is the address; u.hwbkpt.len = the bytes
 * watched (1 to 8, rounded up to what x86 watches: 1, 2, 4 or 8);
 * flags & TAP_HWBKPT_RW for reads and writes, else writes only.
 *
 * As SystemTap does, a symbol is looked up when the module starts, and a
 * symbol not found or a watchpoint the kernel refuses (the CPU has four
 * debug registers; an address not aligned to its length) is a warning in
 * SystemTap's words, and the script runs with its other probes.
 */
#include <linux/err.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "tap_internal.h"

struct tap_hwbkpt {
	const struct tap_probe *probe;
	struct perf_event * __percpu *events;	/* NULL: not registered */
};

static struct tap_hwbkpt *tap_hwbkpts;
static unsigned int tap_nhwbkpts;

static void tap_hwbkpt_hit(struct perf_event *bp, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	const struct tap_probe *p = bp->overflow_handler_context;

	tap_run_event(p, regs, user_mode(regs), NULL);
}

/* The hardware's length for @len bytes: the next it has. */
static int tap_hwbkpt_len(int len)
{
	if (len <= 1)
		return HW_BREAKPOINT_LEN_1;
	if (len == 2)
		return HW_BREAKPOINT_LEN_2;
	if (len <= 4)
		return HW_BREAKPOINT_LEN_4;
	return HW_BREAKPOINT_LEN_8;
}

static void tap_hwbkpt_register(struct tap_hwbkpt *h)
{
	const struct tap_probe *p = h->probe;
	unsigned long addr = p->target ? tap_kernel_symbol(p->target) : p->u.hwbkpt.addr;
	struct perf_event * __percpu *events;
	struct perf_event_attr attr;

	if (!addr) {
		tap_errmsg("WARNING: Probe %s registration skipped: invalid symbol %s \n",
			   p->pp, p->target);
		return;
	}
	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_len = tap_hwbkpt_len(p->u.hwbkpt.len);
	attr.bp_type = (p->flags & TAP_HWBKPT_RW) ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
	events = register_wide_hw_breakpoint(&attr, tap_hwbkpt_hit, (void *)p);
	if (IS_ERR_OR_NULL(events)) {
		/* SystemTap's words: the address as %p of what the script
		 * gave (NULL for a symbol), the symbol or "(null)" */
		tap_errmsg("WARNING: Hwbkpt probe %s: registration error [man warning::pass5] %d, addr %p, name %s\n",
			   p->pp, events ? (int)PTR_ERR(events) : -ENOSYS,
			   (void *)p->u.hwbkpt.addr, p->target);
		return;
	}
	h->events = events;
}

static int tap_hwbkpts_init(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_HWBKPT)
			n++;
	if (!n)
		return 0;
	tap_hwbkpts = kcalloc(n, sizeof(*tap_hwbkpts), GFP_KERNEL);
	if (!tap_hwbkpts)
		return -ENOMEM;
	for (i = 0; i < tap_nprobes; i++)
		if (tap_probes[i].kind == TAP_PROBE_HWBKPT)
			tap_hwbkpts[tap_nhwbkpts++].probe = &tap_probes[i];
	for (i = 0; i < tap_nhwbkpts; i++)
		tap_hwbkpt_register(&tap_hwbkpts[i]);
	return 0;
}

/*
 * A hit runs in the debug exception with interrupts off, which the RCU
 * grace period after the last unregistration waits for: then no handler
 * runs any more.
 */
static void tap_hwbkpts_stop(void)
{
	unsigned int i;

	if (!tap_nhwbkpts)
		return;
	for (i = 0; i < tap_nhwbkpts; i++)
		if (tap_hwbkpts[i].events)
			unregister_wide_hw_breakpoint(tap_hwbkpts[i].events);
	synchronize_rcu();
	kfree(tap_hwbkpts);
	tap_hwbkpts = NULL;
	tap_nhwbkpts = 0;
}

const struct tap_family tap_family_hwbkpt = {
	.name = "hwbkpt",
	.init = tap_hwbkpts_init,
	.stop = tap_hwbkpts_stop,
};
