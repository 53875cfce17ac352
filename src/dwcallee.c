/* The callees of a function in its DWARF (dwcallee.h).
 *
 * As SystemTap walks them: the children of the function's DIE (and of
 * its lexical blocks), not those of the functions inlined into it, which
 * are callees themselves; an inline instance is a callee at its entry,
 * a call site one at the entry of the function it names.  A call site
 * without a named callee (a call through a pointer) has none, nor one
 * whose callee has no code in this binary (a library's function).  Each
 * callee must be one the index would probe under its name: the same
 * rules as kernel.function("NAME") and process(...).function("NAME").
 *
 * Unlike SystemTap 4.8, which reads only GCC's DW_TAG_GNU_call_site
 * (DWARF 4) and the inline instances with a single address range, this
 * reads DWARF 5's DW_TAG_call_site too and every inline instance: the
 * same facts under their standard names.
 */
#include "dwcallee.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "dwloc.h"
#include "glob.h"
#include "util.h"

/* .callees(N) descends at most this far: a probe checks no deeper
 * stack than the runtime unwinds (MAXBACKTRACE, 20), and a recursive
 * function would otherwise lead the walk round in circles. */
#define DWCALLEE_MAX_DEPTH 20
/* And finds at most this many callees in all. */
#define DWCALLEE_MAX 100000

struct walk {
	const struct dwindex *ix;
	const char *pat;
	struct vec found;		/* struct dwcallee * */
	Dwarf_Addr *rets;		/* the calls on the way, outermost
					 * first */
	size_t nrets;
};

static void visit(struct walk *w, Dwarf_Die *parent, const char *caller, long long depth);

static char *func_text(const struct dwindex *ix, const struct dwfunc *f)
{
	int line;
	const char *file = dwindex_decl_file(ix, f, &line);

	return line > 0 ? xasprintf("%s@%s:%d", f->name, file, line)
			: xasprintf("%s@%s", f->name, file ? file : "??");
}

/* The index's function NAME whose DIE is at OFF (an inline instance),
 * or NULL: one the index leaves out is no probe point. */
static const struct dwfunc *instance_of(const struct dwindex *ix, const char *name,
					Dwarf_Off off)
{
	const struct dwfunc **found, *f = NULL;
	size_t n = dwindex_match(ix, name, &found);

	for (size_t i = 0; i < n && !f; i++)
		if (found[i]->die == off)
			f = found[i];
	free(found);
	return f;
}

/*
 * The out-of-line function a call site's ORIGIN names: the one entered
 * at its address, when it is a definition; else (a declaration) an
 * external function of that name for an external declaration, or the
 * only function of that name.
 */
static const struct dwfunc *called_function(const struct dwindex *ix, Dwarf_Die *origin,
					    const char *name)
{
	const struct dwfunc **found, *f = NULL, *only = NULL;
	size_t n = dwindex_match(ix, name, &found), outline = 0;
	Dwarf_Attribute attr;
	bool external = dwarf_attr_integrate(origin, DW_AT_external, &attr) != NULL;
	Dwarf_Addr lo;
	bool has_lo = dwarf_lowpc(origin, &lo) == 0;

	for (size_t i = 0; i < n && !f; i++) {
		if (found[i]->inline_instance)
			continue;
		if (has_lo) {
			if (found[i]->entry == lo)
				f = found[i];
			continue;
		}
		if (external && found[i]->external)
			f = found[i];
		outline++;
		only = found[i];
	}
	free(found);
	if (!f && !has_lo && outline == 1)
		f = only;
	return f;
}

