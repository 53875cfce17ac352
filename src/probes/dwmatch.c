/* Matching "PAT[@FILE[:LINES]]" against a DWARF function index
 * (dwmatch.h).
 *
 * Each match gives one probe at its entry pc: every out-of-line copy of
 * the function and, unless the point keeps out-of-line functions only,
 * every inline instance.  A line (or a range of lines) after the file
 * keeps the functions whose code holds it; a statement point puts a probe
 * at each such line, at the lowest address of its rows (is_stmt or not,
 * as SystemTap); +OFF counts from the function's declaration line; without
 * a line, a statement probe is at the function's entry, named by its
 * declaration.
 */
#include "probes/dwmatch.h"
#include "suggest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "probes/kblock.h"
#include "probes/family.h"
#include "util.h"

/* The highest line number a line specification may name. */
#define DWMATCH_LINE_MAX 100000000

static bool keeps(const struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f)
{
	switch (m->keep) {
	case DWM_ALL: case DWM_STATEMENT:
		return true;
	case DWM_INLINE:
		return f->inline_instance;
	case DWM_CALL:
		return !f->inline_instance;
	case DWM_EXPORTED:
		return !f->inline_instance && f->external && m->exported(ix, f);
	}
	return false;
}

static char *point_text(const char *name, const char *file, int line)
{
	return line > 0 ? xasprintf("%s@%s:%d", name, file, line)
			: xasprintf("%s@%s", name, file ? file : "??");
}

/*
 * Whether the point's scopes match NAMES, the K innermost scopes F is
 * declared in (dwindex_scopes).  As in SystemTap, a point with more
 * scopes than F has matches only if the one beyond F's outermost is ""
 * (the global scope: "::main").
 */
static bool scopes_match(const struct dwmatch *m, const char **names, size_t k)
{
	size_t ns = m->n_scopes;

	for (size_t j = 0; j < ns; j++) {
		const char *pat = m->scopes[ns - 1 - j], *name = j < k ? names[j] : "";

		if (glob_is_pattern(pat) ? !glob_match(pat, name) : strcmp(pat, name) != 0)
			return false;
		if (j >= k && j + 1 < ns)
			return false;
	}
	return true;
}

/* F's name as a point with scopes names it: with as many of its
 * enclosing scopes as the point has, outermost first ("Sq::area" for
 * "Sq::*" on ns::Sq::area); NULL when they do not match the point's. */
static char *scoped_name(const struct dwmatch *m, const struct dwindex *ix,
			 const struct dwfunc *f)
{
	size_t ns = m->n_scopes, k;
	const char **names;
	struct strbuf sb = STRBUF_INIT;

	names = xmalloc(ns * sizeof(*names));
	k = dwindex_scopes(ix, f, names, ns);
	if (!scopes_match(m, names, k)) {
		free(names);
		return NULL;
	}
	for (size_t j = ns; j-- > 0;)
		strbuf_addf(&sb, "%s::", j < k ? names[j] : "");
	strbuf_adds(&sb, f->name);
	free(names);
	return strbuf_detach(&sb);
}

/* Whether F is declared in the scopes the point names (any, if none). */
static bool in_scopes(const struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f)
{
	const char **names;
	bool match;

	if (m->n_scopes == 0)
		return true;
	names = xmalloc(m->n_scopes * sizeof(*names));
	match = scopes_match(m, names, dwindex_scopes(ix, f, names, m->n_scopes));
	free(names);
	return match;
}

/* point_text with F's name as the point names it (scoped_name); a
 * point without scopes, the usual one (kernel.function("*") pushes
 * hundreds of thousands), names F by its own name without a copy. */
static char *func_text(const struct dwmatch *m, const struct dwindex *ix,
		       const struct dwfunc *f, const char *file, int line)
{
	char *name, *text;

	if (m->n_scopes == 0)
		return point_text(f->name, file, line);
	name = scoped_name(m, ix, f);
	text = point_text(name ? name : f->name, file, line);
	free(name);
	return text;
}

