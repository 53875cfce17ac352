// SPDX-License-Identifier: GPL-2.0
/*
 * Context facts for the tapset (ctxinfo.stp, namespaces.stp, pn.stp):
 * the register dump of print_regs(), the kernel stack's size and use,
 * the low-level kind of the running probe, its script-level name, the
 * word sizes of kernel and task, regparm(), ktime_get_ns() and the
 * namespace ids of the current task, in SystemTap's formats.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/asm.h>
#include <asm/msr.h>
#include <asm/segment.h>
#include <asm/special_insns.h>
#include "tap_internal.h"

/* ---- print_regs() ------------------------------------------------------- */

static void regs_line(struct tap_context *c, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	tap_print(c, line);
}

/*
 * The hit's registers, then the segment selectors, bases and control
 * registers of this CPU now, in SystemTap's x86-64 layout.  Nothing
 * without registers.
 */
noinline void tapset_print_regs(struct tap_context *c)
{
	const struct pt_regs *r = c->regs;
	unsigned long fs, gs, shadowgs;
	unsigned int ds, cs, es, fsindex, gsindex;

	if (!r)
		return;
	regs_line(c, "RIP: %016lx\nRSP: %016lx  EFLAGS: %08lx\n", r->ip, r->sp,
		  r->flags);
	regs_line(c, "RAX: %016lx RBX: %016lx RCX: %016lx\n", r->ax, r->bx,
		  r->cx);
	regs_line(c, "RDX: %016lx RSI: %016lx RDI: %016lx\n", r->dx, r->si,
		  r->di);
	regs_line(c, "RBP: %016lx R08: %016lx R09: %016lx\n", r->bp, r->r8,
		  r->r9);
	regs_line(c, "R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11,
		  r->r12);
	regs_line(c, "R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14,
		  r->r15);
	savesegment(ds, ds);
	savesegment(cs, cs);
	savesegment(es, es);
	savesegment(fs, fsindex);
	savesegment(gs, gsindex);
	rdmsrl(MSR_FS_BASE, fs);
	rdmsrl(MSR_GS_BASE, gs);
	rdmsrl(MSR_KERNEL_GS_BASE, shadowgs);
	regs_line(c, "FS:  %016lx(%04x) GS:%016lx(%04x) knlGS:%016lx\n", fs,
		  fsindex, gs, gsindex, shadowgs);
	regs_line(c, "CS:  %04x DS: %04x ES: %04x CR0: %016lx\n", cs, ds, es,
		  read_cr0());
	regs_line(c, "CR2: %016lx CR3: %016lx CR4: %016lx\n", read_cr2(),
		  __read_cr3(), __read_cr4());
}

/* ---- The kernel stack --------------------------------------------------- */

long long tapset_stack_size(void)
{
	return THREAD_SIZE;
}

/*
 * Bytes below the stack pointer's THREAD_SIZE-aligned stack top (task
 * stacks and x86-64's interrupt stacks are THREAD_SIZE-aligned, so this
 * is the use of whichever stack the hit runs on), as SystemTap computes
 * it from the address of a local.
 */
noinline long long tapset_stack_unused(void)
{
	return current_stack_pointer & (THREAD_SIZE - 1);
}

noinline long long tapset_stack_used(void)
{
	return THREAD_SIZE - (current_stack_pointer & (THREAD_SIZE - 1));
}

/* ---- probe_type() ------------------------------------------------------- */

/* SystemTap's name for the mechanism of a process.* or kprocess.* event. */
static const char *process_event_type(long long event)
{
	switch (event) {
	case TAP_PROC_BEGIN:
	case TAP_PROC_END:
	case TAP_PROC_THREAD_BEGIN:
	case TAP_PROC_THREAD_END:
		return "utrace";
	case TAP_PROC_SYSCALL:
	case TAP_PROC_SYSCALL_RETURN:
		return "utrace_syscall";
	case TAP_KP_START:
	case TAP_KP_RELEASE:
		return "kprobe";
	default:		/* system call and scheduler tracepoints */
		return "kernel_tracepoint";
	}
}