/* Record F, called from CALLER, with the calls on the way; its text. */
static const char *add(struct walk *w, const struct dwfunc *f, const char *caller, bool tail)
{
	struct dwcallee *c = xcalloc(1, sizeof(*c));

	c->func = f;
	c->caller = xstrdup(caller);
	c->text = func_text(w->ix, f);
	c->nrets = w->nrets;
	c->rets = xmalloc((w->nrets ? w->nrets : 1) * sizeof(*c->rets));
	for (size_t i = 0; i < w->nrets; i++)
		c->rets[i] = w->rets[w->nrets - 1 - i];
	c->tail_call = tail;
	vec_push(&w->found, c);
	return c->text;
}

static void inline_callee(struct walk *w, Dwarf_Die *die, const char *caller, long long depth)
{
	const char *name = dwarf_diename(die);
	const struct dwfunc *f;
	const char *text;

	if (!name || !glob_match(w->pat, name) ||
	    !(f = instance_of(w->ix, name, dwarf_dieoffset(die))))
		return;
	text = add(w, f, caller, false);
	if (depth > 1)
		visit(w, die, text, depth - 1);
}

static void call_site_callee(struct walk *w, Dwarf_Die *site, const char *caller,
			     long long depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, def;
	Dwarf_Addr ret;
	const struct dwfunc *f;
	const char *name, *text;

	if (!(dwarf_attr(site, DW_AT_call_origin, &attr) ||
	      dwarf_attr(site, DW_AT_abstract_origin, &attr)) ||
	    !dwarf_formref_die(&attr, &origin) ||
	    !(name = dwarf_diename(&origin)) || !glob_match(w->pat, name))
		return;
	if (!(dwarf_attr(site, DW_AT_call_return_pc, &attr) ||
	      dwarf_attr(site, DW_AT_low_pc, &attr)) ||
	    dwarf_formaddr(&attr, &ret) != 0)
		return;
	f = called_function(w->ix, &origin, name);
	if (!f)
		return;
	w->rets = xrealloc(w->rets, (w->nrets + 1) * sizeof(*w->rets));
	w->rets[w->nrets++] = ret;
	text = add(w, f, caller, dwloc_tail_call(site));
	if (depth > 1 && dwindex_die(w->ix, f->die, &def, NULL))
		visit(w, &def, text, depth - 1);
	w->nrets--;
}

static void visit(struct walk *w, Dwarf_Die *parent, const char *caller, long long depth)
{
	Dwarf_Die child, import;
	Dwarf_Attribute attr;

	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		if (w->found.n >= DWCALLEE_MAX)
			return;
		switch (dwarf_tag(&child)) {
		case DW_TAG_inlined_subroutine:
			inline_callee(w, &child, caller, depth);
			break;
		case DW_TAG_call_site:
		case DW_TAG_GNU_call_site:
			call_site_callee(w, &child, caller, depth);
			break;
		case DW_TAG_subprogram:		/* a nested function's own */
			break;
		case DW_TAG_imported_unit:
			if (dwarf_attr(&child, DW_AT_import, &attr) &&
			    dwarf_formref_die(&attr, &import))
				visit(w, &import, caller, depth);
			break;
		default:
			if (dwarf_haschildren(&child))
				visit(w, &child, caller, depth);
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

size_t dwcallee_find(const struct dwindex *ix, const struct dwfunc *f, const char *f_text,
		     const char *pat, long long depth, struct dwcallee **out)
{
	struct walk w = { .ix = ix, .pat = pat };
	Dwarf_Die die;
	size_t n;

	*out = NULL;
	if (!f->die || !dwindex_die(ix, f->die, &die, NULL))
		return 0;
	visit(&w, &die, f_text, depth < DWCALLEE_MAX_DEPTH ? depth : DWCALLEE_MAX_DEPTH);
	n = w.found.n;
	*out = xmalloc((n ? n : 1) * sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		(*out)[i] = *(struct dwcallee *)w.found.v[i];
		free(w.found.v[i]);
	}
	vec_free(&w.found);
	free(w.rets);
	return n;
}

void dwcallee_free(struct dwcallee *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].caller);
		free(v[i].text);
		free(v[i].rets);
	}
	free(v);
}
