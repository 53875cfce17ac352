// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of registers.stp: the registers of the probed point
 * (tap_context.regs), function arguments by number, the return value and
 * where the probe is (x86-64).  Probes without registers (begin, end,
 * timers) raise SystemTap's errors.  Every read of memory (arguments
 * past the sixth, on the stack) is fault-safe.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include <asm/fpu/xstate.h>
#include "tap_internal.h"

#ifndef CONFIG_X86_64
#error "registers.stp: x86-64 only"
#endif

long long tapset_registers_valid(struct tap_context *c)
{
	return c->regs != NULL;
}

long long tapset_user_mode(struct tap_context *c)
{
	return c->user_regs ? 1 : 0;
}

long long tapset_is_return(struct tap_context *c)
{
	const struct tap_probe *p = c->probe;

	return p && p->kind >= TAP_PROBE_KPROBE && (p->flags & TAP_PF_RETURN);
}

long long tapset_addr(struct tap_context *c)
{
	return c->regs ? (long long)instruction_pointer(c->regs) : 0;
}

/* The current task's user registers, or NULL for a kernel thread. */
static struct pt_regs *tap_current_user_regs(void)
{
	if (current->flags & PF_KTHREAD)
		return NULL;
	return task_pt_regs(current);
}

long long tapset_uaddr(struct tap_context *c)
{
	struct pt_regs *uregs = c->user_regs ? c->regs : tap_current_user_regs();

	return uregs ? (long long)instruction_pointer(uregs) : 0;
}

/* ---- register(), u_register() ---------------------------------------- */

struct tap_regname {
	const char *name;
	unsigned short offset;	/* into struct pt_regs */
	unsigned char bytes;	/* 8, 4, 2 or 1 */
};

#define R(n, f, b) { n, offsetof(struct pt_regs, f), b }
#define R_HI(n, f) { n, offsetof(struct pt_regs, f) + 1, 1 }

/* SystemTap's names: the 64-bit ones, then their 32-, 16- and 8-bit views. */
static const struct tap_regname tap_regnames[] = {
	R("r15", r15, 8), R("r14", r14, 8), R("r13", r13, 8), R("r12", r12, 8),
	R("rbp", bp, 8), R("rbx", bx, 8), R("r11", r11, 8), R("r10", r10, 8),
	R("r9", r9, 8), R("r8", r8, 8), R("rax", ax, 8), R("rcx", cx, 8),
	R("rdx", dx, 8), R("rsi", si, 8), R("rdi", di, 8),
	R("orig_rax", orig_ax, 8), R("rip", ip, 8), R("xcs", cs, 8),
	R("eflags", flags, 8), R("rsp", sp, 8), R("xss", ss, 8),
	R("ebp", bp, 4), R("ebx", bx, 4), R("eax", ax, 4), R("ecx", cx, 4),
	R("edx", dx, 4), R("esi", si, 4), R("edi", di, 4),
	R("orig_eax", orig_ax, 4), R("eip", ip, 4), R("esp", sp, 4),
	R("bp", bp, 2), R("bx", bx, 2), R("ax", ax, 2), R("cx", cx, 2),
	R("dx", dx, 2), R("si", si, 2), R("di", di, 2), R("orig_ax", orig_ax, 2),
	R("ip", ip, 2), R("cs", cs, 2), R("flags", flags, 2), R("sp", sp, 2),
	R("ss", ss, 2),
	R("al", ax, 1), R_HI("ah", ax), R("bl", bx, 1), R_HI("bh", bx),
	R("cl", cx, 1), R_HI("ch", cx), R("dl", dx, 1), R_HI("dh", dx),
};

/* @v's low @bytes bytes, sign-extended or not. */
static long long tap_narrow(unsigned long v, int bytes, bool sign_extend)
{
	switch (bytes) {
	case 4:
		return sign_extend ? (long long)(s32)v : (long long)(u32)v;
	case 2:
		return sign_extend ? (long long)(s16)v : (long long)(u16)v;
	case 1:
		return sign_extend ? (long long)(s8)v : (long long)(u8)v;
	default:
		return (long long)v;
	}
}

long long tapset_register(struct tap_context *c, const char *name,
			  long long sign_extend)
{
	const struct tap_regname *r = NULL;
	unsigned long v;
	size_t i;

	if (!c->regs) {
		tap_error(c, "cannot access CPU registers in this context");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tap_regnames) && !r; i++)
		if (strcmp(tap_regnames[i].name, name) == 0)
			r = &tap_regnames[i];
	if (!r) {
		tap_errorf(c, "Unknown register: %s", name);
		return 0;
	}
	v = 0;
	memcpy(&v, (const char *)c->regs + r->offset, r->bytes == 8 ? 8 : r->bytes);
	return tap_narrow(v, r->bytes, sign_extend);
}

/* ---- int_arg() and the others ---------------------------------------- */

/* A system call's arguments at its entry in the user registers. */
static bool tap_syscall_regs(const struct tap_context *c)
{
	return c->user_regs && c->probe && c->probe->kind == TAP_PROBE_SYSCALL;
}

