/* The functions and PLT entries a process(...) point names, and where
 * each probe goes (src/probes/uprobe.h).
 *
 * With DWARF (the binary's own, or a debug file found by build-id or
 * debuglink: dwindex_open_user) functions, files and lines are matched
 * as the kernel's are (dwmatch.h); a .function probe goes past the
 * prologue in unoptimised code (dwindex_prologue_end), a .return one on
 * the entry, where the uretprobe takes the return address.  Without
 * DWARF a function is found in the ELF symbol table, as SystemTap falls
 * back to, and probed at its first instruction; target variables then
 * need debuginfo.  Every address becomes the file offset the kernel's
 * uprobes take, through the program headers. */
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callee.h"
#include "dwindex.h"
#include "glob.h"
#include "probes/dwmatch.h"
#include "probes/family.h"
#include "probes/uprobe.h"
#include "suggest.h"
#include "uelf.h"
#include "util.h"

/* The binaries read in this run, kept open until it ends. */
struct ubin {
	char *path;
	struct uelf *elf;
	Dwarf_CFI *cfi;		/* its .eh_frame, read when first asked */
	bool cfi_read;
	struct dwindex *dw;	/* NULL: no DWARF (dw_why says why) */
	char dw_why[512];
};

static struct vec ubins;
/* The binary being matched, for the .exported hook. */
static const struct ubin *ubin_current;

static const struct ubin *ubin_get(const char *path, char *err, size_t errlen)
{
	struct ubin *b;
	struct uelf *elf;

	for (size_t i = 0; i < ubins.n; i++) {
		b = ubins.v[i];
		if (strcmp(b->path, path) == 0)
			return b;
	}
	elf = uelf_open(path, err, errlen);
	if (!elf)
		return NULL;
	b = xcalloc(1, sizeof(*b));
	b->path = xstrdup(path);
	b->elf = elf;
	b->dw = dwindex_open_user(path, b->dw_why, sizeof(b->dw_why));
	vec_push(&ubins, b);
	return b;
}

const struct dwindex *ufunc_dwarf(const char *path, const char **why)
{
	static char msg[512];
	const struct ubin *b = ubin_get(path, msg, sizeof(msg));

	if (!b) {
		*why = msg;
		return NULL;
	}
	if (!b->dw)
		*why = b->dw_why;
	return b->dw;
}

static char *stash(char **at, const char *s)
{
	char *copy = *at;
	size_t len = strlen(s) + 1;

	memcpy(copy, s, len);
	*at += len;
	return copy;
}

/* The payload of a probe at ADDR (file offset OFF) of the query's
 * binary. */
static struct uprobe_data *make_data(const struct ufunc_query *q, uint64_t addr, uint64_t off)
{
	size_t len = strlen(q->program) + 1 + (q->library ? strlen(q->library) + 1 : 0);
	struct uprobe_data *d = xcalloc(1, sizeof(*d) + len);
	char *at = d->text;

	d->program = stash(&at, q->program);
	d->library = q->library ? stash(&at, q->library) : NULL;
	d->file = q->library ? d->library : d->program;
	d->addr = addr;
	d->offset = off;
	d->pie = uelf_is_dyn(q->elf);
	d->rel_addr = d->pie ? addr : addr - uelf_base(q->elf);
	d->pid = q->pid;
	return d;
}

/* One probe at ADDR of the query's binary, named TEXT (taken); its
 * payload, or NULL when ADDR is not in the file. */
static struct uprobe_data *push_probe(const struct ufunc_query *q, char *text, uint64_t addr)
{
	struct family_point *fp;
	uint64_t off;

	if (!uelf_offset(q->elf, addr, &off)) {	/* not in the file's code */
		free(text);
		return NULL;
	}
	fp = xcalloc(1, sizeof(*fp));
	fp->target = text;
	fp->num[0] = q->maxactive;
	fp->flags = (q->variant & UV_RETURN) ? 1 : 0;
	fp->target_comp = q->func_index;
	fp->data = make_data(q, addr, off);
	vec_push(q->out, fp);
	return fp->data;
}

