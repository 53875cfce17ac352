// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel backtraces and symbols for the tapset (backtrace.stp), in
 * SystemTap's formats.  Symbols come from the running kernel's kallsyms
 * (sprint_symbol(): the kernel and every loaded module, no debuginfo);
 * stacks from the kernel's own unwinder (ORC on Debian's x86-64 kernels).
 *
 * A hit whose event carries the kernel registers of the probed point
 * (CONTEXT->regs of a kprobe, say) is unwound from there, the probed
 * address first, as SystemTap does.  Other hits (begin, end, timers,
 * tracepoints, events with user registers) are unwound from the current
 * stack, leaving out the frames of this module at its top: the trace
 * starts where the kernel called into the script, whatever the script's
 * optimisation level.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/unwind.h>
#include "strfn.h"
#include "tap_internal.h"
#include "tap_lines.h"

/* Frames of this module walked past at most before a trace starts. */
#define TAP_OWN_FRAMES_MAX 64

/* ---- Symbols ----------------------------------------------------------- */

/* One address as kallsyms knows it, split into SystemTap's fields. */
struct tap_ksym {
	char buf[KSYM_SYMBOL_LEN];
	const char *name;	/* NULL when the address has no symbol */
	const char *off;	/* offset in the symbol: "0x1c" */
	const char *size;	/* size of the symbol: "0x1a0" */
	const char *mod;	/* the module's name, or "kernel" */
};

/*
 * sprint_symbol() writes "name+0xoff/0xsize" and " [module]" for a module
 * (or "0xaddr" when there is no symbol).  Address 0 has no symbol, as in
 * SystemTap's lookup.
 */
static bool ksym_lookup(struct tap_ksym *s, unsigned long addr)
{
	char *mod, *plus, *slash, *end;
	unsigned long size;

	s->name = NULL;
	if (!addr)
		return false;
	sprint_symbol(s->buf, addr);
	s->mod = "kernel";
	mod = strstr(s->buf, " [");
	if (mod) {
		*mod = '\0';
		mod += 2;
		end = strpbrk(mod, " ]");
		if (end)
			*end = '\0';
		s->mod = mod;
	}
	plus = strrchr(s->buf, '+');
	slash = strrchr(s->buf, '/');
	if (!plus || !slash || slash < plus || plus == s->buf)
		return false;
	*plus = '\0';
	*slash = '\0';
	s->name = s->buf;
	s->off = plus + 1;
	s->size = slash + 1;
	/*
	 * The last data symbol of a module can get a "size" that is the
	 * distance back to an earlier one; SystemTap's size of a last
	 * symbol is 0.
	 */
	if (kstrtoul(s->size, 16, &size) || (long)size < 0)
		s->size = "0x0";
	return true;
}

/* SystemTap's address formats (its _STP_SYM_* flag sets). */
enum tap_sym_format {
	TAP_SYM_NAME,		/* symname(): "name" */
	TAP_SYM_DATA,		/* symdata(): "name+0xoff/0xsize [mod]" */
	TAP_SYM_FULL,		/* print_backtrace(): " 0xaddr : DATA\n" */
	TAP_SYM_SIMPLE,		/* sprint_backtrace(): "name+0xoff [mod]\n" */
	TAP_SYM_FULLER,		/* print_backtrace_fileline(): FULL with
				 * " at file:line" before " [mod]" */
};

/* The address @addr in format @fmt into @out (@size bytes); its length. */
static noinline int sym_format(char *out, size_t size, unsigned long addr,
			       enum tap_sym_format fmt)
{
	struct tap_ksym s;
	const char *file;
	unsigned long line;

	if (!ksym_lookup(&s, addr)) {
		switch (fmt) {
		case TAP_SYM_FULLER:
		case TAP_SYM_FULL:
			return scnprintf(out, size, " 0x%lx\n", addr);
		case TAP_SYM_SIMPLE:
			return scnprintf(out, size, "0x%lx\n", addr);
		default:
			return scnprintf(out, size, "0x%lx", addr);
		}
	}
	switch (fmt) {
	case TAP_SYM_NAME:
		return scnprintf(out, size, "%s", s.name);
	case TAP_SYM_DATA:
		return scnprintf(out, size, "%s+%s/%s [%s]", s.name, s.off,
				 s.size, s.mod);
	case TAP_SYM_FULLER:
		if (tap_kline_find(addr, &file, &line))
			return scnprintf(out, size, " 0x%lx : %s+%s/%s at %s:%lu [%s]\n",
					 addr, s.name, s.off, s.size, file, line,
					 s.mod);
		fallthrough;
	case TAP_SYM_FULL:
		return scnprintf(out, size, " 0x%lx : %s+%s/%s [%s]\n", addr,
				 s.name, s.off, s.size, s.mod);
	default:
		return scnprintf(out, size, "%s+%s [%s]\n", s.name, s.off,
				 s.mod);
	}
}

