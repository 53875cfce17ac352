/* Pass 3: access paths of target variables as C (see tvar.h).  Nothing
 * here knows types or the kernel: pass 2 decided every step. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"
#include "tvar.h"
#include "util.h"

/* Where an emission stands: the C of the value or address, and what a
 * read fault is reported near. */
struct emit {
	struct tr *T;
	char *c;
	const char *where;
	bool user;		/* a user-space probe's: the current task's
				 * memory, through the tap_uderef* readers */
};

/* The reader NAME ("deref", "deref_bits" ...) of m's memory. */
#define READER(m, name) ((m)->user ? "tap_u" name : "tap_" name)

static void set_c(struct emit *m, char *c)
{
	free(m->c);
	m->c = c;
}

static void emit_where(struct emit *m)
{
	tr_line(m->T, "TAP_STMT(c, %s);", m->where);
}

static void emit_load(struct emit *m)
{
	char *t = tr_ltmp(m->T);

	emit_where(m);
	tr_line(m->T, "%s = %s(c, %s, 8, 0);", t, READER(m, "deref"), m->c);
	tr_check(m->T);
	set_c(m, xasprintf("(unsigned long)%s", t));
	free(t);
}

static void emit_steps(struct emit *m, const struct tvar_step *steps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct tvar_step *s = &steps[i];
		char *idx;

		switch (s->kind) {
		case TVAR_LOAD:
			emit_load(m);
			break;
		case TVAR_ADD:
			set_c(m, xasprintf("(%s + %" PRIu64 "UL)", m->c, s->bytes));
			break;
		case TVAR_ADD_REG:
			idx = tr_ltmp(m->T);
			emit_where(m);
			tr_line(m->T, "%s = (long long)tap_dwarf_reg(c, %u);", idx, s->reg);
			tr_check(m->T);
			set_c(m, xasprintf("(%s + (unsigned long)%s * %" PRIu64 "UL)", m->c, idx,
					   s->bytes));
			free(idx);
			break;
		case TVAR_INDEX:
			idx = tr_expr(m->T, s->index);
			if (s->load_first)
				emit_load(m);
			set_c(m, xasprintf("(%s + (unsigned long)(%s) * %" PRIu64 "UL)", m->c, idx,
					   s->bytes));
			free(idx);
			break;
		}
	}
}

/* A raw value cast to its type's width and sign. */
static char *value_c(const struct tvar *tv, const char *raw)
{
	static const char *const stype[] = { "", "signed char", "short", "", "int",
					     "", "", "", "long long" };
	static const char *const utype[] = { "", "unsigned char", "unsigned short", "",
					     "unsigned int", "", "", "",
					     "unsigned long long" };

	if (tv->size <= 0 || tv->size > 8 || !*stype[tv->size])
		return xasprintf("(long long)(%s)", raw);
	return xasprintf("(long long)(%s)(%s)", tv->is_signed ? stype[tv->size] :
			 utype[tv->size], raw);
}

static char *read_c(struct emit *m, const struct tvar *tv)
{
	char *t = tr_ltmp(m->T);

	emit_where(m);
	if (tv->bits)
		tr_line(m->T, "%s = %s(c, %s, %u, %u, %d);", t, READER(m, "deref_bits"), m->c,
			tv->bitpos, tv->bits, tv->is_signed);
	else
		tr_line(m->T, "%s = %s(c, %s, %d, %d);", t, READER(m, "deref"), m->c, tv->size,
			tv->is_signed);
	tr_check(m->T);
	return t;
}

static char *leaf_c(struct emit *m, const struct tvar *tv);

/* The value of a base expression, in a temporary: the steps and a
 * pretty-printing's arguments each start from it, and it is evaluated
 * once. */
static char *base_expr_c(struct emit *m, const struct expr *e)
{
	char *v = tr_expr(m->T, e);
	char *t = tr_ltmp(m->T);
	char *c;

	tr_line(m->T, "%s = %s;", t, v);
	c = xasprintf("(unsigned long)%s", t);
	free(v);
	free(t);
	return c;
}