static int no_match(const struct ufunc_query *q, const struct uelf *u, const char *name,
		    struct family_error *err)
{
	const struct pp_comp *c = q->func_comp;
	struct nearest nr;

	if (q->pp->optional)
		return 0;
	/* as SystemTap: the nearest names even to a glob */
	nearest_init(&nr, name);
	if (u)
		uelf_offer_names(u, &nr);
	return family_no_match(err, c->arg ? &c->arg->pos : &c->pos,
			       nearest_no_match(&nr, "functions"));
}

/* .plt("NAME"): the PLT entries NAME matches (all without NAME). */
static int expand_plt(struct ufunc_query *q, const struct uelf *u, struct family_error *err)
{
	const char *pat = q->func_comp->arg ? q->func_comp->arg->str : "*";
	const struct usym **found;
	size_t n = uelf_plt(u, pat, &found);

	for (size_t i = 0; i < n; i++) {
		struct uprobe_data *d = push_probe(q, xstrdup(found[i]->name), found[i]->addr);

		if (d)
			d->plt = true;
	}
	free(found);
	if (q->out->n > 0)
		return (int)q->out->n;
	return no_match(q, NULL, pat, err);
}

/* Whether the query has a probe at ADDR already (a function's alias
 * matched too: malloc and __libc_malloc are one function). */
static bool has_probe_at(const struct ufunc_query *q, size_t from, uint64_t addr)
{
	for (size_t i = from; i < q->out->n; i++) {
		const struct family_point *fp = q->out->v[i];
		const struct uprobe_data *d = fp->data;

		if (d->addr == addr)
			return true;
	}
	return false;
}

/* Whether the query has a probe on DWARF function F already, or on
 * another function entered at F's address: an assembler file gives each
 * name of one function a DIE of its own (libc's chdir, __chdir,
 * __GI___chdir, __GI_chdir), and SystemTap probes the address once. */
static bool has_func_probe(const struct ufunc_query *q, const struct dwfunc *f)
{
	for (size_t i = 0; i < q->out->n; i++) {
		const struct family_point *fp = q->out->v[i];
		const struct uprobe_data *d = fp->data;
		Dwarf_Die *func = (Dwarf_Die *)&d->scope.func;
		Dwarf_Addr entry;

		if (!d->has_dwarf)
			continue;
		if (dwarf_dieoffset(func) == f->die)
			return true;
		if (!f->inline_instance && dwarf_tag(func) == DW_TAG_subprogram &&
		    dwarf_entrypc(func, &entry) == 0 && entry == f->entry)
			return true;
	}
	return false;
}

/* .function("PAT") through the symbol table. */
static int expand_symbols(struct ufunc_query *q, const struct uelf *u, const char *pat,
			  struct family_error *err)
{
	const struct usym **found;
	size_t n = uelf_functions(u, pat, &found), first = q->out->n;

	for (size_t i = 0; i < n; i++) {
		if ((q->variant & UV_EXPORTED) && !uelf_exported(u, found[i]->name))
			continue;
		if (has_probe_at(q, first, found[i]->addr))
			continue;
		push_probe(q, xstrdup(found[i]->name), found[i]->addr);
	}
	free(found);
	if (q->out->n > 0)
		return (int)q->out->n;
	return no_match(q, u, pat, err);
}

/* The scope's file_offset: an entry value's companion uprobe is placed
 * as the probes are, at the offset of its address in the binary. */
static bool scope_file_offset(const void *bin, Dwarf_Addr addr, uint64_t *off)
{
	return uelf_offset(((const struct ubin *)bin)->elf, addr, off);
}

/* The scope's binary_cfi: the binary's own .eh_frame, kept with it (its
 * separate debuginfo has none). */
static Dwarf_CFI *scope_binary_cfi(const void *bin)
{
	struct ubin *b = (struct ubin *)bin;	/* ubin_get's: not const */

	if (!b->cfi_read)
		b->cfi = dwarf_getcfi_elf(uelf_elf(b->elf));
	b->cfi_read = true;
	return b->cfi;
}

