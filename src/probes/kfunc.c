/* DWARF kernel probes, as SystemTap has them:
 *
 *   kernel.function("PAT[@FILE[:N|:N-M]]")[.call | .exported | .inline | .return[.maxactive(N)]
 *                                          | .label("LPAT")]
 *   kernel.function("PAT[@FILE]").callee("CPAT")[.call | .return], .callees[(N)]
 *   module("MOD").function("PAT[@FILE[:N|:N-M]]")[ same suffixes ]
 *   kernel.statement("PAT@FILE:N|:N-M|+OFF"), module("MOD").statement(...)
 *   kernel.function(ADDRESS)[.call | .exported | .return[.maxactive(N)]],
 *   kernel.statement(ADDRESS)[.nearest], module("MOD") the same
 *   kernel.statement(ADDRESS).absolute		(guru mode only)
 *
 * PAT and FILE may be globs, MOD too (over the target kernel's modules,
 * modules.dep); MOD may also be the path of a module file, as SystemTap
 * takes an out-of-tree module (its .ko, built with -g, is its own
 * debuginfo): the point keeps the path, probemod() and the registration
 * use the module's name.  A function is found in the DWARF function index of the
 * kernel or module (dwindex.h); each match gives one probe at its entry
 * pc: every out-of-line copy of it (subprogram) and, unless .call,
 * .exported or .return, every inline instance of it.  .call keeps the
 * out-of-line functions only, .inline the inline instances only,
 * .exported the exported functions; .return puts a kretprobe on the
 * out-of-line ones (an inline instance has no return to probe).
 *
 * A line (or a range of lines) after the file keeps the functions whose
 * code holds it: kernel.function("*@kernel/signal.c:734") is the entry of
 * the function line 734 is in.  kernel.statement puts a probe at the line
 * itself, in each function (or inline instance) PAT names whose code holds
 * it, at the lowest address of the line's rows; .nearest takes the
 * closest line with rows when that one has none; +OFF
 * counts from the function's declaration line; without a line, a
 * statement probe is at the function's entry, named by its declaration.
 *
 * The point is named as SystemTap resolves it, by the function's
 * declaration: kernel.function("vfs_read@fs/read_write.c:450").  It is
 * registered as the runtime's kprobes are (runtime/linux/kprobes.c):
 * a symbol and an offset past it: the function's own symbol when its
 * name is unique in the kernel or module, else "_stext" and the offset
 * from it in the kernel, or in a module the nearest function below it in
 * its section whose name is unique (dwloc_anchor).
 *
 * .callee("CPAT") and .callees[(N)] put the probes on the functions
 * the matched ones call (dwcallee.h), which run only when called from
 * them (callee.h): each named as the callee's own function point, and
 * listed as FUNCTION.callee("CALLEE").
 *
 * A module without debuginfo installed is searched, as SystemTap does,
 * in its .ko's symbol table (kmodsyms.h): a function point without a
 * file, line or label matches the function symbols by name, each probed
 * at its symbol, named by it alone and without variables ($$parms,
 * $$locals and $$vars are empty), with SystemTap's warning that the
 * module's debuginfo cannot be found.
 *
 * Each probe's payload (fp.data) makes its struct dwarf_scope
 * (dwscope.h), what the DWARF target-variable resolver reads, when a
 * target variable first needs it: looking up its DIEs loads their
 * compile unit, and kernel.function("*") without $vars would load every
 * compile unit of the vmlinux for nothing (and keep 287,000 scopes).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callee.h"
#include "dwindex.h"
#include "dwloc.h"
#include "dwscope.h"
#include "dwtvar.h"
#include "glob.h"
#include "probes/dwmatch.h"
#include "kinfo.h"
#include "kmodsyms.h"
#include "pptext.h"
#include "klines.h"
#include "probes/family.h"
#include "translate_int.h"
#include "tvar.h"
#include "util.h"

/* Variant bits of the patterns. */
enum {
	DV_MODULE = 1,		/* module("M") instead of kernel */
	DV_CALL = 2,		/* .call */
	DV_EXPORTED = 4,	/* .exported */
	DV_INLINE = 8,		/* .inline */
	DV_RETURN = 16,		/* .return */
	DV_MAXACTIVE = 32,	/* .return.maxactive(N) */
	DV_ABSOLUTE = 64,	/* kernel.statement(ADDR).absolute */
	DV_STATEMENT = 128,	/* kernel.statement("F@FILE:N") */
	DV_NEAREST = 256,	/* .statement(...).nearest */
	DV_LABEL = 512,		/* .function(...).label("PAT") */
	DV_CALLEE = 1024,	/* .function(...).callee("PAT") */
	DV_CALLEES = 2048,	/* .function(...).callees[(N)] */
	DV_ADDR = 4096,		/* .function(ADDR), .statement(ADDR) */
};

