/* DWARF kernel probes, as SystemTap has them:
 *
 *   kernel.function("PAT[@FILE[:N|:N-M]]")[.call | .exported | .inline | .return[.maxactive(N)]]
 *   module("MOD").function("PAT[@FILE[:N|:N-M]]")[ same suffixes ]
 *   kernel.statement("PAT@FILE:N|:N-M|+OFF"), module("MOD").statement(...)
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
 * it, at the lowest address where a statement of that line begins; +OFF
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
 * Each probe's payload (fp.data) starts with its struct dwarf_scope
 * (dwscope.h), what the DWARF target-variable resolver reads.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dwindex.h"
#include "dwloc.h"
#include "dwscope.h"
#include "dwtvar.h"
#include "glob.h"
#include "kinfo.h"
#include "probes/family.h"
#include "translate_int.h"
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
};

static const struct pattern_row kfunc_rows[] = {
	{ 0, { PAT_C("kernel", PA_NONE),
	       PAT_OR("module", PA_STR, DV_MODULE),
	       PAT_C("function", PA_STR),
	       PAT_OPT("call", PA_NONE, DV_CALL),
	       PAT_OR("exported", PA_NONE, DV_EXPORTED),
	       PAT_OR("inline", PA_NONE, DV_INLINE),
	       PAT_OR("return", PA_NONE, DV_RETURN),
	       { "maxactive", PA_NUM, PC_OPTIONAL, DV_MAXACTIVE, DV_RETURN } } },
	{ DV_STATEMENT, { PAT_C("kernel", PA_NONE),
			  PAT_OR("module", PA_STR, DV_MODULE),
			  PAT_C("statement", PA_STR) } },
	{ DV_ABSOLUTE, { PAT_C("kernel", PA_NONE), PAT_C("statement", PA_NUM),
			 PAT_C("absolute", PA_NONE) } },
};

/* The highest line number a line specification may name. */
#define KFUNC_LINE_MAX 100000000

/* SystemTap keeps maxactive in an unsigned short. */
#define KFUNC_MAXACTIVE_MAX 65535

/* A probe's payload: one block, the strings at its end. */
struct kfunc_data {
	struct dwarf_scope scope;	/* first: the resolver's view */
	const char *symbol;		/* registered at symbol + offset */
	unsigned long offset;
	const char *module;		/* NULL: the kernel */
	char text[];
};

/* The lines a point names after its file. */
enum line_kind {
	LINES_NONE,			/* none */
	LINES_RANGE,			/* :N or :N-M */
	LINES_RELATIVE,			/* +OFF from the declaration's line */
};

/* What one expansion looks for. */
struct kfunc_query {
	const struct probe_point *pp;
	int variant;
	const char *func;		/* the function pattern */
	char *file;			/* the file pattern, or NULL */
	enum line_kind lines;
	int lo, hi;			/* LINES_RANGE: lo..hi; RELATIVE: lo */
	int64_t maxactive;
	struct vec *out;
	size_t funcs_seen;		/* functions that matched but for lines */
	const char *mod_text;		/* module("M")'s M as written, when it is
					 * not the module's name (a path) */
};

/* Whether the variant keeps function F. */
static bool variant_keeps(const struct dwindex *ix, const struct kfunc_query *q,
			  const struct dwfunc *f)
{
	if (q->variant & DV_STATEMENT)
		return true;
	if (q->variant & DV_INLINE)
		return f->inline_instance;
	if (q->variant & (DV_CALL | DV_RETURN))
		return !f->inline_instance;
	if (q->variant & DV_EXPORTED)
		return !f->inline_instance && f->external && dwindex_exported(ix, f->name);
	return true;
}

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
	const char *scope_mod = mod ? mod : "kernel";
	struct kfunc_data *d = xcalloc(1, sizeof(*d) + strlen(sym) + strlen(scope_mod) + 2);
	char *at = d->text;

	dwindex_die(ix, f, &d->scope.func, &d->scope.cu);
	d->scope.pc = f->entry;
	d->scope.at_return = at_return;
	d->symbol = stash(&at, sym);
	d->scope.module = stash(&at, scope_mod);
	d->module = mod ? d->scope.module : NULL;
	d->offset = off;
	return d;
}

/* One probe on F at ADDR, named TEXT (the function's component). */
static void push_probe(const struct kfunc_query *q, const struct dwindex *ix,
		       const struct dwfunc *f, const char *mod, char *text, Dwarf_Addr addr)
{
	unsigned long off = 0;
	const char *sym = dwindex_symbol(ix, addr, &off);
	struct family_point *fp;
	struct kfunc_data *d;

	/* two files' statics of one name in a module: placed from a
	 * neighbour whose name is the module's only one */
	if (!sym && mod)
		sym = dwloc_anchor(dwindex_dwarf(ix), addr, &off);

	if (!sym) {		/* no symbol to place it by (see dwindex_symbol) */
		free(text);
		return;
	}
	fp = xcalloc(1, sizeof(*fp));
	fp->target = text;
	fp->module = mod ? xstrdup(q->mod_text ? q->mod_text : mod) : NULL;
	fp->num[0] = q->maxactive;
	fp->flags = (q->variant & DV_RETURN) ? 1 : 0;
	fp->target_comp = 1;
	fp->data = d = make_data(ix, f, mod, sym, off, q->variant & DV_RETURN);
	d->scope.pc = addr;
	vec_push(q->out, fp);
}