/* A .callee probe's callee and the calls that lead to it, at link-time
 * addresses: the probed binary's load bias moves them (callee.h). */
static void ufunc_callee(struct family_point *fp, const struct dwcallee *c, bool ret)
{
	fp->callee = xstrdup(c->text);
	if (c->nrets) {	/* else inlined into its caller: always called from it */
		fp->callers = callee_callers_new(c->rets, c->nrets, true, ret);
		fp->callers->tail_call = c->tail_call;
	}
}

/* TEXT ("NAME@FILE:LINE", F's) with F's name replaced by the one
 * SystemTap gives the function (dwindex_last_alias), whose DIE goes in
 * DIE. */
static char *alias_text(const struct dwindex *ix, const struct dwfunc *f, char *text,
			Dwarf_Off *die)
{
	const char *name;
	size_t len = strlen(f->name);
	char *renamed;

	*die = dwindex_last_alias(ix, f, &name);
	if (*die == f->die || strncmp(text, f->name, len) != 0)
		return text;
	renamed = xasprintf("%s%s", name, text + len);
	free(text);
	return renamed;
}

/* A DWARF match: the probe on F at ADDR (its entry, or a line's). */
static void push_dwarf(struct dwmatch *m, const struct dwindex *ix, const struct dwfunc *f,
		       char *text, Dwarf_Addr addr)
{
	const struct ufunc_query *q = m->ctx;
	bool ret = q->variant & UV_RETURN;
	Dwarf_Addr body = m->keep != DWM_STATEMENT && !m->at_label && addr == f->entry
			  ? dwindex_prologue_end(ix, f) : addr;
	Dwarf_Off die = f->die;
	struct uprobe_data *d;

	if (m->keep != DWM_STATEMENT && addr == f->entry)
		text = alias_text(ix, f, text, &die);
	/* a uretprobe goes on the entry, where the return address is on
	 * top of the stack; its entry half reads the parameters past the
	 * prologue, where a .function probe would be */
	d = push_probe(q, text, ret ? addr : body);
	if (d && m->at_label)
		((struct family_point *)q->out->v[q->out->n - 1])->label = xstrdup(m->at_label);
	if (d && m->at_callee)
		ufunc_callee(q->out->v[q->out->n - 1], m->at_callee, ret);
	if (!d || !dwindex_die(ix, die, &d->scope.func, &d->scope.cu))
		return;
	if (ret && body != addr && uelf_offset(q->elf, body, &d->entry_offset))
		d->entry_addr = body;
	else
		body = d->addr;
	d->has_dwarf = true;
	d->scope.pc = body;
	d->scope.at_return = ret;
	d->scope.function_entry = m->keep != DWM_STATEMENT && !m->at_label;
	d->scope.module = d->file;
	d->scope.user = true;
	d->scope.debug_file = dwindex_debug_file(ix);
	if (ubin_current) {	/* expand_dwarf's binary */
		d->scope.file_offset = scope_file_offset;
		d->scope.file_offset_ctx = ubin_current;
		d->scope.binary_cfi = scope_binary_cfi;
	}
}

/* .exported: a function of the binary's dynamic symbol table. */
static bool user_exports(const struct dwindex *ix, const struct dwfunc *f)
{
	(void)ix;
	return uelf_exported(ubin_current->elf, f->name);
}

static enum dwmatch_keep variant_keep(int variant)
{
	if (variant & UV_STATEMENT)
		return DWM_STATEMENT;
	if (variant & UV_INLINE)
		return DWM_INLINE;
	if (variant & (UV_CALL | UV_RETURN))
		return DWM_CALL;
	if (variant & UV_EXPORTED)
		return DWM_EXPORTED;
	return DWM_ALL;
}

/*
 * The functions only the debug file's symbol table has (a stripped
 * binary's .dynsym leaves out its local symbols): code compiled without
 * -g (libc's __addtf3, from libgcc) and the parts GCC splits off a
 * function ("_IO_seekoff_unlocked.cold"), named by the symbol alone, as
 * SystemTap probes them (dwindex_symtab_funcs chooses them as for the
 * kernel).
 */