static const char *probe_type_name(const struct tap_probe *p)
{
	bool ret = p->flags & TAP_PF_RETURN;

	switch (p->kind) {
	case TAP_PROBE_BEGIN:
	case TAP_PROBE_END:
	case TAP_PROBE_ERROR:
		return "begin_end";
	case TAP_PROBE_TIMER:
		return p->unit == TAP_TIMER_JIFFIES ? "timer" : "hrtimer";
	case TAP_PROBE_KPROBE:
		return ret ? "kretprobe" : "kprobe";
	case TAP_PROBE_TRACEPOINT:
	case TAP_PROBE_SYSCALL:
		return "kernel_tracepoint";
	case TAP_PROBE_PERF:
		return "perf_event";
	case TAP_PROBE_PROCESS:
		return process_event_type(p->arg[0]);
	case TAP_PROBE_PROCFS:
		return "procfs";
	case TAP_PROBE_HWBKPT:
		return "hardware_data_breakpoint";
	case TAP_PROBE_UPROBE:
		return ret ? "uretprobe" : "uprobe";
	case TAP_PROBE_NETFILTER:
		return "netfilter";
	}
	return NULL;
}

void tapset_probe_type(struct tap_context *c, char *out)
{
	const char *name = c->probe ? probe_type_name(c->probe) : NULL;

	out[0] = '\0';
	if (!name) {
		tap_errorf(c, "Unknown probe-type state %d",
			   c->probe ? c->probe->kind : 0);
		return;
	}
	strscpy(out, name, MAXSTRINGLEN);
}

/* ---- pn(), pnlabel() ---------------------------------------------------- */

static const char *probe_name(const struct tap_context *c)
{
	return c->probe->pn ? c->probe->pn : c->probe->pp;
}

void tapset_pn(struct tap_context *c, char *out)
{
	strscpy(out, probe_name(c), MAXSTRINGLEN);
}

/* The text between label(" and the next quote of pn(), else "". */
void tapset_pnlabel(struct tap_context *c, char *out)
{
	const char *start = strstr(probe_name(c), "label(\"");
	size_t len;

	out[0] = '\0';
	if (!start)
		return;
	start += strlen("label(\"");
	len = strcspn(start, "\"");
	strscpy(out, start, min_t(size_t, len + 1, MAXSTRINGLEN));
}

/* ---- Word sizes, regparm() ---------------------------------------------- */

/* A user-mode hit in a 32-bit (ia32) task. */
long long tapset_probing_32bit_app(struct tap_context *c)
{
	struct pt_regs *uregs;

	if (!c->user_regs || !current->mm || (current->flags & PF_KTHREAD))
		return 0;
	uregs = c->regs ? c->regs : task_pt_regs(current);
	return !user_64bit_mode(uregs);
}

/*
 * regparm(n): SystemTap's range checks on x86-64.  Arguments of the
 * kernel and of 64-bit programs are in registers whatever n says, which
 * is all the *_arg() functions read here.
 */
void tapset_regparm(struct tap_context *c, long long n)
{
	if (tapset_probing_32bit_app(c) && (n < 0 || n > 3))
		tap_error(c, "For -m32 programs, regparm value must be in the range 0-3.");
	else if (n < 0 || n > 6)
		tap_error(c, "For x86_64, regparm value must be in the range 0-6.");
}

/* ---- Time --------------------------------------------------------------- */

/* CLOCK_MONOTONIC, through the reader that is safe in NMI context. */
long long tapset_ktime_get_ns(void)
{
	return ktime_get_mono_fast_ns();
}

/* ---- Namespaces ----------------------------------------------------------- */

/* ns_ppid(): the parent (not the real parent, as SystemTap's) */
long long tapset_ns_ppid(struct tap_context *c)
{
	long long id;

	rcu_read_lock();	/* keeps the parent while it is read */
	id = tapset_task_ns_id(c, (unsigned long)rcu_dereference(current->parent),
			       TAPSET_TASK_TGID);
	rcu_read_unlock();
	return id;
}

/* ---- dump_stack() ------------------------------------------------------- */

void tapset_dump_stack(void)
{
	dump_stack();
}
