// SPDX-License-Identifier: GPL-2.0
/*
 * User symbols and user backtraces for the tapset (ucontext.stp,
 * ucontext-symbols.stp, ucontext-unwind.stp) in SystemTap's formats, and
 * task_backtrace(): the kernel stack of another task.
 *
 * One address prints as
 *	"NAME+0xOFF/0xSIZE [PATH]"	usymdata(), print_ustack() lines
 *	"NAME+0xOFF [BASENAME]"		sprint_ubacktrace() lines
 *	"NAME+0xOFF"			print_ubacktrace_brief() lines
 * with " 0xADDR : " before it in printed backtraces; an address in a
 * mapped file without symbols as "0xADDR [PATH+0xOFF/0xSIZE]" (the
 * offset and size of the file's mappings), any other one as "0xADDR".
 * A frame found by frame pointers ends with " (inexact)".
 * print_ubacktrace_fileline() adds " at FILE:LINE" after the size where
 * the binary's line table has the address (SystemTap's _STP_SYM_FULLER).
 */
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/unwind.h>
#include "strfn.h"
#include "tap_internal.h"
#include "tapc_usym.h"
#include "tap_lines.h"
#include "uunwind.h"

enum tap_usym_format {
	TAP_USYM_NAME,		/* usymname() */
	TAP_USYM_DATA,		/* usymdata() */
	TAP_USYM_FULL,		/* print_ubacktrace(), print_ustack() */
	TAP_USYM_SIMPLE,	/* sprint_ubacktrace(), sprint_ustack() */
	TAP_USYM_BRIEF,		/* print_ubacktrace_brief() */
	TAP_USYM_FULLER,	/* print_ubacktrace_fileline() */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* " at FILE:LINE" of @l into @at, or "" where its binary has no line. */
static void usym_at(const struct tap_uloc *l, char *at, size_t size)
{
	const char *file;
	unsigned long line;

	at[0] = '\0';
	if (l->mod && tap_uline_find(l->mod, l->rel, &file, &line))
		scnprintf(at, size, " at %s:%lu", file, line);
}

/* @addr in format @fmt into @out (@size bytes); its length. */
static noinline int usym_format(char *out, size_t size, unsigned long addr,
				enum tap_usym_format fmt, bool inexact)
{
	struct tap_uloc l;
	const char *tail = inexact ? " (inexact)" : "";
	const char *nl = fmt >= TAP_USYM_FULL ? "\n" : "";
	bool full = fmt == TAP_USYM_FULL || fmt == TAP_USYM_FULLER;
	char at[256] = "";
	int n = 0;

