// SPDX-License-Identifier: GPL-2.0
/*
 * File names and line numbers of addresses (context-symbols.stp's
 * symfileline(), symfile(), symline(); ucontext-symbols.stp's usym*
 * forms) from the rows pass 3 placed in the module.  As SystemTap's:
 * "FILE:LINE", "FILE" or "LINE", and the address in hex where there is
 * no line.
 */
#include <linux/kernel.h>
#include "tap_internal.h"
#include "tap_lines.h"
#include "uunwind.h"

/* The row of @t holding @off, or NULL (none, or "no line here"). */
static const struct tap_uline *row_at(const struct tap_ulines *t,
				      unsigned long off)
{
	unsigned int lo = 0, hi = t->nrows;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t->rows[mid].addr <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !TAP_ULINE_LINE(&t->rows[lo - 1]))
		return NULL;
	return &t->rows[lo - 1];
}

static bool lines_find(const struct tap_ulines *t, unsigned long off,
		       const char **file, unsigned long *line)
{
	const struct tap_uline *r;

	if (!t->nrows || off > 0xffffffffUL)
		return false;
	r = row_at(t, off);
	if (!r)
		return false;
	*file = t->files[TAP_ULINE_FILE(r)];
	*line = TAP_ULINE_LINE(r);
	return true;
}

bool tap_uline_find(const struct tap_umod *m, unsigned long rel,
		    const char **file, unsigned long *line)
{
	return lines_find(&m->lines, rel, file, line);
}

/* @addr in the rows of a kernel module's probed functions: each group's
 * rows are relative to its symbol, where the module placed it. */
static bool kmod_line_find(unsigned long addr, const char **file, unsigned long *line)
{
	unsigned int i;

	for (i = 0; i < tap_kmod_lines_count; i++) {
		const struct tap_kmod_lines *g = &tap_kmod_lines[i];
		unsigned long at = tap_modsym_addr(g->modsym);

		if (at && addr >= at && lines_find(&g->lines, addr - at, file, line))
			return true;
	}
	return false;
}

bool tap_kline_find(unsigned long addr, const char **file, unsigned long *line)
{
	unsigned long link;

	if (tap_klines.lines.nrows) {
		link = addr - tap_kernel_reloc(tap_klines.reloc_ref);
		if (link >= tap_klines.base &&
		    lines_find(&tap_klines.lines, link - tap_klines.base, file, line))
			return true;
	}
	return kmod_line_find(addr, file, line);
}

/* @what of @file:@line, or @addr in hex when @found is false. */
static void fileline_format(char *out, unsigned long addr, bool found,
			    const char *file, unsigned long line, int what)
{
	if (!found)
		scnprintf(out, MAXSTRINGLEN, "0x%lx", addr);
	else if (what == (TAP_LINE_FILE | TAP_LINE_NUMBER))
		scnprintf(out, MAXSTRINGLEN, "%s:%lu", file, line);
	else if (what == TAP_LINE_FILE)
		scnprintf(out, MAXSTRINGLEN, "%s", file);
	else
		scnprintf(out, MAXSTRINGLEN, "%lu", line);
}

void tapset_usymfileline(char *out, long long addr, long long what)
{
	struct tap_uloc l;
	const char *file = NULL;
	unsigned long line = 0;
	bool found = tap_ulocate(addr, &l) && l.mod &&
		     tap_uline_find(l.mod, l.rel, &file, &line);

	fileline_format(out, addr, found, file, line, what);
}

void tapset_symfileline(char *out, long long addr, long long what)
{
	const char *file = NULL;
	unsigned long line = 0;
	bool found = tap_kline_find(addr, &file, &line);

	fileline_format(out, addr, found, file, line, what);
}