/* Argument @n (1..6) in registers: the C calling convention, or the
 * system call one (r10 for the fourth). */
static unsigned long tap_reg_arg(const struct tap_context *c, int n)
{
	const struct pt_regs *regs = c->regs;

	switch (n) {
	case 1: return regs->di;
	case 2: return regs->si;
	case 3: return regs->dx;
	case 4: return tap_syscall_regs(c) ? regs->r10 : regs->cx;
	case 5: return regs->r8;
	default: return regs->r9;
	}
}

/*
 * Argument @n past the sixth: on the stack, above the return address at
 * the function's entry.  Return: 0, or -EFAULT (the error or warning is
 * raised here, as SystemTap raises it).
 */
static int tap_stack_arg(struct tap_context *c, long long n, unsigned long *val)
{
	unsigned long addr = c->regs->sp + (unsigned long)(n - 6) * sizeof(long);

	if (c->user_regs) {
		if (!copy_from_user_nofault(val, (const void __user *)addr, sizeof(*val)))
			return 0;
		tap_errmsg("WARNING: cannot access arg(%lld) at user stack address 0x%lx\n",
			   n, addr);
		*val = 0;
		return 0;
	}
	if (!copy_from_kernel_nofault(val, (const void *)addr, sizeof(*val)))
		return 0;
	tap_errorf(c, "kernel fault at %#lx accessing arg(%lld)", addr, n);
	return -EFAULT;
}

long long tapset_arg(struct tap_context *c, long long n, long long sign_extend,
		     long long truncate)
{
	unsigned long v;

	if (!c->regs) {
		tap_error(c, "cannot access function args in this context");
		return 0;
	}
	/* stack arguments only for function probes, and not absurdly far */
	if (n < 1 || (n > 6 && (tap_syscall_regs(c) || n > 4096))) {
		tap_errorf(c, "cannot access arg(%lld)", n);
		return 0;
	}
	if (n <= 6)
		v = tap_reg_arg(c, (int)n);
	else if (tap_stack_arg(c, n, &v))
		return 0;
	return truncate ? tap_narrow(v, 4, sign_extend) : (long long)v;
}

/* ---- returnval(), returnstr() ----------------------------------------- */

long long tapset_returnval(struct tap_context *c)
{
	if (c->returnval_set)
		return c->returnval_override;
	if (!c->regs) {
		tap_errorf(c, "returnval() not defined in this context %s",
			   c->probe ? c->probe->pp : "");
		return 0;
	}
	return (long long)c->regs->ax;
}

void tapset_returnstr(struct tap_context *c, char *out, long long format)
{
	if (!c->regs) {
		strscpy(out, "N/A", MAXSTRINGLEN);
		return;
	}
	tapset_return_str(out, format, (long long)c->regs->ax);
}

/* ---- probefunc(), probemod() ------------------------------------------ */

/* SystemTap prints an address without a symbol as %p: 0x and 16 digits. */
static void tap_hex_addr(char *out, unsigned long addr)
{
	snprintf(out, MAXSTRINGLEN, "0x%016lx", addr);
}

/*
 * The kernel's symbol for @addr ("name+0x../0x.. [mod]" with @offset,
 * else "name"); false when it has none.  Noinline: the buffer is large.
 */
static noinline bool tap_symbol(char *out, unsigned long addr, bool offset)
{
	char sym[KSYM_SYMBOL_LEN];

	if (offset)
		sprint_symbol(sym, addr);
	else
		sprint_symbol_no_offset(sym, addr);
	/* without a symbol the kernel prints the address, 0x... */
	if (strncmp(sym, "0x", 2) == 0)
		return false;
	/* the name alone: a module's symbol comes with " [mod]" */
	if (!offset)
		sym[strcspn(sym, " ")] = '\0';
	strscpy(out, sym, MAXSTRINGLEN);
	return true;
}

void tapset_probefunc(struct tap_context *c, char *out)
{
	unsigned long addr = c->regs ? instruction_pointer(c->regs) : 0;

	/* user space has no symbol tables here: the address it is at */
	if (c->user_regs || !addr || !tap_symbol(out, addr, false))
		tap_hex_addr(out, addr);
}