static size_t expand_debug_symbols(struct dwmatch *m, const struct ubin *b)
{
	struct ufunc_query *q = m->ctx;
	struct dwsym *syms;
	size_t n = dwindex_symtab_funcs(b->dw, m->func, &syms), pushed = 0;

	for (size_t i = 0; i < n; i++) {
		if (syms[i].alias || has_probe_at(q, 0, syms[i].addr) ||
		    ((q->variant & UV_EXPORTED) && !uelf_exported(b->elf, syms[i].name)))
			continue;
		push_probe(q, xstrdup(syms[i].name), syms[i].addr);
		pushed++;
	}
	free(syms);
	return pushed;
}

/*
 * Functions the DWARF knows under another name: libc's malloc is
 * __libc_malloc's alias, a symbol only.  As SystemTap does, the symbol
 * table finds them, and the DWARF function at the same address names
 * the probe ("__libc_malloc@./malloc/malloc.c:3280") and gives it its
 * place and variables.  Functions the DWARF does not know at
 * all (_start, crt's frame_dummy: objects compiled without -g) are
 * probed from the symbol table, as SystemTap's "*" lists them too.
 */
static size_t expand_aliases(struct dwmatch *m, const struct ubin *b)
{
	const struct usym **found;
	size_t n = uelf_functions(b->elf, m->func, &found), pushed = 0;
	struct ufunc_query *q = m->ctx;

	for (size_t i = 0; i < n; i++) {
		const struct dwfunc *f = dwindex_at(b->dw, found[i]->addr);
		int line;
		const char *file;

		/* a DWARF function matched by its own name has its probe
		 * (past the prologue, not at this address) */
		if (has_probe_at(q, 0, found[i]->addr) || (f && has_func_probe(q, f)) ||
		    ((q->variant & UV_EXPORTED) && !uelf_exported(b->elf, found[i]->name)))
			continue;
		if (!f) {
			if (dwindex_codeless(b->dw, found[i]->name))
				continue;	/* as SystemTap: no code, no probe */
			push_probe(q, xstrdup(found[i]->name), found[i]->addr);
			pushed++;
			continue;
		}
		file = dwindex_decl_file(b->dw, f, &line);
		push_dwarf(m, b->dw, f, line > 0 ? xasprintf("%s@%s:%d", f->name, file, line)
						 : xstrdup(f->name), f->entry);
		pushed++;
	}
	free(found);
	return pushed + expand_debug_symbols(m, b);
}

static int expand_dwarf(struct ufunc_query *q, const struct ubin *b, struct family_error *err)
{
	struct dwmatch m = { .pp = q->pp, .comp = q->func_comp, .keep = variant_keep(q->variant),
			     .exported = user_exports, .push = push_dwarf, .ctx = q };
	int n;

	m.nearest = q->variant & UV_NEAREST;
	m.warnings = &err->warnings;
	m.returns = q->variant & UV_RETURN;
	m.label = q->label;
	if (q->callee && dwmatch_callee_parse(&m, q->callee, q->variant & UV_CALLEES,
					      q->variant & (UV_CALL | UV_RETURN), err) < 0)
		return -1;
	if (!dwmatch_parse(&m, q->func_comp->arg->str, err)) {
		dwmatch_done(&m);
		return -1;
	}
	ubin_current = b;
	dwmatch_in(&m, b->dw);
	/* the symbol table's names are not scoped: "ns::f" is no symbol */
	if (!m.file && !m.label && !m.callee && !m.n_scopes && m.keep != DWM_STATEMENT &&
	    m.keep != DWM_INLINE)
		expand_aliases(&m, b);
	if (q->out->n > 0)
		n = (int)q->out->n;
	else
		n = dwmatch_fail(&m, b->dw, err);
	if (q->out->n == 0)
		dwmatch_inline_returns(&m, &err->plain_warnings);
	ubin_current = NULL;
	dwmatch_done(&m);
	return n;
}