	tap_ulocate(addr, &l);
	if (fmt == TAP_USYM_FULLER)
		usym_at(&l, at, sizeof(at));
	if (full)
		n = scnprintf(out, size, " 0x%lx%s", addr, l.sym ? " : " : "");
	if (l.sym) {
		switch (fmt) {
		case TAP_USYM_NAME:
			return scnprintf(out, size, "%s", l.sym);
		case TAP_USYM_DATA:
		case TAP_USYM_FULL:
		case TAP_USYM_FULLER:
			return n + scnprintf(out + n, size - n,
					     "%s+0x%lx/0x%lx%s [%s]%s%s", l.sym,
					     l.sym_off, l.sym_size, at, l.path,
					     tail, nl);
		case TAP_USYM_SIMPLE:
			return scnprintf(out, size, "%s+0x%lx [%s]%s%s", l.sym,
					 l.sym_off, base_name(l.path), tail, nl);
		case TAP_USYM_BRIEF:
			return scnprintf(out, size, "%s+0x%lx%s%s", l.sym,
					 l.sym_off, tail, nl);
		}
	}
	if (!full)
		n = scnprintf(out, size, "0x%lx", addr);
	if (l.path && fmt != TAP_USYM_NAME && fmt != TAP_USYM_BRIEF)
		n += scnprintf(out + n, size - n, " [%s+0x%lx/0x%lx]%s",
			       fmt == TAP_USYM_SIMPLE ? base_name(l.path) : l.path,
			       l.map_off, l.map_size, at);
	return n + scnprintf(out + n, size - n, "%s%s", tail, nl);
}

/* ---- Addresses ---------------------------------------------------------- */

void tapset_usymname(char *out, long long addr)
{
	usym_format(out, MAXSTRINGLEN, addr, TAP_USYM_NAME, false);
}

void tapset_usymdata(char *out, long long addr)
{
	usym_format(out, MAXSTRINGLEN, addr, TAP_USYM_DATA, false);
}

noinline long long tapset_umodname(char *out, long long addr)
{
	struct tap_uloc l;

	out[0] = '\0';
	if (!tap_ulocate(addr, &l) || !l.path)
		return -ENOENT;
	strscpy(out, l.path, MAXSTRINGLEN);
	return 0;
}

/* ---- Stacks ------------------------------------------------------------- */

struct ustack {
	unsigned long pcs[MAXBACKTRACE];
	bool inexact[MAXBACKTRACE];
	unsigned int n;
};

void tapset_print_ubacktrace(struct tap_context *c, int brief)
{
	struct ustack s;
	char *line = tap_cpu_scratch();
	unsigned int i;

	s.n = tap_ustack(c, s.pcs, s.inexact, MAXBACKTRACE);
	for (i = 0; i < s.n; i++) {
		usym_format(line, MAXSTRINGLEN, s.pcs[i],
			    brief ? TAP_USYM_BRIEF : TAP_USYM_FULL, s.inexact[i]);
		tap_print(c, line);
	}
}

void tapset_print_ubacktrace_fileline(struct tap_context *c)
{
	struct ustack s;
	char *line = tap_cpu_scratch();
	unsigned int i;

	s.n = tap_ustack(c, s.pcs, s.inexact, MAXBACKTRACE);
	for (i = 0; i < s.n; i++) {
		usym_format(line, MAXSTRINGLEN, s.pcs[i], TAP_USYM_FULLER,
			    s.inexact[i]);
		tap_print(c, line);
	}
}

/* Hex addresses, each followed by a space, the first @max at most
 * (all for a negative @max). */
void tapset_ubacktrace(struct tap_context *c, char *out, long long max)
{
	struct ustack s;
	size_t len = 0;
	unsigned int i;

	out[0] = '\0';
	s.n = tap_ustack(c, s.pcs, s.inexact, MAXBACKTRACE);
	for (i = 0; i < s.n && (max < 0 || i < max) && len < MAXSTRINGLEN - 1; i++)
		len += scnprintf(out + len, MAXSTRINGLEN - len, "0x%lx ", s.pcs[i]);
}

/* ucallers(n): depths 0 to n, as callers() for the kernel's stack. */
noinline void tapset_ucallers(struct tap_context *c, char *out, long long n)
{
	struct ustack s;

	s.n = tap_ustack(c, s.pcs, s.inexact, MAXBACKTRACE);
	tapset_hex_words(c, out, s.pcs, s.n, n);
}

/* ustack(n): as stack(n). */
noinline long long tapset_ustack(struct tap_context *c, long long n)
{
	struct ustack s;
	long long depth = n < 0 ? 0 : n;

	s.n = tap_ustack(c, s.pcs, s.inexact, MAXBACKTRACE);
	if (depth >= s.n) {
		tap_errorf(c, "reached end of stack before unwinding to level %lld",
			   n);
		return 0;
	}
	return (long long)s.pcs[depth];
}

/* Whole lines while they fit, as sprint_backtrace(). */
void tapset_sprint_ubacktrace(struct tap_context *c, char *out)
{
	struct ustack s;
	char *line = tap_cpu_scratch();
	size_t total = 0, n;
	unsigned int i;

	out[0] = '\0';
	s.n = tap_ustack(c, s.pcs, s.inexact, MAXBACKTRACE);
	for (i = 0; i < s.n; i++) {
		n = usym_format(line, MAXSTRINGLEN, s.pcs[i], TAP_USYM_SIMPLE,
				s.inexact[i]);
		if (total + n > MAXSTRINGLEN - 1)
			break;
		strlcat(out, line, MAXSTRINGLEN);
		total += n;
	}
}

/* The next hex word of @s at *@pos: its value; false at the end. */
static bool next_addr(const char *s, size_t *pos, unsigned long *addr)
{
	char digits[24];
	size_t start = *pos, end;

	while (s[start] == ' ')
		start++;
	for (end = start; s[end] && s[end] != ' '; end++)
		;
	*pos = end;
	if (end == start)
		return false;
	strscpy(digits, s + start, min(end - start + 1, sizeof(digits)));
	*addr = (unsigned long)tap_strtol(digits, 16);
	return true;
}

void tapset_print_ustack(struct tap_context *c, const char *stk)
{
	char *line = tap_cpu_scratch();
	unsigned long addr;
	size_t pos = 0;

	while (next_addr(stk, &pos, &addr)) {
		usym_format(line, MAXSTRINGLEN, addr, TAP_USYM_FULL, false);
		tap_print(c, line);
	}
}

void tapset_sprint_ustack(char *out, const char *stk)
{
	char *line = tap_cpu_scratch();
	unsigned long addr;
	size_t pos = 0, total = 0, n;

	out[0] = '\0';
	while (next_addr(stk, &pos, &addr)) {
		n = usym_format(line, MAXSTRINGLEN, addr, TAP_USYM_SIMPLE, false);
		if (total + n > MAXSTRINGLEN - 1)
			break;
		strlcat(out, line, MAXSTRINGLEN);
		total += n;
	}
}

/* ---- print_usyms(), sprint_usyms(), umodaddr(), umodbuildid() ---------- */

/*
 * One " WORD : USYMDATA\n" line for the word of @stk at *@pos into @line
 * (MAXSTRINGLEN bytes), the word printed as written; its length, 0 at
 * the end of @stk.
 */
static size_t usyms_line(char *line, const char *stk, size_t *pos)
{
	size_t start = *pos, end, n;
	char digits[24];

	while (stk[start] == ' ')
		start++;
	for (end = start; stk[end] && stk[end] != ' '; end++)
		;
	*pos = end;
	if (end == start)
		return 0;
	strscpy(digits, stk + start, min(end - start + 1, sizeof(digits)));
	n = scnprintf(line, MAXSTRINGLEN, " %.*s : ", (int)(end - start),
		      stk + start);
	n += usym_format(line + n, MAXSTRINGLEN - n,
			 (unsigned long)tap_strtol(digits, 16), TAP_USYM_DATA,
			 false);
	return n + scnprintf(line + n, MAXSTRINGLEN - n, "\n");
}

noinline void tapset_print_usyms(struct tap_context *c, const char *stk)
{
	char *line = tap_cpu_scratch();
	size_t pos = 0;

	while (usyms_line(line, stk, &pos))
		tap_print(c, line);
}

/* Whole lines while their total is at most MAXSTRINGLEN (SystemTap's
 * test), cut to a string's MAXSTRINGLEN - 1 bytes. */
noinline void tapset_sprint_usyms(char *out, const char *stk)
{
	char *line = tap_cpu_scratch();
	size_t pos = 0, total = 0, n;

	out[0] = '\0';
	while ((n = usyms_line(line, stk, &pos)) != 0) {
		total += n;
		if (total > MAXSTRINGLEN)
			break;
		strlcat(out, line, MAXSTRINGLEN);
	}
}

/* umodaddr(): @addr less the load address of the file mapped there. */
noinline long long tapset_umodaddr(struct tap_context *c, long long addr)
{
	struct tap_uloc l;

	if (!tap_ulocate(addr, &l) || !l.map_size) {
		tap_errorf(c, "umodaddr 0x%llx unknown", addr);
		return 0;
	}
	return (long long)l.map_off;
}

/* umodbuildid(): the GNU build-id, in hex, of the module's user binary
 * mapped at @addr. */
noinline void tapset_umodbuildid(struct tap_context *c, char *out,
				 long long addr)
{
	struct tap_uloc l;
	unsigned int i;

	out[0] = '\0';
	if (!tap_ulocate(addr, &l) || !l.mod || !l.mod->build_id_len) {
		tap_errorf(c, "umodbuildid 0x%llx unknown", addr);
		return;
	}
	for (i = 0; i < l.mod->build_id_len && 2 * i + 2 < MAXSTRINGLEN; i++)
		scnprintf(out + 2 * i, 3, "%02x", l.mod->build_id[i]);
}

/* ---- task_backtrace() --------------------------------------------------- */

/*
 * The kernel stack of @task as hex addresses.  The task is looked up by
 * its pid first (an address that is no live task gives ""), and its
 * stack is walked under RCU while its reference count holds it: a stack
 * freed meanwhile is freed after a grace period, so reads stay valid.
 */
void tapset_task_backtrace(struct tap_context *c, char *out, long long addr)
{
	struct task_struct *task = (struct task_struct *)(unsigned long)addr;
	struct unwind_state state;
	pid_t pid;
	size_t len = 0;
	unsigned int n = 0;

	out[0] = '\0';
	if (task == current) {
		tapset_backtrace(c, out);
		return;
	}
	if (copy_from_kernel_nofault(&pid, &task->pid, sizeof(pid)))
		return;
	rcu_read_lock();
	if (pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID) != task ||
	    !refcount_read(&task->stack_refcount)) {
		rcu_read_unlock();
		return;
	}
	for (unwind_start(&state, task, NULL, NULL);
	     !unwind_done(&state) && n < MAXBACKTRACE &&
	     len < MAXSTRINGLEN - 1; unwind_next_frame(&state)) {
		unsigned long pc = unwind_get_return_address(&state);

		if (!pc)
			break;
		len += scnprintf(out + len, MAXSTRINGLEN - len, "0x%lx ", pc);
		n++;
	}
	rcu_read_unlock();
}