static int by_line(const void *a, const void *b)
{
	const struct dwline *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The rows of F at the lines of one range of the point. */
static size_t range_lines(const struct dwmatch *m, const struct dwindex *ix,
			  const struct dwfunc *f, int decl_line, const struct dwmatch_range *r,
			  struct dwline **lines)
{
	int lo = r->lo, hi = r->hi;

	if (m->lines == LINES_RELATIVE)
		lo = hi = decl_line + r->lo;
	else if (m->every_line && decl_line > lo)
		lo = decl_line;
	return dwindex_lines(ix, f, m->file, lo, hi, lines);
}

/* The rows of F at the lines the point names, by line. */
static size_t lines_of(const struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		       int decl_line, struct dwline **lines)
{
	size_t n = 0;

	*lines = NULL;
	for (size_t i = 0; i < m->n_ranges; i++) {
		struct dwline *some;
		size_t k = range_lines(m, ix, f, decl_line, &m->ranges[i], &some);

		if (k > 0) {
			*lines = xrealloc(*lines, (n + k) * sizeof(**lines));
			memcpy(*lines + n, some, k * sizeof(*some));
			n += k;
		}
		free(some);
	}
	if (m->n_ranges > 1 && n > 1)
		qsort(*lines, n, sizeof(**lines), by_line);
	return n;
}

/*
 * Whether F, declared at DECL_LINE, spans a line the point names: one
 * from its declaration to the last line of its code in the file, as
 * SystemTap's manual has .function("*@FILE:LINE").
 */
static bool spans(const struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		  int decl_line)
{
	struct dwline *rows;
	size_t n = dwindex_lines(ix, f, m->file, decl_line, DWMATCH_LINE_MAX, &rows);
	int last = decl_line;

	for (size_t i = 0; i < n; i++)
		if (rows[i].line > last)
			last = rows[i].line;
	free(rows);
	for (size_t i = 0; i < m->n_ranges; i++) {
		const struct dwmatch_range *r = &m->ranges[i];
		int lo = m->lines == LINES_RELATIVE ? decl_line + r->lo : r->lo;
		int hi = m->lines == LINES_RELATIVE ? lo : r->hi;

		if (lo <= last && hi >= decl_line)
			return true;
	}
	return false;
}

/* The one line the point names (0: a range, a list, or ":*"). */
static int one_line(const struct dwmatch *m, int decl_line)
{
	if (m->n_ranges != 1)
		return 0;
	if (m->lines == LINES_RELATIVE)
		return decl_line + m->ranges[0].lo;
	return m->ranges[0].lo == m->ranges[0].hi && !m->every_line ? m->ranges[0].lo : 0;
}

/*
 * A .function point with lines picks the functions that span them (its
 * declaration's line counts, though it has no code); SystemTap then
 * warns, once, that a line wants a .statement point, unless the line is
 * the function's declaration (the point as -l prints it).
 */
static void warn_function_line(struct dwmatch *m, int decl_line)
{
	if (m->keep == DWM_STATEMENT || m->warned_line || !m->warnings ||
	    one_line(m, decl_line) == decl_line)
		return;
	m->warned_line = true;
	vec_push(m->warnings, xstrdup("For probing a particular line, use a .statement() probe, "
				      "not .function()"));
}

static void push(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		 char *text, Dwarf_Addr addr)
{
	m->pushed++;
	m->push(m, ix, f, text, addr);
}

/* A probe at each of F's labels the point names: named, as SystemTap
 * names them, by the function and the label's line, with the label. */
static void push_labels(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f)
{
	struct dwlabel *labels;
	size_t n = dwindex_labels(ix, f, m->label, &labels);

	for (size_t i = 0; i < n; i++) {
		m->at_label = labels[i].name;
		push(m, ix, f, func_text(m, ix, f, labels[i].file, labels[i].line),
		     labels[i].addr);
	}
	m->at_label = NULL;
	free(labels);
}

/* A probe on each callee of F the point names (dwcallee.h), named by
 * its caller's text (TEXT, F's own at the first level; taken), with the
 * callee, what leads to it and the callee's own entry for the push hook. */
static void push_callees(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
			 char *text)
{
	struct dwcallee *callees;
	size_t n = dwcallee_find(ix, f, text, m->callee, m->callee_depth, &callees);

	for (size_t i = 0; i < n; i++) {
		const struct dwfunc *callee = callees[i].func;
		int line;

		if (m->callee_outline && callee->inline_instance)
			continue;
		/* a blocklisted callee is refused as its own point would be
		 * (get_current, inlined into most of the kernel) */
		if (dwmatch_blocked(m, callee->name, dwindex_decl_file(ix, callee, &line)))
			continue;
		m->at_callee = &callees[i];
		push(m, ix, callees[i].func, xstrdup(callees[i].caller),
		     callees[i].func->entry);
	}
	m->at_callee = NULL;
	dwcallee_free(callees, n);
	free(text);
}

/* How far from a line without rows SystemTap looks for one with some. */
#define DWMATCH_NEAR_LINES 5

/*
 * F has no rows at LINE, the one line the point names: as SystemTap, look
 * for the closest lines of F's with rows, at most DWMATCH_NEAR_LINES below
 * and above it.  .nearest takes the closer (the one above on a tie) and
 * returns it; else they are what the "no line records" error suggests
 * (from the first function without rows), and the result is 0.
 */
static int other_line(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		      int line)
{
	struct dwline *near = NULL;
	size_t n = dwindex_lines(ix, f, m->file, line > DWMATCH_NEAR_LINES ?
				 line - DWMATCH_NEAR_LINES : 1, line + DWMATCH_NEAR_LINES, &near);
	int below = 0, above = 0;

	for (size_t i = 0; i < n; i++) {	/* by line */
		if (near[i].line < line)
			below = near[i].line;
		else if (near[i].line > line && !above)
			above = near[i].line;
	}
	free(near);
	if (m->nearest)
		return above && (!below || above - line <= line - below) ? above : below;
	if (!m->tried) {
		m->tried = true;
		m->try_line = line;
		m->try_below = below;
		m->try_above = above;
	}
	return 0;
}

/* Whether a line before LINES[I] (by line) starts at its address: one
 * probe per address, named by the first line there, as SystemTap. */
static bool addr_taken(const struct dwline *lines, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (lines[j].addr == lines[i].addr)
			return true;
	return false;
}

bool dwmatch_blocked(struct dwmatch *m, const char *name, const char *file)
{
	const char *why = m->blocked ? kblock_why(name, file, m->returns) : NULL;

	if (why)
		vec_push(m->blocked, xasprintf(why, name));
	return why != NULL;
}

/* F's rows at the point's lines, or at the nearest line with rows
 * (.nearest); 0 when the point's lines leave F out. */
static size_t func_lines(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
			 int decl_line, struct dwline **lines)
{
	size_t n = lines_of(m, ix, f, decl_line, lines);
	int one, instead;

	if (n > 0)
		return n;
	free(*lines);
	*lines = NULL;
	one = one_line(m, decl_line);
	instead = one > 0 ? other_line(m, ix, f, one) : 0;
	if (instead == 0)
		return 0;
	n = dwindex_lines(ix, f, m->file, instead, instead, lines);
	if (n == 0) {
		free(*lines);
		*lines = NULL;
	}
	return n;
}

/* The probes of the point on function F. */
void dwmatch_func(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f)
{
	struct dwline *lines = NULL;
	size_t n = 0;
	int line;
	const char *file = dwindex_decl_file(ix, f, &line);

	if (m->file && m->lines == LINES_NONE && !dwindex_file_matches(m->file, file))
		return;
	m->funcs_seen++;
	if (m->lines != LINES_NONE && m->keep != DWM_STATEMENT) {
		if (!dwindex_file_matches(m->file, file) || !spans(m, ix, f, line))
			return;
	} else if (m->lines != LINES_NONE && (n = func_lines(m, ix, f, line, &lines)) == 0) {
		return;
	}
	/* only a function the point selects (its lines too) is refused,
	 * with SystemTap's warning */
	if (dwmatch_blocked(m, f->name, file)) {
		free(lines);
		return;
	}
	if (m->lines != LINES_NONE)
		warn_function_line(m, line);
	if (m->callee) {
		push_callees(m, ix, f, func_text(m, ix, f, file, line));
	} else if (m->label) {
		push_labels(m, ix, f);
	} else if (m->keep != DWM_STATEMENT || m->lines == LINES_NONE) {
		/* the function's entry */
		push(m, ix, f, func_text(m, ix, f, file, line), f->entry);
	} else {
		for (size_t i = 0; i < n; i++)
			if (!addr_taken(lines, i))
				push(m, ix, f, func_text(m, ix, f, lines[i].file, lines[i].line),
				     lines[i].addr);
	}
	free(lines);
}

/* Whether F is in the same compile unit and declaration file as G. */
static bool same_group(const struct dwindex *ix, const struct dwfunc *f, const struct dwfunc *g)
{
	return dwindex_cu_offset(ix, f) == dwindex_cu_offset(ix, g) &&
	       strcmp(f->decl_file, g->decl_file) == 0;
}

/*
 * ".statement(PAT@FILE:*)" on the functions of one compile unit declared
 * in one file (GROUP, N of them), as SystemTap: the lines each function's
 * walk finds (dwindex_walk_lines), in turn, each address once; a probe at
 * an address for every function of the group whose code holds it, named
 * by the line the walk found there.
 */
static void every_line_group(struct dwmatch *m, const struct dwindex *ix,
			     const struct dwfunc **group, size_t n)
{
	Dwarf_Addr *seen = NULL;
	size_t n_seen = 0;

	for (size_t i = 0; i < n; i++) {
		struct dwline *lines;
		size_t k = dwindex_walk_lines(ix, group[i], &lines);

		for (size_t j = 0; j < k; j++) {
			size_t s = 0;

			while (s < n_seen && seen[s] != lines[j].addr)
				s++;
			if (s < n_seen)
				continue;	/* an earlier walk found it */
			seen = xrealloc(seen, (n_seen + 1) * sizeof(*seen));
			seen[n_seen++] = lines[j].addr;
			for (size_t g = 0; g < n; g++)
				if (dwindex_holds(ix, group[g], lines[j].addr))
					push(m, ix, group[g], func_text(m, ix, group[g], lines[j].file,
									 lines[j].line), lines[j].addr);
		}
		free(lines);
	}
	free(seen);
}

/* The ":*" statement probes of the functions FOUND keeps, by group. */
static void every_line(struct dwmatch *m, const struct dwindex *ix,
		       const struct dwfunc **found, size_t n)
{
	const struct dwfunc **kept = xmalloc((n ? n : 1) * sizeof(*kept));
	bool *done = xcalloc(n ? n : 1, sizeof(*done));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct dwfunc *f = found[i];

		if (!f->decl_file || !dwindex_file_matches(m->file, f->decl_file))
			continue;
		m->funcs_seen++;
		if (!dwmatch_blocked(m, f->name, f->decl_file))
			kept[k++] = f;
	}
	for (size_t i = 0; i < k; i++) {
		const struct dwfunc **group;
		size_t g = 0;

		if (done[i])
			continue;
		group = xmalloc(k * sizeof(*group));
		/* out-of-line functions first, then inline instances: which
		 * walk finds an address first names its probes */
		for (int inl = 0; inl < 2; inl++)
			for (size_t j = i; j < k; j++)
				if (!done[j] && kept[j]->inline_instance == inl &&
				    same_group(ix, kept[i], kept[j])) {
					done[j] = true;
					group[g++] = kept[j];
				}
		every_line_group(m, ix, group, g);
		free(group);
	}
	free(done);
	free(kept);
}