void tapset_symname(char *out, long long addr)
{
	sym_format(out, MAXSTRINGLEN, addr, TAP_SYM_NAME);
}

void tapset_symdata(char *out, long long addr)
{
	sym_format(out, MAXSTRINGLEN, addr, TAP_SYM_DATA);
}

noinline long long tapset_modname(char *out, long long addr)
{
	struct tap_ksym s;

	out[0] = '\0';
	if (!ksym_lookup(&s, addr))
		return -ENOENT;
	strscpy(out, s.mod, MAXSTRINGLEN);
	return 0;
}

/* ---- Stacks ------------------------------------------------------------ */

/*
 * Up to @max kernel addresses of the hit's stack into @pcs, innermost
 * first; their number.
 */
static noinline unsigned int stack_capture(struct tap_context *c,
					   unsigned long *pcs,
					   unsigned int max)
{
	struct pt_regs *regs = c->regs;
	struct unwind_state state;
	unsigned int n = 0, own = 0;
	bool at_top = true;

	if (regs && (c->user_regs || user_mode(regs)))
		regs = NULL;
	if (regs && max) {
		pcs[n++] = instruction_pointer(regs);
		at_top = false;
	}
	for (unwind_start(&state, current, regs, NULL);
	     !unwind_done(&state) && n < max; unwind_next_frame(&state)) {
		unsigned long pc = unwind_get_return_address(&state);

		if (!pc)
			break;
		if (at_top && within_module(pc, THIS_MODULE)) {
			if (++own > TAP_OWN_FRAMES_MAX)
				break;
			continue;
		}
		/* the regs frame itself, should the unwinder report it */
		if (regs && n == 1 && pc == pcs[0])
			continue;
		at_top = false;
		pcs[n++] = pc;
	}
	return n;
}

unsigned int tap_kstack(struct tap_context *c, unsigned long *pcs, unsigned int max)
{
	return stack_capture(c, pcs, max);
}

void tapset_print_backtrace(struct tap_context *c)
{
	unsigned long pcs[MAXBACKTRACE];
	unsigned int i, n = stack_capture(c, pcs, MAXBACKTRACE);
	char line[KSYM_SYMBOL_LEN + 32];

	for (i = 0; i < n; i++) {
		sym_format(line, sizeof(line), pcs[i], TAP_SYM_FULL);
		tap_print(c, line);
	}
}

/* The lines with a file name are string-sized (the scratch buffer). */
void tapset_print_backtrace_fileline(struct tap_context *c)
{
	unsigned long pcs[MAXBACKTRACE];
	unsigned int i, n = stack_capture(c, pcs, MAXBACKTRACE);
	char *line = tap_cpu_scratch();

	for (i = 0; i < n; i++) {
		sym_format(line, MAXSTRINGLEN, pcs[i], TAP_SYM_FULLER);
		tap_print(c, line);
	}
}

/* Lines in format @fmt, or "0xaddr " words, cut at MAXSTRINGLEN - 1. */
static void sprint_stack_pcs(struct tap_context *c, char *out,
			     enum tap_sym_format fmt, bool hex)
{
	unsigned long pcs[MAXBACKTRACE];
	unsigned int i, n = stack_capture(c, pcs, MAXBACKTRACE);
	size_t len = 0;

	out[0] = '\0';
	for (i = 0; i < n && len < MAXSTRINGLEN - 1; i++) {
		if (hex)
			len += scnprintf(out + len, MAXSTRINGLEN - len,
					 "0x%lx ", pcs[i]);
		else
			len += sym_format(out + len, MAXSTRINGLEN - len,
					  pcs[i], fmt);
	}
}

void tapset_backtrace(struct tap_context *c, char *out)
{
	sprint_stack_pcs(c, out, TAP_SYM_DATA, true);
}