static const struct pattern_row kfunc_rows[] = {
	{ 0, { PAT_C("kernel", PA_NONE),
	       PAT_OR("module", PA_STR, DV_MODULE),
	       PAT_C("function", PA_STR),
	       PAT_OPT("call", PA_NONE, DV_CALL),
	       PAT_OR("exported", PA_NONE, DV_EXPORTED),
	       PAT_OR("inline", PA_NONE, DV_INLINE),
	       PAT_OR("return", PA_NONE, DV_RETURN),
	       PAT_OR("label", PA_STR, DV_LABEL),
	       { "maxactive", PA_NUM, PC_OPTIONAL, DV_MAXACTIVE, DV_RETURN } } },
	{ DV_CALLEE, { PAT_C("kernel", PA_NONE),
		       PAT_OR("module", PA_STR, DV_MODULE),
		       PAT_C("function", PA_STR),
		       PAT_C("callee", PA_STR),
		       PAT_OPT("call", PA_NONE, DV_CALL),
		       PAT_OR("return", PA_NONE, DV_RETURN) } },
	{ DV_CALLEES, { PAT_C("kernel", PA_NONE),
			PAT_OR("module", PA_STR, DV_MODULE),
			PAT_C("function", PA_STR),
			PAT_C("callees", PA_OPTNUM) } },
	{ DV_STATEMENT, { PAT_C("kernel", PA_NONE),
			  PAT_OR("module", PA_STR, DV_MODULE),
			  PAT_C("statement", PA_STR),
			  PAT_OPT_RESOLVED("nearest", PA_NONE, DV_NEAREST) } },
	{ DV_ABSOLUTE, { PAT_C("kernel", PA_NONE), PAT_C("statement", PA_NUM),
			 PAT_C("absolute", PA_NONE) } },
	{ DV_ADDR, { PAT_C("kernel", PA_NONE),
		     PAT_OR("module", PA_STR, DV_MODULE),
		     PAT_C("function", PA_NUM),
		     PAT_OPT("call", PA_NONE, DV_CALL),
		     PAT_OR("exported", PA_NONE, DV_EXPORTED),
		     PAT_OR("return", PA_NONE, DV_RETURN),
		     { "maxactive", PA_NUM, PC_OPTIONAL, DV_MAXACTIVE, DV_RETURN } } },
	/* .nearest changes nothing for an address: as SystemTap's, one that
	 * begins no statement is an error that names the one it is in */
	{ DV_ADDR | DV_STATEMENT, { PAT_C("kernel", PA_NONE),
				    PAT_OR("module", PA_STR, DV_MODULE),
				    PAT_C("statement", PA_NUM),
				    PAT_OPT_RESOLVED("nearest", PA_NONE, DV_NEAREST) } },
};

/* SystemTap keeps maxactive in an unsigned short. */
#define KFUNC_MAXACTIVE_MAX 65535

/* A probe's payload: one block, the strings at its end. */
struct kfunc_data {
	/* owned: the resolver's view with its DIEs read (kfunc_scope), or
	 * NULL until a target variable needs it */
	struct dwarf_scope *scope;
	const struct dwindex *ix;	/* the function's index ... */
	Dwarf_Off die;			/* ... and DIE, for the scope's DIEs */
	Dwarf_Addr pc;			/* the probe's address in the DWARF */
	bool at_return;			/* a .return probe */
	bool function_entry;		/* dwarf_scope.function_entry */
	bool symtab_only;		/* a function of the symbol table only:
					 * no DIEs, no target variables (and
					 * in a module without DWARF, no ix) */
	bool init_text;			/* a module's, in its .init.text */
	const char *symbol;		/* registered at symbol + offset */
	unsigned long offset;
	const char *module;		/* NULL: the kernel */
	const char *scope_module;	/* "kernel", or module */
	uint64_t stext_off;		/* in the kernel: its address from
					 * _stext's, as -p2 prints it */
	char text[];
};