unsigned tr_modsym_index(struct tr *T, const char *modsym)
{
	for (size_t i = 0; i < T->modsyms.n; i++)
		if (!strcmp(T->modsyms.v[i], modsym))
			return (unsigned)i;
	vec_push(&T->modsyms, xstrdup(modsym));
	return (unsigned)(T->modsyms.n - 1);
}

/* A variable in pieces: each copied into a scratch string of the frame,
 * whose address the walk starts at. */
static void dwexpr_c(struct emit *m, const struct tvar *tv);

/* C for a piece computed when the probe hits: its values, printed as a
 * whole computed location's are (a view of the tvar on them). */
static char *piece_dwexpr_c(struct emit *m, const struct tvar *tv, const struct tvar_piece *p)
{
	struct tvar view = *tv;
	char *outer = m->c, *v;

	view.dwops = tv->dwops + p->dwop_first;
	view.ndwops = p->ndwops;
	view.reloc_ref = p->reloc_ref;
	view.addr = 0;
	m->c = NULL;
	dwexpr_c(m, &view);
	v = m->c;
	m->c = outer;
	return v;
}

static void pieces_c(struct emit *m, const struct tvar *tv)
{
	char *buf = tr_stmp(m->T);
	unsigned off = 0;

	emit_where(m);
	for (size_t i = 0; i < tv->npieces; i++) {
		const struct tvar_piece *p = &tv->pieces[i];
		char *v;

		if (p->base == TVAR_BASE_DWEXPR)
			v = piece_dwexpr_c(m, tv, p);
		else if (p->base == TVAR_BASE_REG)
			v = xasprintf("tap_dwarf_reg(c, %u) + %#" PRIx64 "UL", p->slot, p->addr);
		else if (p->base == TVAR_BASE_STATIC)
			v = xasprintf("%#" PRIx64 "UL + tap_kernel_reloc(%#" PRIx64 "UL)", p->addr,
				      p->reloc_ref);
		else
			v = xasprintf("%#" PRIx64 "UL", p->addr);
		tr_line(m->T, "tap_dwarf_piece(c, %s, %u, %u, %d, %s);", buf, off, p->size,
			p->in_mem, v);
		tr_check(m->T);
		off += p->size;
		free(v);
	}
	set_c(m, xasprintf("(unsigned long)%s", buf));
	free(buf);
}

/* An entry expression (struct tvar_dwop) as the initializer of the
 * runtime's struct tap_ev_op array: { kind, op, size, is_signed, a, b,
 * guard, val }, a module symbol as its index in tap_modsyms[]. */
static char *entry_expr_c(struct tr *T, const struct tvar_dwop *ops, unsigned n)
{
	static const char *const kinds[] = {
		[TVAR_DW_REG] = "REG", [TVAR_DW_CONST] = "CONST", [TVAR_DW_DEREF] = "DEREF",
		[TVAR_DW_BINARY] = "BINARY", [TVAR_DW_UNARY] = "UNARY",
		[TVAR_DW_CONVERT] = "CONVERT", [TVAR_DW_MODSYM] = "MODSYM",
		[TVAR_DW_CALLSITE] = "CALLSITE",
	};
	static const char *const arith[] = {
		[TVAR_OP_ADD] = "ADD", [TVAR_OP_SUB] = "SUB", [TVAR_OP_MUL] = "MUL",
		[TVAR_OP_DIV] = "DIV", [TVAR_OP_MOD] = "MOD", [TVAR_OP_AND] = "AND",
		[TVAR_OP_OR] = "OR", [TVAR_OP_XOR] = "XOR", [TVAR_OP_SHL] = "SHL",
		[TVAR_OP_SHR] = "SHR", [TVAR_OP_SHRA] = "SHRA", [TVAR_OP_EQ] = "EQ",
		[TVAR_OP_NE] = "NE", [TVAR_OP_LT] = "LT", [TVAR_OP_GT] = "GT", [TVAR_OP_LE] = "LE",
		[TVAR_OP_GE] = "GE", [TVAR_OP_NEG] = "NEG", [TVAR_OP_NOT] = "NOT",
		[TVAR_OP_ABS] = "ABS",
	};
	struct strbuf sb = STRBUF_INIT;

	for (unsigned i = 0; i < n; i++) {
		const struct tvar_dwop *d = &ops[i];
		unsigned a = d->a;

		/* pass 2 makes statics entry-relative and nests no entry value
		 * nor thread-local address (dwloc.c) */
		if (d->kind == TVAR_DW_STATIC || d->kind == TVAR_DW_ENTRY ||
		    d->kind == TVAR_DW_TLS || d->kind == TVAR_DW_DTV)
			abort();
		if (d->kind == TVAR_DW_REG)
			a = d->reg;
		else if (d->kind == TVAR_DW_MODSYM)
			a = tr_modsym_index(T, d->sym);
		strbuf_addf(&sb, "\n\t{ TAP_EVOP_%s, TAP_EVA_%s, %u, %d, %u, %u, %u, %#" PRIx64
			    "ULL },", kinds[d->kind],
			    d->kind == TVAR_DW_BINARY || d->kind == TVAR_DW_UNARY ? arith[d->op] : "ADD",
			    d->size, d->is_signed, a, d->b, d->guard, d->val);
	}
	return strbuf_detach(&sb);
}