void tapset_sprint_backtrace(struct tap_context *c, char *out)
{
	sprint_stack_pcs(c, out, TAP_SYM_SIMPLE, false);
}

/* ---- stack() and callers(): addresses by depth -------------------------- */

static void stack_end_error(struct tap_context *c, long long level)
{
	tap_errorf(c, "reached end of stack before unwinding to level %lld",
		   level);
}

/*
 * The address at depth @n, 0 the probed point.  A negative @n reads the
 * first address, as SystemTap's fallback (which walks backtrace()'s words
 * while n > 0) does.
 */
noinline long long tapset_stack(struct tap_context *c, long long n)
{
	unsigned long pcs[MAXBACKTRACE];
	unsigned int got = stack_capture(c, pcs, MAXBACKTRACE);
	long long depth = n < 0 ? 0 : n;

	if (depth >= got) {
		stack_end_error(c, n);
		return 0;
	}
	return (long long)pcs[depth];
}

/*
 * "0xA 0xB ...": the @pcs at depths 0 to @n (all @got of them for -1),
 * cut before a word that would not fit a string; the unwind error when
 * the stack ends before depth @n.  Shared with ucallers().
 */
void tapset_hex_words(struct tap_context *c, char *out,
		      const unsigned long *pcs, unsigned int got, long long n)
{
	size_t len = 0;
	long long i;

	out[0] = '\0';
	for (i = 0; n == -1 ? i < got : i <= n; i++) {
		char word[24];
		int wl;

		if (i >= got) {
			out[0] = '\0';
			stack_end_error(c, n);
			return;
		}
		wl = scnprintf(word, sizeof(word), "%s0x%lx", i ? " " : "",
			       pcs[i]);
		if (len + wl > MAXSTRINGLEN - 1)
			break;
		memcpy(out + len, word, wl + 1);
		len += wl;
	}
}

noinline void tapset_callers(struct tap_context *c, char *out, long long n)
{
	unsigned long pcs[MAXBACKTRACE];
	unsigned int got = stack_capture(c, pcs, MAXBACKTRACE);

	tapset_hex_words(c, out, pcs, got, n);
}

/* ---- print_syms() and sprint_syms() ------------------------------------ */

/*
 * The next word of @s (separated by spaces, empty words skipped, as
 * tokenize() splits) at *@pos: its start and length, 0 at the end.
 */
static size_t next_word(const char *s, size_t *pos, const char **word)
{
	size_t start = *pos, end;

	while (s[start] == ' ')
		start++;
	end = start;
	while (s[end] && s[end] != ' ')
		end++;
	*pos = end;
	*word = s + start;
	return end - start;
}

/* A word as strtol(word, 16) reads it: "0x" optional, up to a non-digit. */
static unsigned long word_value(const char *word, size_t len)
{
	char digits[48];

	strscpy(digits, word, min(len + 1, sizeof(digits)));
	return (unsigned long)tap_strtol(digits, 16);
}

/* One " WORD : SYMDATA\n" line into @line (MAXSTRINGLEN bytes). */
static size_t syms_line(char *line, const char *word, size_t len)
{
	size_t n = scnprintf(line, MAXSTRINGLEN, " %.*s : ", (int)len, word);

	n += sym_format(line + n, MAXSTRINGLEN - n, word_value(word, len),
			TAP_SYM_DATA);
	n += scnprintf(line + n, MAXSTRINGLEN - n, "\n");
	return n;
}

noinline void tapset_print_syms(struct tap_context *c, const char *stk)
{
	char *line = tap_cpu_scratch();
	const char *word;
	size_t pos = 0, len;

	while ((len = next_word(stk, &pos, &word)) != 0) {
		syms_line(line, word, len);
		tap_print(c, line);
	}
}

/*
 * As SystemTap's sprint_syms(): whole lines while their total is at most
 * MAXSTRINGLEN, the result then cut to a string's MAXSTRINGLEN - 1 bytes.
 */
noinline void tapset_sprint_syms(char *out, const char *stk)
{
	char *line = tap_cpu_scratch();
	const char *word;
	size_t pos = 0, len, total = 0, n;

	out[0] = '\0';
	while ((len = next_word(stk, &pos, &word)) != 0) {
		n = syms_line(line, word, len);
		total += n;
		if (total > MAXSTRINGLEN)
			break;
		strlcat(out, line, MAXSTRINGLEN);
	}
}