/* What one expansion pushes its probes with (dwmatch.ctx). */
struct kfunc_query {
	int variant;
	int64_t maxactive;
	const char *module;		/* the binary matched now: NULL, the kernel */
	struct vec *out;
	const char *mod_text;		/* module("M")'s M as written, when it is
					 * not the module's name (a path) */
};

static char *stash(char **at, const char *s)
{
	char *copy = *at;
	size_t len = strlen(s) + 1;

	memcpy(copy, s, len);
	*at += len;
	return copy;
}

/* The payload for F in IX (module MOD or NULL), registered at SYM+OFF. */
static struct kfunc_data *make_data(const struct dwindex *ix, const struct dwfunc *f,
				    const char *mod, const char *sym, unsigned long off,
				    bool at_return)
{
	struct kfunc_data *d = xcalloc(1, sizeof(*d) + strlen(sym) + (mod ? strlen(mod) : 0) + 2);
	char *at = d->text;

	d->ix = ix;
	d->die = f->die;
	d->pc = f->entry;
	d->at_return = at_return;
	d->symbol = stash(&at, sym);
	d->module = mod ? stash(&at, mod) : NULL;
	d->scope_module = mod ? d->module : "kernel";
	d->offset = off;
	return d;
}

/* jiffies_64's link-time address in the kernel IX (tap_kernel_reloc's
 * reference), looked up once: a scan of the symbol table. */
static uint64_t kernel_reloc_ref(const struct dwindex *ix)
{
	static const struct dwindex *looked_in;
	static uint64_t ref;

	if (looked_in != ix) {
		ref = 0;
		dwloc_symbol(dwindex_dwarf(ix), "jiffies_64", &ref);
		looked_in = ix;
	}
	return ref;
}

/* A .callee probe's callee and the calls that lead to it (callee.h):
 * their return addresses relocated as the kernel's statics are, or in
 * a module placed from a symbol as its probes are. */
static void kfunc_callee(struct family_point *fp, const struct dwindex *ix, const char *mod,
			 const struct dwcallee *c, bool at_return)
{
	struct callee_callers *k;

	fp->callee = xstrdup(c->text);
	if (c->nrets == 0)	/* inlined into its caller: always called from it */
		return;
	k = callee_callers_new(c->rets, c->nrets, false, at_return);
	k->tail_call = c->tail_call;
	if (!mod) {
		k->reloc_ref = kernel_reloc_ref(ix);
	} else {
		k->modsym = xcalloc(k->n, sizeof(*k->modsym));
		for (size_t i = 0; i < k->n; i++) {
			unsigned long off = 0;
			const char *sym = dwindex_symbol(ix, k->addr[i], &off);

			if (!sym)
				sym = dwloc_anchor(dwindex_dwarf(ix), k->addr[i], &off);
			/* no symbol to find it by: a check that never passes */
			k->modsym[i] = xasprintf("%s:%s", mod, sym ? sym : "?");
			k->addr[i] = off;
		}
	}
	fp->callers = k;
}

/* One probe on the function whose DIE is DIE (0: a symbol's only) in
 * IX, at ADDR, registered at SYM + OFF and named TEXT (the function's
 * component). */
static void push_point(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		       const char *sym, unsigned long off, char *text, Dwarf_Addr addr,
		       bool init_text)
{
	const struct kfunc_query *q = m->ctx;
	const char *mod = q->module;
	struct family_point *fp = xcalloc(1, sizeof(*fp));
	struct kfunc_data *d;

	fp->target = text;
	fp->module = mod ? xstrdup(q->mod_text ? q->mod_text : mod) : NULL;
	fp->num[0] = q->maxactive;
	fp->flags = (q->variant & DV_RETURN) ? 1 : 0;
	fp->target_comp = 1;
	fp->label = m->at_label ? xstrdup(m->at_label) : NULL;
	if (m->at_callee)
		kfunc_callee(fp, ix, mod, m->at_callee, q->variant & DV_RETURN);
	fp->data = d = make_data(ix, f, mod, sym, off, q->variant & DV_RETURN);
	d->pc = addr;
	d->function_entry = m->keep != DWM_STATEMENT && !m->at_label;
	if (!mod)
		d->stext_off = addr - dwindex_stext(ix);
	d->symtab_only = f->die == 0;
	d->init_text = init_text;
	vec_push(q->out, fp);
}