/* The index of d's (sym + off, reg or expression) in the runtime's
 * tap_entryvals[], the values companion kprobes (uprobes) save at
 * function entries, added once. */
static unsigned entryval_index(struct tr *T, const struct tvar_dwop *d)
{
	struct tr_entryval *ev;

	for (size_t i = 0; i < T->entryvals.n; i++) {
		ev = T->entryvals.v[i];
		if (!strcmp(ev->sym, d->sym) && ev->offset == d->val && ev->reg == d->reg &&
		    ev->user == d->user && ev->expr == d->expr)
			return (unsigned)i;
	}
	ev = xmalloc(sizeof(*ev));
	ev->sym = d->sym;
	ev->offset = d->val;
	ev->reg = d->reg;
	ev->user = d->user;
	ev->expr = d->expr;
	ev->nexpr = d->nexpr;
	ev->expr_c = d->expr ? entry_expr_c(T, d->expr, d->nexpr) : NULL;
	vec_push(&T->entryvals, ev);
	return (unsigned)(T->entryvals.n - 1);
}

/* C for value d of a computed location, over the temporaries v[] of the
 * values before it (64-bit, DWARF's generic type). */
static char *dwop_c(struct emit *m, const struct tvar *tv, const struct tvar_dwop *d,
		    char *const *v)
{
	static const struct {
		enum tvar_dwarith op;
		const char *c;
	} ops[] = {
		{ TVAR_OP_ADD, "+" }, { TVAR_OP_SUB, "-" }, { TVAR_OP_MUL, "*" },
		{ TVAR_OP_AND, "&" }, { TVAR_OP_OR, "|" }, { TVAR_OP_XOR, "^" },
	}, cmps[] = {
		{ TVAR_OP_EQ, "==" }, { TVAR_OP_NE, "!=" }, { TVAR_OP_LT, "<" }, { TVAR_OP_GT, ">" },
		{ TVAR_OP_LE, "<=" }, { TVAR_OP_GE, ">=" },
	};
	const char *a = v[d->a], *b = d->kind == TVAR_DW_BINARY ? v[d->b] : "";
	unsigned sh = 64 - 8 * d->size;

	switch (d->kind) {
	case TVAR_DW_REG:
		return xasprintf("(long long)(tap_dwarf_reg(c, %u) + %#" PRIx64 "UL)", d->reg,
				 d->val);
	case TVAR_DW_CONST:
		return xasprintf("(long long)%#" PRIx64 "ULL", d->val);
	case TVAR_DW_STATIC:
		if (m->user)
			return xasprintf("(long long)(%#" PRIx64 "UL + tap_uprobe_bias(c))", d->val);
		return xasprintf("(long long)(%#" PRIx64 "UL + tap_kernel_reloc(%#" PRIx64 "UL))",
				 d->val, tv->reloc_ref);
	case TVAR_DW_DEREF:
		if (d->guard)	/* read only when the guard holds */
			return xasprintf("(%s ? %s(c, (unsigned long)%s, %u, 0) : 0LL)",
					 v[d->guard - 1], READER(m, "deref"), a, d->size);
		return xasprintf("%s(c, (unsigned long)%s, %u, 0)", READER(m, "deref"), a, d->size);
	case TVAR_DW_CONVERT:
		if (d->size >= 8)
			return xstrdup(a);
		if (d->is_signed)
			return xasprintf("(long long)((unsigned long long)%s << %u) >> %u", a, sh, sh);
		return xasprintf("(long long)((unsigned long long)%s & %#llxULL)", a,
				 (1ULL << (8 * d->size)) - 1);
	case TVAR_DW_UNARY:
		if (d->op == TVAR_OP_NEG)
			return xasprintf("(long long)-(unsigned long long)%s", a);
		if (d->op == TVAR_OP_NOT)
			return xasprintf("~%s", a);
		return xasprintf("(%s < 0 ? (long long)-(unsigned long long)%s : %s)", a, a, a);
	case TVAR_DW_ENTRY:
		return xasprintf("(long long)tap_entry_value(c, %u)",
				 entryval_index(m->T, d));
	case TVAR_DW_MODSYM:
		return xasprintf("(long long)(tap_module_symbol(c, %u) + %#" PRIx64 "UL)",
				 tr_modsym_index(m->T, d->sym), d->val);
	case TVAR_DW_CALLSITE:
		return xasprintf("tap_callsite_value(c, %s, %s)", a, v[d->b]);
	case TVAR_DW_TLS:
		return xasprintf("(long long)(tap_user_thread_pointer(c) - %#" PRIx64
				 "UL + (unsigned long)%s)", d->val, a);
	case TVAR_DW_DTV:
		return xasprintf("(long long)(tap_user_tls_block(c, (unsigned long)%s) + "
				 "(unsigned long)%s)", a, v[d->b]);
	case TVAR_DW_BINARY:
		break;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++)
		if (ops[i].op == d->op)
			return xasprintf("(long long)((unsigned long long)%s %s (unsigned long long)%s)",
					 a, ops[i].c, b);
	for (size_t i = 0; i < sizeof(cmps) / sizeof(*cmps); i++)
		if (cmps[i].op == d->op)
			return xasprintf("(long long)(%s %s %s)", a, cmps[i].c, b);
	switch (d->op) {
	case TVAR_OP_SHL: case TVAR_OP_SHR:
		return xasprintf("((unsigned long long)%s >= 64 ? 0LL : (long long)((unsigned long "
				 "long)%s %s %s))", b, a, d->op == TVAR_OP_SHL ? "<<" : ">>", b);
	case TVAR_OP_SHRA:
		return xasprintf("(%s >> ((unsigned long long)%s >= 63 ? 63 : %s))", a, b, b);
	case TVAR_OP_DIV:
		return xasprintf("tap_div(c, %s, %s)", a, b);
	default:	/* TVAR_OP_MOD */
		return xasprintf("tap_mod(c, %s, %s)", a, b);
	}
}