/* An inline instance a .return matched (not refused by its file). */
static void note_inline_return(struct dwmatch *m, const struct dwfunc *f)
{
	size_t at = 0;
	int c = 1;

	if (m->file && (!f->decl_file || !dwindex_file_matches(m->file, f->decl_file)))
		return;
	while (at < m->inline_returns.n &&
	       (c = strcmp(m->inline_returns.v[at], f->name)) < 0)
		at++;
	if (at < m->inline_returns.n && c == 0)
		return;
	vec_push(&m->inline_returns, NULL);
	memmove(&m->inline_returns.v[at + 1], &m->inline_returns.v[at],
		(m->inline_returns.n - 1 - at) * sizeof(void *));
	m->inline_returns.v[at] = xstrdup(f->name);
}

void dwmatch_inline_returns(const struct dwmatch *m, struct vec *warnings)
{
	struct strbuf names = STRBUF_INIT;

	if (m->pushed || !m->inline_returns.n)
		return;
	for (size_t i = 0; i < m->inline_returns.n; i++)
		strbuf_addf(&names, " %s", (const char *)m->inline_returns.v[i]);
	vec_push(warnings, xasprintf("cannot probe .return of %zu inlined functions %s",
				     m->inline_returns.n, names.buf));
	strbuf_free(&names);
}