/* One probe on F at ADDR, named TEXT (the function's component). */
static void push_probe(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		       char *text, Dwarf_Addr addr)
{
	const struct kfunc_query *q = m->ctx;
	unsigned long off = 0;
	const char *sym = dwindex_symbol(ix, addr, &off);

	/* two files' statics of one name in a module: placed from a
	 * neighbour whose name is the module's only one */
	if (!sym && q->module)
		sym = dwloc_anchor(dwindex_dwarf(ix), addr, &off);

	if (!sym) {		/* no symbol to place it by (see dwindex_symbol) */
		free(text);
		return;
	}
	push_point(m, ix, f, sym, off, text, addr,
		   q->module && dwindex_in_init_text(ix, addr));
}

/* The functions of IX's symbol table that m's function names beside
 * its DWARF functions (dwindex_symtab_funcs), as SystemTap probes them
 * for a function point without a file: "tty_init_dev.part.0",
 * "tty_ioctl.cold", named by the symbol alone.  A statement point, or an
 * .exported one on a function the binary does not export, has none. */
static void push_symtab(struct dwmatch *m, const struct dwindex *ix)
{
	struct dwsym *syms;
	size_t n;

	if (m->file || m->keep == DWM_STATEMENT || m->callee || m->n_scopes)
		return;
	n = dwindex_symtab_funcs(ix, m->func, &syms);
	for (size_t i = 0; i < n; i++) {
		struct dwfunc f = { .name = syms[i].name, .entry = syms[i].addr };

		if (m->keep == DWM_EXPORTED && !dwindex_exported(ix, f.name))
			continue;
		if (syms[i].alias) {
			if (m->keep != DWM_INLINE)
				dwmatch_func(m, ix, syms[i].alias);
			continue;
		}
		if (dwmatch_blocked(m, f.name, NULL))
			continue;
		m->pushed++;
		push_probe(m, ix, &f, xstrdup(f.name), f.entry);
	}
	free(syms);
}

/* m's probes in IX: its DWARF functions, then its symbol table's. */
static size_t match_in(struct dwmatch *m, const struct dwindex *ix)
{
	size_t before = m->pushed;

	dwmatch_in(m, ix);
	push_symtab(m, ix);
	return m->pushed - before;
}

static int expand_kernel(struct dwmatch *m, struct family_error *err)
{
	const struct kfunc_query *q = m->ctx;
	const char *why = NULL;
	const struct dwindex *ix = kinfo_dwarf(&why);

	if (!ix)
		return family_fail(err, &family_comp(m->pp, 0)->pos, xstrdup(why ? why : "no kernel debuginfo"));
	if (match_in(m, ix) > 0)
		return (int)q->out->n;
	return dwmatch_fail(m, ix, err);
}

/*
 * module("PAT"): in(ctx, ix, err) searches the DWARF of PAT itself (a
 * name, or the path of a .ko), or that of each module PAT's glob
 * matches, q->module (and q->mod_text) naming the module.  A module
 * whose DWARF is missing is searched by in_symbols(ctx, syms, err) in
 * its symbol table instead, when given; else (and when its symbols
 * cannot be read either, or match nothing) PAT's missing DWARF is the
 * error, a glob's module is skipped.  Returns the searches' counts
 * summed, or -1 with *err filled; *last is the last DWARF searched.
 */
static int each_module(const struct pp_comp *mc, struct kfunc_query *q,
		       int (*in)(void *ctx, const struct dwindex *ix, struct family_error *err),
		       int (*in_symbols)(void *ctx, const struct kmodsyms *syms,
					 struct family_error *err),
		       void *ctx, const struct dwindex **last, struct family_error *err)
{
	const char *pat = mc->arg->str, *why = NULL;
	const char *const *names;
	int n = 0;

	*last = NULL;
	if (!glob_is_pattern(pat) || strchr(pat, '/')) {
		const struct dwindex *ix = kinfo_module_dwarf(pat, &why);
		const char *no_name = NULL, *name = kinfo_module_name(pat, &no_name);
		const struct kmodsyms *syms = NULL;
		int k;

		if (!name)
			return family_fail(err, &mc->arg->pos, xstrdup(no_name));
		if (!ix && in_symbols)
			syms = kinfo_module_symbols(name, NULL);
		if (!ix && !syms)
			return family_fail(err, &mc->arg->pos, xstrdup(why));
		q->module = name;
		/* a path is kept in the point; "nvme-core" is the kernel's
		 * nvme_core, as SystemTap names it */
		if (strchr(pat, '/'))
			q->mod_text = pat;
		if (ix) {
			*last = ix;
			return in(ctx, ix, err);
		}
		/* nothing by name either: the missing DWARF is what to say */
		k = in_symbols(ctx, syms, err);
		return k ? k : family_fail(err, &mc->arg->pos, xstrdup(why));
	}
	names = kinfo_module_names();
	for (size_t i = 0; n >= 0 && names && names[i]; i++) {
		const struct dwindex *ix;
		const struct kmodsyms *syms;
		int k;

		if (!glob_match(pat, names[i]))
			continue;
		q->module = names[i];
		if ((ix = kinfo_module_dwarf(names[i], NULL))) {
			*last = ix;
			k = in(ctx, ix, err);
		} else if (in_symbols && (syms = kinfo_module_symbols(names[i], NULL))) {
			k = in_symbols(ctx, syms, err);
		} else {
			continue;
		}
		n = k < 0 ? k : n + k;
	}
	return n;
}