/* A location computed when the probe hits: each value in a temporary,
 * in order; the last is the location (plus tv->addr: an implicit
 * pointer's offset). */
static void dwexpr_c(struct emit *m, const struct tvar *tv)
{
	char **v = xcalloc(tv->ndwops, sizeof(*v));

	emit_where(m);
	for (size_t i = 0; i < tv->ndwops; i++) {
		char *c = dwop_c(m, tv, &tv->dwops[i], v);

		v[i] = tr_ltmp(m->T);
		tr_line(m->T, "%s = %s;", v[i], c);
		free(c);
		if (tv->dwops[i].kind == TVAR_DW_REG || tv->dwops[i].kind == TVAR_DW_DEREF ||
		    tv->dwops[i].kind == TVAR_DW_ENTRY || tv->dwops[i].kind == TVAR_DW_MODSYM ||
		    tv->dwops[i].kind == TVAR_DW_CALLSITE || tv->dwops[i].kind == TVAR_DW_DTV ||
		    (tv->dwops[i].kind == TVAR_DW_BINARY &&
		     (tv->dwops[i].op == TVAR_OP_DIV || tv->dwops[i].op == TVAR_OP_MOD)))
			tr_check(m->T);
	}
	set_c(m, xasprintf("((unsigned long)%s + %#" PRIx64 "UL)", v[tv->ndwops - 1], tv->addr));
	for (size_t i = 0; i < tv->ndwops; i++)
		free(v[i]);
	free(v);
}