/*
 * .function(ADDR): the function whose code holds the link-time address
 * ADDR (the binary's symbol table, else the debug file's: a stripped
 * binary keeps only its dynamic symbols), probed where .function("NAME")
 * probes it (past the prologue of unoptimised code; .return at its
 * entry); .statement(ADDR): ADDR itself, which must begin a row of the
 * line table, else SystemTap's error naming the row that holds it.  The
 * point keeps the address (target_comp -1): pp() is
 * process("PATH").function(0x11b6).  Without DWARF a function is placed
 * by the symbol table, at its first instruction; a statement needs the
 * line table.  A '?' on the point is derive's to apply.
 */
static int expand_address(struct ufunc_query *q, const struct ubin *b, struct family_error *err)
{
	const struct pp_comp *c = q->func_comp;
	uint64_t addr = (uint64_t)c->arg->num, start = 0;
	bool statement = q->variant & UV_STATEMENT;
	const struct usym *sym = uelf_function_at(b->elf, addr);
	const struct dwfunc *f = NULL;
	const char *name;
	size_t first = q->out->n;
	Dwarf_Addr row;

	if (sym)
		start = sym->addr;
	if (b->dw && (sym || dwindex_function_start(b->dw, addr, &start)))
		f = dwindex_at(b->dw, start);
	name = sym ? sym->name : f ? f->name : NULL;
	if (!name || ((q->variant & UV_EXPORTED) && !uelf_exported(b->elf, name)))
		return family_no_match(err, &c->arg->pos, xstrdup("no match"));
	if (statement) {
		if (!b->dw)
			return family_fail(err, &c->arg->pos, xasprintf(
				"no debuginfo for '%s' [man warning::debuginfo]: %s",
				q->library ? q->library : q->program, b->dw_why));
		if (!dwindex_row_start(b->dw, addr, &row))
			return family_no_match(err, &c->arg->pos, xstrdup("no match"));
		if (row != addr)
			return family_fail(err, &c->arg->pos, xasprintf(
				"address %#" PRIx64 " does not match the beginning of a statement "
				"(try %#" PRIx64 ")", addr, (uint64_t)row));
	}
	if (f) {
		struct dwmatch m = { .pp = q->pp, .comp = c, .ctx = q,
				     .keep = statement ? DWM_STATEMENT : DWM_CALL };
		int line;
		const char *file = dwindex_decl_file(b->dw, f, &line);

		ubin_current = b;
		push_dwarf(&m, b->dw, f, line > 0 ? xasprintf("%s@%s:%d", f->name, file, line)
						  : xstrdup(f->name), statement ? addr : f->entry);
	} else {
		push_probe(q, xstrdup(name), statement ? addr : start);
	}
	for (size_t i = first; i < q->out->n; i++)
		((struct family_point *)q->out->v[i])->target_comp = -1;
	if (q->out->n > first)
		return (int)q->out->n;
	return family_no_match(err, &c->arg->pos, xstrdup("no match"));
}

int ufunc_expand(struct ufunc_query *q, struct family_error *err)
{
	const char *file = q->library ? q->library : q->program;
	const struct pp_comp *c = q->func_comp;
	char msg[512];
	const struct ubin *b = ubin_get(file, msg, sizeof(msg));

	if (!b)
		return family_fail(err, &family_comp(q->pp, 0)->pos, xstrdup(msg));
	q->elf = b->elf;
	if (q->variant & UV_PLT)
		return expand_plt(q, b->elf, err);
	if (q->variant & UV_ADDR)
		return expand_address(q, b, err);
	if (b->dw)
		return expand_dwarf(q, b, err);
	if ((q->variant & (UV_STATEMENT | UV_INLINE | UV_CALLEE | UV_CALLEES)) ||
	    strchr(c->arg->str, '@'))
		return family_fail(err, &c->arg->pos, xasprintf(
			"no debuginfo for '%s' [man warning::debuginfo]: %s", file, b->dw_why));
	return expand_symbols(q, b->elf, c->arg->str, err);
}