/* each_module's search for a dwmatch (ctx). */
static int match_module(void *ctx, const struct dwindex *ix, struct family_error *err)
{
	(void)err;
	return (int)match_in(ctx, ix);
}

/* The functions of module q->module's symbol table (its DWARF is
 * missing) that m names, as SystemTap probes them then:
 * by name alone, a point with a file, line, label or callee matching
 * none, .statement none; .inline and .call as the function itself.
 * SystemTap's warning when any matched. */
static int match_module_symbols(void *ctx, const struct kmodsyms *syms,
				struct family_error *err)
{
	struct dwmatch *m = ctx;
	const struct kfunc_query *q = m->ctx;
	const struct kmodsym **found;
	size_t n, pushed = 0;

	if (m->file || m->keep == DWM_STATEMENT || m->label || m->callee || m->n_scopes)
		return 0;
	n = kmodsyms_match(syms, m->func, &found);
	for (size_t i = 0; i < n; i++) {
		struct dwfunc f = { .name = found[i]->name };

		if ((m->keep == DWM_EXPORTED && !found[i]->exported) ||
		    dwmatch_blocked(m, f.name, NULL))
			continue;
		m->pushed++;
		pushed++;
		push_point(m, NULL, &f, f.name, 0, xstrdup(f.name), 0, found[i]->init);
	}
	free(found);
	if (pushed)
		vec_push(&err->plain_warnings, xasprintf("cannot find module %s debuginfo: No DWARF "
							 "information found [man warning::debuginfo]",
							 q->module));
	return (int)pushed;
}

/* module("M"): M's DWARF, or every module M's glob matches, each by its
 * DWARF or, where that is missing, its symbol table. */
static int expand_modules(struct dwmatch *m, struct family_error *err)
{
	struct kfunc_query *q = m->ctx;
	const struct dwindex *last;

	if (each_module(family_comp(m->pp, 0), q, match_module, match_module_symbols, m, &last,
			err) < 0)
		return -1;
	if (q->out->n > 0)
		return (int)q->out->n;
	return dwmatch_fail(m, last, err);
}

static int expand_absolute(const struct probe_point *pp, struct vec *out,
			   struct family_error *err)
{
	struct family_point *fp;

	if (!pp->pos.file || !pp->pos.file->privileged)
		return family_fail(err, &family_comp(pp, 0)->pos, xstrdup(
			"absolute statement probe in unprivileged script; need stap -g"));
	fp = xcalloc(1, sizeof(*fp));
	fp->num[0] = family_comp(pp, 1)->arg->num;
	fp->target_comp = -1;
	vec_push(out, fp);
	return 1;
}

static bool kernel_exports(const struct dwindex *ix, const struct dwfunc *f)
{
	return dwindex_exported(ix, f->name);
}

/*
 * kernel.function(ADDR): the function whose code holds ADDR, at its
 * entry (.exported: only if the kernel exports it);
 * kernel.statement(ADDR): ADDR itself, which must begin a statement (a
 * line-table row), as SystemTap places them.  In a module, ADDR is one of
 * the module's DWARF as libdwfl lays an unrelocated module out (from
 * 0x10000, its sections in order), which is what SystemTap takes too.
 */
struct address_query {
	const struct point_pattern *pat;
	const struct probe_point *pp;
	struct kfunc_query *q;
};