/* The base's value (an unsigned long) as m's C. */
static void base_c(struct emit *m, const struct tvar *tv)
{
	char *t;

	switch (tv->base) {
	case TVAR_BASE_SLOT:
		set_c(m, xasprintf("((const unsigned long *)c->event)[%u]", tv->slot));
		break;
	case TVAR_BASE_REG:
		/* raises an error without registers */
		t = tr_ltmp(m->T);
		emit_where(m);
		tr_line(m->T, "%s = (long long)(tap_dwarf_reg(c, %u) + %#" PRIx64 "UL);", t,
			tv->slot, tv->addr);
		tr_check(m->T);
		set_c(m, xasprintf("(unsigned long)%s", t));
		free(t);
		break;
	case TVAR_BASE_STATIC:
		if (m->user)	/* where the binary is mapped in this process */
			set_c(m, xasprintf("(%#" PRIx64 "UL + tap_uprobe_bias(c))", tv->addr));
		else
			set_c(m, xasprintf("(%#" PRIx64 "UL + tap_kernel_reloc(%#" PRIx64 "UL))",
					   tv->addr, tv->reloc_ref));
		break;
	case TVAR_BASE_EXPR:
		set_c(m, base_expr_c(m, tv->base_expr));
		break;
	case TVAR_BASE_CONST:
		set_c(m, xasprintf("%#" PRIx64 "UL", tv->addr));
		break;
	case TVAR_BASE_MODSYM:
		/* raises an error when the module was not loaded */
		t = tr_ltmp(m->T);
		emit_where(m);
		tr_line(m->T, "%s = (long long)(tap_module_symbol(c, %u) + %#" PRIx64 "UL);", t,
			tr_modsym_index(m->T, tv->modsym), tv->addr);
		tr_check(m->T);
		set_c(m, xasprintf("(unsigned long)%s", t));
		free(t);
		break;
	case TVAR_BASE_PIECES:
		pieces_c(m, tv);
		break;
	case TVAR_BASE_DWEXPR:
		dwexpr_c(m, tv);
		break;
	case TVAR_BASE_NONE: case TVAR_BASE_PARENT:
		break;
	}
}

/* sprintf(tv->text, args...) into a new string; pretty: the arguments
 * are relative to m, and any fault makes the string "ERROR". */
static char *sprintf_c(struct emit *m, const struct tvar *tv, bool pretty)
{
	struct strbuf vals = STRBUF_INIT;
	char *s, *lit;

	for (size_t i = 0; i < tv->nargs; i++) {
		const struct tvar *arg = tv->args[i];
		struct emit am = { .T = m->T, .where = m->where, .user = m->user };
		char *v;

		if (arg->base == TVAR_BASE_PARENT) {
			am.c = xstrdup(m->c);
			v = leaf_c(&am, arg);
		} else {
			v = tvar_c(m->T, arg);	/* reported near its own name */
		}
		strbuf_addf(&vals, "%s%s(%s)", i ? ", " : "",
			    arg->type == SEM_STRING ? "TAP_PSTR" : "TAP_PNUM", v);
		free(v);
		free(am.c);
	}
	s = tr_stmp(m->T);
	lit = tr_cstr(tv->text, strlen(tv->text));
	tr_line(m->T, "{");
	if (tv->nargs) {
		tr_line(m->T, "\tconst struct tap_parg pa[%zu] = { %s };", tv->nargs, vals.buf);
		tr_line(m->T, "\ttap_sprintf(c, %s, MAXSTRINGLEN, %s, %zu, pa);", s, lit, tv->nargs);
	} else {
		tr_line(m->T, "\ttap_sprintf(c, %s, MAXSTRINGLEN, %s, 0, NULL);", s, lit);
	}
	tr_line(m->T, "}");
	if (!pretty)
		tr_check(m->T);
	free(lit);
	strbuf_free(&vals);
	return s;
}