/* Each name's out-of-line functions before its inline instances, in the
 * index's order otherwise: SystemTap's order of a function's probes (-p2,
 * and the variables -L prints for a point, the first probe's). */
static void out_of_line_first(const struct dwfunc **found, size_t n)
{
	const struct dwfunc **tmp = xmalloc((n ? n : 1) * sizeof(*tmp));

	for (size_t i = 0, j; i < n; i = j) {
		size_t k = 0;

		for (j = i; j < n && strcmp(found[j]->name, found[i]->name) == 0; j++)
			if (!found[j]->inline_instance)
				tmp[k++] = found[j];
		for (size_t x = i; x < j; x++)
			if (found[x]->inline_instance)
				tmp[k++] = found[x];
		memcpy(found + i, tmp, k * sizeof(*tmp));
	}
	free(tmp);
}

static const struct dwfunc **sort_found;	/* entry_groups' qsort */

static int by_entry(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	Dwarf_Addr ex = sort_found[x]->entry, ey = sort_found[y]->entry;

	return ex != ey ? (ex > ey) - (ex < ey) : (x > y) - (x < y);
}

/* For each of found's out-of-line functions, the group of those entered
 * at its address (a number below n), SIZE_MAX for an inline instance: a
 * sort, where a search per function would be quadratic in
 * kernel.function("*")'s tens of thousands. */