static int address_in(void *ctx, const struct dwindex *ix, struct family_error *err)
{
	const struct address_query *aq = ctx;
	const struct point_pattern *pat = aq->pat;
	const struct probe_point *pp = aq->pp;
	struct kfunc_query *q = aq->q;
	const struct pp_comp *c = family_comp(pp, 1);
	Dwarf_Addr addr = (Dwarf_Addr)c->arg->num, start;
	struct dwmatch m = { .pp = pp, .comp = c, .ctx = q,
			     .keep = (pat->variant & DV_STATEMENT) ? DWM_STATEMENT : DWM_ALL };
	const struct dwfunc *f = NULL;
	size_t before = q->out->n;

	if (dwindex_function_start(ix, addr, &start))
		f = dwindex_at(ix, start);
	if (!f || ((pat->variant & DV_EXPORTED) && !kernel_exports(ix, f)))
		return 0;
	if (pat->variant & DV_STATEMENT) {
		if (!dwindex_row_start(ix, addr, &start))
			return 0;
		if (start != addr)
			return family_fail(err, &c->arg->pos, xasprintf(
				"address %#" PRIx64 " does not match the beginning of a statement "
				"(try %#" PRIx64 ")", (uint64_t)addr, (uint64_t)start));
	} else {
		addr = f->entry;
	}
	push_probe(&m, ix, f, xasprintf("%#" PRIx64, (uint64_t)addr), addr);
	return (int)(q->out->n - before);
}

/* ADDR in the kernel, in module("M"), or in each module M's glob
 * matches that has DWARF installed. */
static int expand_address(const struct point_pattern *pat, const struct probe_point *pp,
			  struct kfunc_query *q, struct family_error *err)
{
	struct address_query aq = { .pat = pat, .pp = pp, .q = q };
	const struct pp_comp *mc = family_comp(pp, 0);
	const struct dwindex *ix;
	const char *why = NULL;
	int n;

	if (pat->variant & DV_MODULE) {
		n = each_module(mc, q, address_in, NULL, &aq, &ix, err);
	} else {
		if (!(ix = kinfo_dwarf(&why)))
			return family_fail(err, &mc->pos, xstrdup(why ? why : "no kernel debuginfo"));
		n = address_in(&aq, ix, err);
	}
	if (n != 0)
		return n;
	return family_no_match(err, &family_comp(pp, 1)->pos, xstrdup("no match"));
}

/* Which matches a variant keeps. */
static enum dwmatch_keep variant_keep(int variant)
{
	if (variant & DV_STATEMENT)
		return DWM_STATEMENT;
	if (variant & DV_INLINE)
		return DWM_INLINE;
	if (variant & (DV_CALL | DV_RETURN))
		return DWM_CALL;
	if (variant & DV_EXPORTED)
		return DWM_EXPORTED;
	return DWM_ALL;
}

static int kfunc_expand(const struct point_pattern *pat, const struct probe_point *pp,
			struct vec *out, struct family_error *err)
{
	struct kfunc_query q = { .variant = pat->variant, .maxactive = -1, .out = out };
	struct dwmatch m = { .pp = pp, .comp = family_comp(pp, 1), .keep = variant_keep(pat->variant),
			     .exported = kernel_exports, .push = push_probe, .ctx = &q };
	int n;

	if (pat->variant & DV_ABSOLUTE)
		return expand_absolute(pp, out, err);
	if (pat->variant & DV_MAXACTIVE) {
		const struct pp_comp *ma = family_comp(pp, pat->n - 1);

		q.maxactive = ma->arg->num;
		if (q.maxactive < 0 || q.maxactive > KFUNC_MAXACTIVE_MAX)
			return family_fail(err, &ma->arg->pos, xasprintf(
				"maxactive value out of range [0,%d]", KFUNC_MAXACTIVE_MAX));
	}
	if (pat->variant & DV_ADDR)
		return expand_address(pat, pp, &q, err);
	m.nearest = pat->variant & DV_NEAREST;
	m.warnings = &err->warnings;
	if (!err->guru)
		m.blocked = &err->warnings;
	m.returns = pat->variant & DV_RETURN;
	if (pat->variant & DV_LABEL)
		m.label = family_comp(pp, 2)->arg->str;
	if ((pat->variant & (DV_CALLEE | DV_CALLEES)) &&
	    dwmatch_callee_parse(&m, family_comp(pp, 2), pat->variant & DV_CALLEES,
				 pat->variant & (DV_CALL | DV_RETURN), err) < 0)
		return -1;
	if (!dwmatch_parse(&m, m.comp->arg->str, err)) {
		dwmatch_done(&m);
		return -1;
	}
	n = (pat->variant & DV_MODULE) ? expand_modules(&m, err) : expand_kernel(&m, err);
	dwmatch_inline_returns(&m, &err->plain_warnings);
	dwmatch_done(&m);
	return n;
}