/* The NAME of a "module(\"NAME\")" component of the probe point. */
static bool tap_pp_module(const char *pp, char *out)
{
	const char *s = pp ? strstr(pp, "module(\"") : NULL;
	size_t n = 0;

	if (!s)
		return false;
	s += strlen("module(\"");
	while (s[n] && s[n] != '"' && n < MAXSTRINGLEN - 1)
		n++;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

void tapset_probemod(struct tap_context *c, char *out)
{
	const char *mod, *end;

	if (tap_pp_module(c->probe ? c->probe->pp : NULL, out))
		return;
	if (!c->regs || c->user_regs ||
	    !tap_symbol(out, instruction_pointer(c->regs), true)) {
		out[0] = '\0';
		tap_error(c, "Cannot determine kernel module name");
		return;
	}
	/* "name+0x1/0x2 [mod]" in a module, no brackets in the kernel */
	mod = strchr(out, '[');
	if (!mod) {
		strscpy(out, "kernel", MAXSTRINGLEN);
		return;
	}
	mod++;
	/* a build id may follow the name */
	end = mod + strcspn(mod, " ]");
	memmove(out, mod, end - mod);
	out[end - mod] = '\0';
}

/* ---- DWARF target variables: registers and static addresses --------- */

/* DWARF's x86-64 register numbers 0-16, as pt_regs fields. */
static const unsigned short tap_dwarf_regs[] = {
	offsetof(struct pt_regs, ax), offsetof(struct pt_regs, dx),
	offsetof(struct pt_regs, cx), offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, bp), offsetof(struct pt_regs, sp),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
	offsetof(struct pt_regs, ip),
};

/* The live xmm register @n's low 64 bits (the register name must be
 * literal in the instruction, hence one case each). */
static u64 tap_live_xmm(unsigned int n)
{
	u64 v = 0;

#define TAP_XMM(i) case i: asm volatile("movq %%xmm" #i ", %0" : "=r"(v)); break
	switch (n) {
	TAP_XMM(0); TAP_XMM(1); TAP_XMM(2); TAP_XMM(3);
	TAP_XMM(4); TAP_XMM(5); TAP_XMM(6); TAP_XMM(7);
	TAP_XMM(8); TAP_XMM(9); TAP_XMM(10); TAP_XMM(11);
	TAP_XMM(12); TAP_XMM(13); TAP_XMM(14); TAP_XMM(15);
	}
#undef TAP_XMM
	return v;
}

/*
 * The low 64 bits of the current task's user xmm register @n (DWARF's
 * 17 + n), where a user function keeps its float and double arguments
 * and its floating-point return value.  They are still in the CPU
 * unless the kernel has since saved them to the task's FPU state
 * (TIF_NEED_FPU_LOAD); interrupts stay off so that no softirq's
 * kernel_fpu_begin() moves them between the test and the read.  A saved
 * SSE state whose XSAVE header bit is clear is in its initial
 * configuration, all zeros, and its bytes were not written.
 */
static u64 tap_user_xmm(unsigned int n)
{
	struct fpstate *fps;
	unsigned long flags;
	u64 v = 0;

	local_irq_save(flags);
	if (!test_thread_flag(TIF_NEED_FPU_LOAD)) {
		v = tap_live_xmm(n);
	} else {
		fps = current->thread.fpu.fpstate;
		if (!boot_cpu_has(X86_FEATURE_XSAVE) ||
		    (fps->regs.xsave.header.xfeatures & XFEATURE_MASK_SSE))
			memcpy(&v, &fps->regs.fxsave.xmm_space[n * 4], sizeof(v));
	}
	local_irq_restore(flags);
	return v;
}

/* Pass 2 asks for xmm registers (17-32) only in user probes: the
 * kernel keeps no floating-point values. */
unsigned long tap_regs_dwarf(const struct pt_regs *regs, unsigned int regno)
{
	if (regno >= TAP_DWARF_XMM0 && regno < TAP_DWARF_XMM0 + 16)
		return tap_user_xmm(regno - TAP_DWARF_XMM0);
	if (regno >= ARRAY_SIZE(tap_dwarf_regs))
		return 0;
	return *(const unsigned long *)((const char *)regs + tap_dwarf_regs[regno]);
}

unsigned long tap_dwarf_reg(struct tap_context *c, unsigned int regno)
{
	if (!c->regs) {
		tap_error(c, "cannot access CPU registers in this context");
		return 0;
	}
	if (c->user_regs && regno >= TAP_DWARF_XMM0 && regno < TAP_DWARF_XMM0 + 16)
		return tap_user_xmm(regno - TAP_DWARF_XMM0);
	if (regno >= ARRAY_SIZE(tap_dwarf_regs)) {
		tap_errorf(c, "Unknown register: %u", regno);
		return 0;
	}
	return *(const unsigned long *)((const char *)c->regs + tap_dwarf_regs[regno]);
}

void tap_set_dwarf_reg(struct tap_context *c, unsigned int regno, unsigned long val)
{
	if (!c->regs || c->user_regs) {
		tap_error(c, "cannot access CPU registers in this context");
		return;
	}
	if (regno >= ARRAY_SIZE(tap_dwarf_regs)) {
		tap_errorf(c, "Unknown register: %u", regno);
		return;
	}
	*(unsigned long *)((char *)c->regs + tap_dwarf_regs[regno]) = val;
}

/*
 * jiffies_64 is exported and moves with the rest of the kernel image
 * under KASLR: its run-time address less its link-time one is the
 * offset of every static of the kernel.
 */
unsigned long tap_kernel_reloc(unsigned long jiffies_64_link)
{
	return (unsigned long)&jiffies_64 - jiffies_64_link;
}