static size_t *entry_groups(const struct dwfunc **found, size_t n)
{
	size_t *group = xmalloc((n ? n : 1) * sizeof(*group));
	size_t *order = xmalloc((n ? n : 1) * sizeof(*order));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		group[i] = SIZE_MAX;
		if (!found[i]->inline_instance)
			order[k++] = i;
	}
	sort_found = found;
	qsort(order, k, sizeof(*order), by_entry);
	for (size_t i = 0; i < k; i++)
		group[order[i]] = i > 0 && found[order[i - 1]]->entry == found[order[i]]->entry
				  ? group[order[i - 1]] : i;
	free(order);
	return group;
}

size_t dwmatch_in(struct dwmatch *m, const struct dwindex *ix)
{
	const struct dwfunc **found;
	size_t n = dwindex_match(ix, m->func, &found), before = m->pushed, k = 0;
	const struct dwfunc **walked = xmalloc((n ? n : 1) * sizeof(*walked));
	size_t *group;		/* entry_groups' */
	bool *probed;		/* each group's: one of its functions has probes */

	out_of_line_first(found, n);
	group = entry_groups(found, n);
	probed = xcalloc(n ? n : 1, sizeof(*probed));

	for (size_t i = 0; i < n; i++) {
		const struct dwfunc *f = found[i];

		/* the same function at the same address (one DIE per CU that
		 * has it) is probed once */
		if (i > 0 && found[i - 1]->entry == f->entry &&
		    strcmp(found[i - 1]->name, f->name) == 0)
			continue;
		/* a "NAME.part.N" split off NAME by partial inlining is no
		 * entry of NAME's: SystemTap leaves it out (its own symbol
		 * is still a symbol-table function, dwmatch_symbols) */
		if (!f->inline_instance && dwindex_split_part(ix, f->entry))
			continue;
		if (!in_scopes(m, ix, f))
			continue;
		if (!keeps(m, ix, f)) {
			if (m->returns && f->inline_instance)
				note_inline_return(m, f);
			continue;
		}
		if (m->every_line && m->keep == DWM_STATEMENT && !m->callee && !m->label) {
			walked[k++] = f;	/* by group, below */
		} else if (!f->inline_instance && m->keep != DWM_STATEMENT && !m->label &&
			   !m->callee) {
			/* an assembler file's aliases are functions of their
			 * own at one address (libc's chdir, __chdir,
			 * __GI_chdir ...): probed once, as SystemTap does */
			if (probed[group[i]])
				continue;
			probed[group[i]] = true;
			dwmatch_func(m, ix, f);
		} else {
			dwmatch_func(m, ix, f);
		}
	}
	if (k > 0)
		every_line(m, ix, walked, k);
	free(group);
	free(probed);
	free(walked);
	free(found);
	return m->pushed - before;
}