/* -p2: where the probe goes, as SystemTap's "pc=" comment: in the
 * kernel, from _stext; in a module, from the symbol it is placed by (a
 * decimal offset, as stap prints it). */
static char *kfunc_print_sig(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	if (dp->variant & DV_ABSOLUTE)
		return xasprintf(" /* pc=+0x%" PRIx64 " */", (uint64_t)dp->fp.num[0]);
	if (!d)
		return NULL;
	if (d->module)
		return xasprintf(" /* pc=<%s:%s+%lu> */", d->module, d->symbol, d->offset);
	return xasprintf(" /* pc=_stext+0x%" PRIx64 " */", d->stext_off);
}

/* A point on an address names it in hex (SystemTap's
 * "kernel.function(0xffffffff813669ea)"), in pp(), -l and -p2. */
static struct probe_point *kfunc_derived_point(const struct derived_probe *dp)
{
	struct probe_point *named;
	struct pp_comp *c;

	if (!(dp->variant & DV_ADDR))
		return NULL;
	named = probe_point_dup(dp->loc);
	expr_free(named->cond);
	named->cond = NULL;
	c = named->comps.v[1];
	c->arg->op = PP_NUM_HEX;
	return named;
}

/* @cast's default in a module's probe: the module (the kernel's is the
 * default anyway). */
static const char *kfunc_cast_module(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	return d ? d->module : NULL;
}

/* A function(ADDR) probe is listed (and derived in -p2) from the entry
 * of the function its address is in, as SystemTap's. */
static struct probe_point *kfunc_listed_point(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;
	struct probe_point *named;

	if (!(dp->variant & DV_ADDR) || (dp->variant & DV_STATEMENT) || !d)
		return NULL;
	named = kfunc_derived_point(dp);
	((struct pp_comp *)named->comps.v[1])->arg->num = (int64_t)d->pc;
	return named;
}

/* -p2's point of a .label probe leaves the label out, as SystemTap's
 * (its derivation keeps it); an absolute address is in hex there. */
static void kfunc_print_point(const struct derived_probe *dp, char **point, char **chain)
{
	struct strbuf sb = STRBUF_INIT;

	(void)chain;
	if (dp->variant & DV_ABSOLUTE) {	/* its address in hex */
		*point = xasprintf("kernel.statement(0x%" PRIx64 ").absolute",
				   (uint64_t)dp->fp.num[0]);
		return;
	}
	if (!(dp->variant & DV_LABEL))
		return;
	for (size_t i = 0; i < dp->loc->comps.n; i++) {
		const struct pp_comp *c = dp->loc->comps.v[i];

		if (strcmp(c->name, "label"))
			pp_comps_text(&sb, dp->loc, i, i + 1);
	}
	*point = strbuf_detach(&sb);
}

/* D's scope with its DIEs read (the first time it is asked for), or NULL
 * when the DWARF cannot give them. */
static const struct dwarf_scope *kfunc_scope(struct kfunc_data *d)
{
	struct dwarf_scope *s;

	if (d->symtab_only || d->scope)
		return d->scope;
	s = xcalloc(1, sizeof(*s));
	if (!dwindex_die(d->ix, d->die, &s->func, &s->cu)) {
		free(s);
		return NULL;
	}
	s->pc = d->pc;
	s->at_return = d->at_return;
	s->function_entry = d->function_entry;
	s->debug_file = dwindex_debug_file(d->ix);
	s->module = d->scope_module;
	s->symbol_at = dwindex_symbol;
	s->ix = d->ix;
	d->scope = s;
	return s;
}

static void kfunc_free_data(void *data)
{
	struct kfunc_data *d = data;

	if (d)
		free(d->scope);
	free(d);
}

/* A symbol-table function has no variables: $$vars, $$parms, $$locals
 * and $$return are empty strings, any other one SystemTap's error. */
static enum sem_type symtab_target_type(const struct kfunc_data *d, const struct expr *e,
					bool write, struct family_error *err,
					struct tvar **access)
{
	if ((*access = tvar_empty_context(e, write)))
		return SEM_STRING;
	err->pos = e->pos;
	err->msg = xasprintf("debuginfo scope not found for module '%s', cannot resolve context "
			     "variable [man error::dwarf]", d->scope_module);
	return SEM_UNKNOWN;
}