static char *point_text(const char *name, const char *file, int line)
{
	return line > 0 ? xasprintf("%s@%s:%d", name, file, line)
			: xasprintf("%s@%s", name, file ? file : "??");
}

/* The lines of F the query names. */
static size_t query_lines(const struct kfunc_query *q, const struct dwindex *ix,
			  const struct dwfunc *f, int decl_line, struct dwline **lines)
{
	int lo = q->lo, hi = q->hi;

	if (q->lines == LINES_RELATIVE)
		lo = hi = decl_line + q->lo;
	return dwindex_lines(ix, f, q->file, lo, hi, lines);
}

/* The probes of the query on function F. */
static void expand_func(struct kfunc_query *q, const struct dwindex *ix,
			const struct dwfunc *f, const char *mod)
{
	struct dwline *lines = NULL;
	size_t n = 0;
	int line;
	const char *file = dwindex_decl_file(ix, f, &line);

	if (q->file && q->lines == LINES_NONE && !dwindex_file_matches(q->file, file))
		return;
	q->funcs_seen++;
	if (q->lines != LINES_NONE && (n = query_lines(q, ix, f, line, &lines)) == 0) {
		free(lines);
		return;
	}
	if (!(q->variant & DV_STATEMENT) || q->lines == LINES_NONE) {
		/* the function's entry */
		push_probe(q, ix, f, mod, point_text(f->name, file, line), f->entry);
	} else {
		for (size_t i = 0; i < n; i++)
			push_probe(q, ix, f, mod, point_text(f->name, lines[i].file, lines[i].line),
				   lines[i].addr);
	}
	free(lines);
}

/* The matches of the query in one binary; how many probes it gave. */
static size_t expand_in(struct kfunc_query *q, const struct dwindex *ix, const char *mod)
{
	const struct dwfunc **found;
	size_t n = dwindex_match(ix, q->func, &found), before = q->out->n;

	for (size_t i = 0; i < n; i++) {
		const struct dwfunc *f = found[i];

		/* the same function at the same address (one DIE per CU that
		 * has it) is probed once */
		if (i > 0 && found[i - 1]->entry == f->entry &&
		    strcmp(found[i - 1]->name, f->name) == 0)
			continue;
		if (variant_keeps(ix, q, f))
			expand_func(q, ix, f, mod);
	}
	free(found);
	return q->out->n - before;
}

/* The error for a function nobody has: SystemTap's "no match", with the
 * nearest name as the kprobe family suggests one. */
static int no_match(const struct kfunc_query *q, const struct dwindex *ix,
		    struct family_error *err)
{
	const struct pp_comp *fn = family_comp(q->pp, 1);
	const char *near = ix && !glob_is_pattern(q->func) ? dwindex_nearest(ix, q->func) : NULL;

	if (q->pp->optional)
		return 0;
	if (q->funcs_seen > 0 && q->lines != LINES_NONE)
		return family_fail(err, &fn->arg->pos, q->lines == LINES_RELATIVE
			    ? xasprintf("no line records for %s+%d [man error::dwarf]",
					q->file, q->lo)
			    : q->lo == q->hi
			    ? xasprintf("no line records for %s:%d [man error::dwarf]", q->file, q->lo)
			    : xasprintf("no line records for %s:%d-%d [man error::dwarf]", q->file,
					q->lo, q->hi));
	if (near && strcmp(near, q->func) != 0)
		return family_fail(err, &fn->arg->pos, xasprintf("no match (similar function: %s)", near));
	return family_fail(err, &fn->arg->pos, xstrdup("no match"));
}

static int expand_kernel(struct kfunc_query *q, struct family_error *err)
{
	const char *why = NULL;
	const struct dwindex *ix = kinfo_dwarf(&why);

	if (!ix)
		return family_fail(err, &family_comp(q->pp, 0)->pos, xstrdup(why ? why : "no kernel debuginfo"));
	if (expand_in(q, ix, NULL) > 0)
		return (int)q->out->n;
	return no_match(q, ix, err);
}

/* module("M"): M's DWARF, or every module M's glob matches that has
 * DWARF installed. */