/* SystemTap's suggestion after "no line records": " (try :451 or :454)". */
static const char *try_text(const struct dwmatch *m, char *buf, size_t size)
{
	if (m->try_below && m->try_above)
		snprintf(buf, size, " (try :%d or :%d)", m->try_below, m->try_above);
	else if (m->try_below || m->try_above)
		snprintf(buf, size, " (try :%d)", m->try_below ? m->try_below : m->try_above);
	else
		buf[0] = 0;
	return buf;
}

/* SystemTap's error when the functions have no rows at the lines: "no
 * match" for a list of lines. */
static char *no_line_records(const struct dwmatch *m, char *try, size_t size)
{
	const struct dwmatch_range *r = &m->ranges[0];

	if (m->n_ranges > 1)
		return xstrdup("no match");
	if (m->tried)	/* one line (+OFF: counted from the first function) */
		return xasprintf("no line records for %s:%d [man error::dwarf]%s", m->file,
				 m->try_line, try_text(m, try, size));
	if (m->lines == LINES_RELATIVE)
		return xasprintf("no line records for %s+%d [man error::dwarf]", m->file, r->lo);
	if (r->lo == r->hi)
		return xasprintf("no line records for %s:%d [man error::dwarf]", m->file, r->lo);
	return xasprintf("no line records for %s:%d-%d [man error::dwarf]", m->file, r->lo, r->hi);
}

int dwmatch_fail(const struct dwmatch *m, const struct dwindex *ix, struct family_error *err)
{
	const struct pp_comp *fn = m->comp;
	char try[64];
	struct nearest nr;

	if (m->pp->optional)
		return 0;
	if (m->callee && m->funcs_seen > 0)
		return family_no_match(err, m->callee_comp->arg ? &m->callee_comp->arg->pos
								: &m->callee_comp->pos, xstrdup("no match"));
	if (m->funcs_seen > 0 && m->lines != LINES_NONE)
		return family_fail(err, &fn->arg->pos, no_line_records(m, try, sizeof(try)));
	/* as SystemTap: the nearest names even to a glob */
	nearest_init(&nr, m->func);
	if (ix)
		dwindex_offer_names(ix, &nr);
	return family_no_match(err, &fn->arg->pos, nearest_no_match(&nr, "functions"));
}

/* A decimal line number from *s (advanced past it), a '+' sign allowed
 * (":+5" is line 5, as SystemTap reads it); false when none. */