/* $var ... over the function's DWARF (dwtvar.h); an absolute statement
 * has none. */
static enum sem_type kfunc_target_type(const struct derived_probe *dp, const struct expr *e,
				       bool write, struct family_error *err,
				       struct tvar **access)
{
	struct kfunc_data *d = dp->fp.data;
	const struct dwarf_scope *scope = d ? kfunc_scope(d) : NULL;

	if (d && d->symtab_only)
		return symtab_target_type(d, e, write, err, access);
	if (!scope) {
		err->pos = e->pos;
		err->msg = xstrdup(d ? "the function's debuginfo cannot be read"
				     : "target variables are not available at an absolute address");
		return SEM_UNKNOWN;
	}
	return dwtvar_type(scope, e, write, err, access);
}

static void kfunc_list_targets(const struct derived_probe *dp, struct vec *out)
{
	struct kfunc_data *d = dp->fp.data;
	const struct dwarf_scope *scope = d ? kfunc_scope(d) : NULL;

	if (scope)
		dwtvar_list(scope, out);
}

/* .return probes are kretprobes, which run an entry half for @entry and
 * for the variables they read at entry. */
static bool kfunc_saves_entry(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	return d && d->at_return;
}

/* @var("name") in a module("M") probe looks in M. */
static const char *kfunc_debug_module(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	return d ? d->module : NULL;
}

/* ---- pass 3 ---------------------------------------------------------- */

extern const struct probe_family probe_family_kfunc;

Dwarf *kfunc_kernel_pc(const struct derived_probe *dp, uint64_t *pc)
{
	const struct kfunc_data *d = dp->fp.data;

	if (dp->family != &probe_family_kfunc || !dp->runs || !d || d->module)
		return NULL;
	*pc = d->pc;
	return dwindex_dwarf(d->ix);
}

Dwarf *kfunc_module_pc(const struct derived_probe *dp, uint64_t *pc, const char **module,
		       const char **symbol)
{
	const struct kfunc_data *d = dp->fp.data;

	if (dp->family != &probe_family_kfunc || !dp->runs || !d || !d->module || !d->ix)
		return NULL;
	*pc = d->pc;
	*module = d->module;
	*symbol = d->symbol;
	return dwindex_dwarf(d->ix);
}

static void emit_str_field(FILE *out, const char *field, const char *s)
{
	char *lit;

	if (!s) {
		fprintf(out, ".%s = NULL, ", field);
		return;
	}
	lit = tr_cstr(s, strlen(s));
	fprintf(out, ".%s = %s, ", field, lit);
	free(lit);
}

static void kfunc_emit(FILE *out, const struct derived_probe *dp, size_t index)
{
	const struct kfunc_data *d = dp->fp.data;
	int optional = dp->loc->optional ? 1 : 0;

	(void)index;
	fputs(".kind = TAP_PROBE_KPROBE, ", out);
	if (!d) {	/* an absolute address: above 2^63, unsigned */
		fprintf(out, ".target = NULL, .module = NULL, .flags = 0, .u.kprobe = { .addr = %"
			PRIu64 "UL, .maxactive = -1, .optional = %d }, ",
			(uint64_t)dp->fp.num[0], optional);
		return;
	}
	emit_str_field(out, "target", d->symbol);
	emit_str_field(out, "module", d->module);
	fprintf(out, ".flags = %s, ", dp->fp.flags ? "TAP_PF_RETURN" : "0");
	fprintf(out, ".u.kprobe = { .offset = %luUL, .maxactive = %d, .optional = %d, "
		".init_text = %d }, ", d->offset, (int)dp->fp.num[0], optional, d->init_text);
}

const struct probe_family probe_family_kfunc = {
	.name = "kernel.function",
	.rows = kfunc_rows,
	.n_rows = sizeof(kfunc_rows) / sizeof(kfunc_rows[0]),
	.expand = kfunc_expand,
	.free_data = kfunc_free_data,
	.target_type = kfunc_target_type,
	.list_targets = kfunc_list_targets,
	.saves_entry = kfunc_saves_entry,
	.debug_module = kfunc_debug_module,
	.print_sig = kfunc_print_sig,
	.print_point = kfunc_print_point,
	.derived_point = kfunc_derived_point,
	.listed_point = kfunc_listed_point,
	.cast_module = kfunc_cast_module,
	.armable = true,
	.emit_entry = kfunc_emit,
};