static int expand_modules(struct kfunc_query *q, struct family_error *err)
{
	const struct pp_comp *mc = family_comp(q->pp, 0);
	const char *pat = mc->arg->str, *why = NULL;
	const char *const *names;
	const struct dwindex *last = NULL;

	if (!glob_is_pattern(pat) || strchr(pat, '/')) {
		const struct dwindex *ix = kinfo_module_dwarf(pat, &why);
		const char *name = ix ? kinfo_module_name(pat, &why) : NULL;

		if (!ix || !name)
			return family_fail(err, &mc->arg->pos, xstrdup(why));
		if (strcmp(name, pat))
			q->mod_text = pat;
		if (expand_in(q, ix, name) > 0)
			return (int)q->out->n;
		return no_match(q, ix, err);
	}
	names = kinfo_module_names();
	for (size_t i = 0; names && names[i]; i++) {
		const struct dwindex *ix;

		if (!glob_match(pat, names[i]) || !(ix = kinfo_module_dwarf(names[i], NULL)))
			continue;
		last = ix;
		expand_in(q, ix, names[i]);
	}
	if (q->out->n > 0)
		return (int)q->out->n;
	return no_match(q, last, err);
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

/* A decimal line number from *s (advanced past it); false when none. */
static bool line_number(const char **s, int *n)
{
	char *end;
	long v = strtol(*s, &end, 10);

	if (end == *s || v < 0 || v > KFUNC_LINE_MAX || !(**s >= '0' && **s <= '9'))
		return false;
	*n = (int)v;
	*s = end;
	return true;
}

/* The lines after the file of q->file ("FILE:N", ":N-M", ":*", "+OFF"), cut
 * off it; false when malformed (or +OFF for a function). */
static bool parse_lines(struct kfunc_query *q, int variant)
{
	char *sep = q->file + strcspn(q->file, ":+");
	const char *s = sep + 1;

	if (!*sep)
		return true;
	if (*sep == '+') {
		q->lines = LINES_RELATIVE;
		if (!(variant & DV_STATEMENT) || !line_number(&s, &q->lo))
			return false;
	} else if (!strcmp(s, "*")) {	/* every line, as SystemTap's ":*" */
		q->lines = LINES_RANGE;
		q->lo = 1;
		q->hi = KFUNC_LINE_MAX;
		s++;
	} else {
		q->lines = LINES_RANGE;
		if (!line_number(&s, &q->lo))
			return false;
		q->hi = q->lo;
		if (*s == '-' && (s++, !line_number(&s, &q->hi)))
			return false;
		if (q->hi < q->lo)
			return false;
	}
	*sep = '\0';
	return *s == '\0' && *q->file;
}

static int kfunc_expand(const struct point_pattern *pat, const struct probe_point *pp,
			struct vec *out, struct family_error *err)
{
	const struct pp_comp *fn = family_comp(pp, 1);
	struct kfunc_query q = { .pp = pp, .variant = pat->variant, .maxactive = -1, .out = out };
	char *at, *func;
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
	func = xstrdup(fn->arg->str);
	at = strchr(func, '@');
	if (at) {
		*at = '\0';
		q.file = at + 1;
		if (!parse_lines(&q, pat->variant)) {
			free(func);
			return family_fail(err, &fn->arg->pos, xasprintf(
				"invalid line specification '%s'", strchr(fn->arg->str, '@') + 1));
		}
	}
	q.func = func;
	n = (pat->variant & DV_MODULE) ? expand_modules(&q, err) : expand_kernel(&q, err);
	free(func);
	return n;
}

/* -p2: where the probe goes, as SystemTap's "pc=" comment. */
static char *kfunc_print_sig(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	if (!d)
		return NULL;
	return xasprintf(" /* pc=%s%s%s+0x%lx */", d->module ? d->module : "",
			 d->module ? ":" : "", d->symbol, d->offset);
}

/* $var ... over the function's DWARF (dwtvar.h); an absolute statement
 * has none. */
static enum sem_type kfunc_target_type(const struct derived_probe *dp, const struct expr *e,
				       bool write, struct family_error *err,
				       struct tvar **access)
{
	const struct kfunc_data *d = dp->fp.data;

	if (!d) {
		err->pos = e->pos;
		err->msg = xstrdup("target variables are not available at an absolute address");
		return SEM_UNKNOWN;
	}
	return dwtvar_type(&d->scope, e, write, err, access);
}

static void kfunc_list_targets(const struct derived_probe *dp, struct vec *out)
{
	const struct kfunc_data *d = dp->fp.data;

	if (d)
		dwtvar_list(&d->scope, out);
}

/* .return probes are kretprobes, which run an entry half for @entry and
 * for the variables they read at entry. */
static bool kfunc_saves_entry(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	return d && d->scope.at_return;
}

/* @var("name") in a module("M") probe looks in M. */
static const char *kfunc_debug_module(const struct derived_probe *dp)
{
	const struct kfunc_data *d = dp->fp.data;

	return d ? d->module : NULL;
}

/* ---- pass 3 ---------------------------------------------------------- */

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
	fprintf(out, ".u.kprobe = { .offset = %luUL, .maxactive = %d, .optional = %d }, ",
		d->offset, (int)dp->fp.num[0], optional);
}

const struct probe_family probe_family_kfunc = {
	.name = "kernel.function",
	.rows = kfunc_rows,
	.n_rows = sizeof(kfunc_rows) / sizeof(kfunc_rows[0]),
	.expand = kfunc_expand,
	.target_type = kfunc_target_type,
	.list_targets = kfunc_list_targets,
	.saves_entry = kfunc_saves_entry,
	.debug_module = kfunc_debug_module,
	.print_sig = kfunc_print_sig,
	.armable = true,
	.emit_entry = kfunc_emit,
};