/* $x$: the printing's own steps and reads unwind to a label that makes
 * the value "ERROR", as SystemTap's catch does. */
static char *pretty_c(struct emit *m, const struct tvar *tv)
{
	struct tr *T = m->T;
	char *fail_label = tr_label(T, "ppfail");
	char *done_label = tr_label(T, "ppdone");
	const char *outer = T->err_label;
	char *s;

	T->err_label = fail_label;
	emit_steps(m, tv->pretty_steps, tv->pretty_nsteps);
	s = sprintf_c(m, tv, true);
	T->err_label = outer;
	tr_line(T, "goto %s;", done_label);
	tr_line(T, "%s: __attribute__((unused));", fail_label);
	tr_line(T, "if (c->aborted)");
	tr_line(T, "\tgoto %s;", outer);
	tr_line(T, "c->last_error = 0;");
	tr_line(T, "tap_strlcpy(%s, \"ERROR\", MAXSTRINGLEN);", s);
	tr_line(T, "%s: __attribute__((unused));", done_label);
	free(fail_label);
	free(done_label);
	return s;
}

/* The C of tv's leaf, with m at the end of tv's steps (which this
 * emits first). */
static char *leaf_c(struct emit *m, const struct tvar *tv)
{
	char *v = NULL;

	base_c(m, tv);
	emit_steps(m, tv->steps, tv->nsteps);
	switch (tv->leaf) {
	case TVAR_VALUE:
		v = value_c(tv, m->c);
		break;
	case TVAR_READ:
		v = read_c(m, tv);
		break;
	case TVAR_ADDRESS:
		v = xasprintf("(long long)%s", m->c);
		break;
	case TVAR_RAW:
		v = xstrdup(m->c);
		break;
	case TVAR_TEXT:
		return tr_cstr(tv->text, strlen(tv->text));
	case TVAR_FORMAT:
		return tv->nargs ? sprintf_c(m, tv, false) : xstrdup("\"\"");
	case TVAR_PRETTY:
		return pretty_c(m, tv);
	}
	if (tv->fp32) {
		char *wide = xasprintf("(long long)tap_fp_from_fp32((unsigned long long)%s)", v);

		free(v);
		v = wide;
	}
	if (tv->cstring) {
		char *s = tr_stmp(m->T);

		tr_line(m->T, "%s(c, %s, %s);", READER(m, "deref_cstring"), s, v);
		tr_check(m->T);
		free(v);
		v = s;
	}
	return v;
}

char *tvar_c(struct tr *T, const struct tvar *tv)
{
	char *what = xasprintf(tv->base == TVAR_BASE_EXPR ? "operator '%s'" : "identifier '%s'",
			       tv->name);
	char *where = tr_where_at(what, &tv->pos);
	struct emit m = { .T = T, .where = where, .user = tv->user };
	char *v = leaf_c(&m, tv);

	free(m.c);
	free(where);
	free(what);
	return v;
}

char *tvar_store_c(struct tr *T, const struct tvar *tv, const char *val)
{
	char *what = xasprintf("identifier '%s'", tv->name);
	char *where = tr_where_at(what, &tv->pos);
	struct emit m = { .T = T, .where = where, .user = tv->user };
	char *v = tr_ltmp(T);

	tr_line(T, "%s = %s;", v, val);
	base_c(&m, tv);
	emit_steps(&m, tv->steps, tv->nsteps);
	emit_where(&m);
	if (tv->leaf == TVAR_READ && tv->bits)
		tr_line(T, "%s(c, %s, %u, %u, %s);", m.user ? "tap_ustore_bits" : "tap_store_bits",
			m.c, tv->bitpos, tv->bits, v);
	else if (tv->leaf == TVAR_READ)
		tr_line(T, "%s(c, %s, %d, %s);", m.user ? "tap_ustore" : "tap_store", m.c,
			tv->size, v);
	else
		tr_line(T, "tap_set_dwarf_reg(c, %u, (unsigned long)%s);", tv->slot, v);
	tr_check(T);
	free(m.c);
	free(where);
	free(what);
	return v;
}