static bool line_number(const char **s, int *n)
{
	const char *digits = *s + (**s == '+');
	char *end;
	long v;

	if (!(*digits >= '0' && *digits <= '9'))
		return false;
	v = strtol(digits, &end, 10);
	if (v > DWMATCH_LINE_MAX)
		return false;
	*n = (int)v;
	*s = end;
	return true;
}

/* One "N" or "N-M" of a ":" list, at *s (advanced past it). */
static bool parse_range(const char **s, struct dwmatch_range *r)
{
	if (!line_number(s, &r->lo))
		return false;
	r->hi = r->lo;
	if (**s == '-' && ((*s)++, !line_number(s, &r->hi)))
		return false;
	return r->lo <= r->hi;
}

static struct dwmatch_range *new_range(struct dwmatch *m)
{
	m->ranges = xrealloc(m->ranges, (m->n_ranges + 1) * sizeof(*m->ranges));
	return &m->ranges[m->n_ranges++];
}

/* The lines after the file in FILE ("FILE:N", ":N-M", ":N,M-K", ":*",
 * "+OFF"), cut off it; false when malformed. */
static bool parse_lines(struct dwmatch *m, char *file)
{
	char *sep = file + strcspn(file, ":+");
	const char *s = sep + 1;

	if (!*sep)
		return true;
	if (*sep == '+') {
		m->lines = LINES_RELATIVE;
		if (!line_number(&s, &new_range(m)->lo))
			return false;
	} else if (!strcmp(s, "*")) {	/* every line, as SystemTap's ":*" */
		struct dwmatch_range *r = new_range(m);

		m->lines = LINES_RANGE;
		r->lo = 1;
		r->hi = DWMATCH_LINE_MAX;
		m->every_line = true;
		s++;
	} else {
		m->lines = LINES_RANGE;
		for (;;) {
			if (!parse_range(&s, new_range(m)))
				return false;
			if (*s != ',')
				break;
			s++;
		}
	}
	*sep = '\0';
	return *s == '\0' && *file;
}

/* "A::B::PAT": m's scopes A and B, its function pattern PAT. */
static void split_scopes(struct dwmatch *m)
{
	char *sep;

	while ((sep = strstr(m->func, "::"))) {
		*sep = '\0';
		m->scopes = xrealloc(m->scopes, (m->n_scopes + 1) * sizeof(*m->scopes));
		m->scopes[m->n_scopes++] = m->func;
		m->func = sep + 2;
	}
}

bool dwmatch_parse(struct dwmatch *m, const char *spec, struct family_error *err)
{
	char *at;

	m->spec = xstrdup(spec);
	m->func = m->spec;
	at = strchr(m->spec, '@');
	if (at)
		*at = '\0';
	split_scopes(m);
	if (!at)
		return true;
	m->file = at + 1;
	if (parse_lines(m, at + 1))
		return true;
	family_fail(err, &m->comp->arg->pos, xasprintf("invalid line specification '%s'",
						       strchr(spec, '@') + 1));
	return false;
}

int dwmatch_callee_parse(struct dwmatch *m, const struct pp_comp *c, bool callees,
			 bool outline, struct family_error *err)
{
	m->keep = DWM_ALL;	/* the caller: any function of the name */
	m->callee_comp = c;
	m->callee_outline = outline;
	m->callee_depth = 1;
	if (!callees) {
		m->callee = c->arg->str;
		return 0;
	}
	m->callee = "*";
	if (c->arg && c->arg->num < 1)
		return family_fail(err, &c->arg->pos,
				   xstrdup(".callees(N) only acceptable for N >= 1"));
	if (c->arg)
		m->callee_depth = c->arg->num;
	return 0;
}

void dwmatch_done(struct dwmatch *m)
{
	free(m->spec);
	m->spec = NULL;
	free(m->ranges);
	m->ranges = NULL;
	free(m->scopes);
	m->scopes = NULL;
	m->n_scopes = 0;
	m->n_ranges = 0;
	for (size_t i = 0; i < m->inline_returns.n; i++)
		free(m->inline_returns.v[i]);
	vec_free(&m->inline_returns);
}
