/* Pass 3: expressions.
 *
 * tr_expr() emits the statements an expression needs (calls that can
 * fail, temporaries) and returns a C expression without side effects
 * that yields its value: long long for numbers, const char * for
 * strings.  Arithmetic is done in unsigned 64 bits, which wraps as
 * SystemTap's does without C's undefined behaviour.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atconst.h"
#include "fmt_legacy.h"
#include "probes/family.h"
#include "regcomp.h"
#include "sem_atvar.h"
#include "sem_cast.h"
#include "sem_perf.h"
#include "sem_target.h"
#include "translate_int.h"
#include "tvar.h"

enum sem_type tr_type(const struct tr *T, const struct expr *e)
{
	const struct sem_ref *r = e ? program_ref(T->p, e) : NULL;

	return r ? r->type : SEM_UNKNOWN;
}

char *tr_ltmp(struct tr *T)
{
	int n = T->n_ltmp++;

	if (T->n_ltmp > T->max_ltmp)
		T->max_ltmp = T->n_ltmp;
	return xasprintf("l->t%d", n);
}

char *tr_stmp(struct tr *T)
{
	int n = T->n_stmp++;

	if (T->n_stmp > T->max_stmp)
		T->max_stmp = T->n_stmp;
	return xasprintf("l->s%d", n);
}

void tr_store_run(struct tr *T)
{
	if (++T->store_run % TR_STORE_RUN == 0)
		tr_line(T, "TAP_STORE_BREAK();");
}

void tr_check(struct tr *T)
{
	tr_line(T, "TAP_CHECK(c, %s);", T->err_label);
}

/* ---- where: SystemTap's "near" text ------------------------------------ */

/* Byte offset of pos in its file, or -1. */
static long pos_offset(const struct srcpos *pos)
{
	const char *line;

	if (!pos->file || !pos->file->text || pos->line < 1)
		return -1;
	line = srcfile_line(pos->file, pos->line);
	if (!line)
		return -1;
	return (long)(line - pos->file->text) + pos->col - 1;
}

/* The position of a binary operator: the tree keeps only its operands',
 * so look back from the right operand over blanks and '('. */
static struct srcpos op_pos(const struct expr *e, const char *spell)
{
	long off = e->b ? pos_offset(&e->b->pos) : -1;
	size_t n = strlen(spell);
	const char *text;

	if (off < 0 || !e->b->pos.file || e->b->pos.file != e->pos.file)
		return e->pos;
	text = e->pos.file->text;
	while (off > 0 && strchr(" \t\n(", text[off - 1]))
		off--;
	if ((size_t)off < n || memcmp(text + off - n, spell, n))
		return e->pos;
	return srcfile_pos(e->pos.file, (size_t)off - n);
}

/* The position of a postfix ++/--: the first one after the operand's
 * start on the same line. */
static struct srcpos postfix_pos(const struct expr *e, const char *spell)
{
	struct srcpos p = e->pos;
	long off = pos_offset(&e->pos);
	size_t n = strlen(spell);
	const char *text;

	if (off < 0)
		return p;
	text = e->pos.file->text + off;
	for (size_t i = 0; text[i] && text[i] != '\n'; i++)
		if (strncmp(text + i, spell, n) == 0) {
			p.col += (int)i;
			break;
		}
	return p;
}

char *tr_where_at(const char *what, const struct srcpos *pos)
{
	char *s = xasprintf("%s at %s:%d:%d", what ? what : "keyword",
			    pos->file ? pos->file->name : "<input>", pos->line, pos->col);
	char *lit = tr_cstr(s, strlen(s));

	free(s);
	return lit;
}

char *tr_where(struct tr *T, const struct expr *e)
{
	char *what, *r;
	struct srcpos pos = e->pos;
	const char *op;

	switch (e->kind) {
	case E_NUM:
		what = xasprintf("number '%" PRId64 "'", e->num);
		break;
	case E_STR:
		what = xasprintf("string '%s'", e->str);
		break;
	case E_SYM: case E_CALL: case E_PRINT:
		what = xasprintf("identifier '%s'", e->name);
		break;
	case E_INDEX: case E_IN:
		if (e->a && e->a->kind == E_SYM) {
			what = xasprintf("identifier '%s'", e->a->name);
			pos = e->a->pos;
		} else if (e->a) {
			return tr_where(T, e->a);
		} else {
			what = xstrdup("operator '['");
		}
		break;
	case E_BINARY: case E_ASSIGN:
		op = tok_spelling((enum tok_kind)e->op);
		what = xasprintf("operator '%s'", op ? op : "?");
		if (op)
			pos = op_pos(e, op);
		break;
	case E_UNARY: case E_PREINC: case E_POSTINC:
		op = tok_spelling((enum tok_kind)e->op);
		what = xasprintf("operator '%s'", op ? op : "?");
		if (op && e->kind == E_POSTINC)
			pos = postfix_pos(e, op);
		break;
	case E_TERNARY:
		what = xstrdup("operator '?'");
		break;
	case E_STAT:
		what = xasprintf("operator '%s'", ast_stat_name(e->op));
		break;
	case E_HIST:
		what = xasprintf("operator '%s'", e->op == HIST_LOG ? "@hist_log" :
				 "@hist_linear");
		break;
	case E_EMBEDDED:
		what = xstrdup("embedded-code");
		break;
	default:
		what = xstrdup("operator '@'");
		break;
	}
	r = tr_where_at(what, &pos);
	free(what);
	return r;
}

static void set_where(struct tr *T, const struct expr *e)
{
	char *w = tr_where(T, e);

	tr_line(T, "TAP_STMT(c, %s);", w);
	free(w);
}

/* ---- helpers ------------------------------------------------------------- */

/* Whether evaluating e can change a variable or print.  Remembered per
 * node: every operand of an expression asks it about the ones after it,
 * which would make nested expressions quadratic. */
static bool has_side(struct tr *T, const struct expr *e)
{
	int known;
	bool side = false;

	if (!e)
		return false;
	switch (e->kind) {
	case E_ASSIGN: case E_PREINC: case E_POSTINC: case E_CALL: case E_PRINT:
	case E_EMBEDDED:
		return true;
	default:
		break;
	}
	known = ptrindex_get(&T->side_cache, e);
	if (known >= 0)
		return known;
	side = has_side(T, e->a) || has_side(T, e->b) || has_side(T, e->c);
	for (size_t i = 0; i < e->args.n && !side; i++)
		side = has_side(T, e->args.v[i]);
	for (size_t i = 0; i < e->comps.n && !side; i++)
		side = has_side(T, ((const struct tcomp *)e->comps.v[i])->index);
	ptrindex_set(&T->side_cache, e, side);
	return side;
}

/* Copy a value into a temporary so that later side effects cannot
 * change it. */
static char *keep(struct tr *T, enum sem_type t, char *val)
{
	char *tmp;

	if (t == SEM_STRING) {
		tmp = tr_stmp(T);
		tr_line(T, "tap_strlcpy(%s, %s, MAXSTRINGLEN);", tmp, val);
	} else {
		tmp = tr_ltmp(T);
		tr_line(T, "%s = %s;", tmp, val);
	}
	tr_store_run(T);
	free(val);
	return tmp;
}

/* How many items of a list come before its last one with side effects
 * (0: none has any); list_item keeps those stable. */
static size_t side_mark(struct tr *T, const struct vec *v)
{
	for (size_t j = v->n; j-- > 0;)
		if (has_side(T, v->v[j]))
			return j;
	return 0;
}

/* Evaluate the i-th of a list of expressions, kept stable when one of
 * the later ones has side effects (i < mark, from side_mark). */
static char *list_item(struct tr *T, const struct vec *v, size_t i, size_t mark)
{
	char *val = tr_expr(T, v->v[i]);

	return i < mark ? keep(T, tr_type(T, v->v[i]), val) : val;
}

/* The values of all items of a list, in order (list_item).  Once their
 * code is a chunk's worth, the rest are evaluated in chunks: a call with
 * thousands of arguments that call functions must not become one C
 * function with thousands of exits.  The values live in the frame. */
static char **list_values(struct tr *T, const struct vec *v, size_t mark)
{
	char **vals = xcalloc(v->n + 1, sizeof(*vals));
	size_t start = T->body.len, i = 0;

	while (i < v->n && !tr_chunk_due(T, start)) {
		vals[i] = list_item(T, v, i, mark);
		i++;
	}
	while (i < v->n) {
		struct tr_chunk k;

		tr_chunk_open(T, &k);
		do {
			vals[i] = list_item(T, v, i, mark);
			i++;
		} while (i < v->n && !tr_chunk_due(T, 0));
		tr_chunk_close(T, &k);
	}
	return vals;
}

static void free_values(char **vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
}

static struct vardecl *var_of(const struct tr *T, const struct expr *e)
{
	const struct sem_ref *r = program_ref(T->p, e);

	return r ? r->var : NULL;
}

char *tr_map(struct tr *T, const struct vardecl *v)
{
	const struct tr_global *g = v ? tr_global_of(T, v) : NULL;

	/* Pass 2 lets only globals reach here; were one not to, no module
	 * is built rather than one indexing a global that is not there. */
	if (!g) {
		tr_error(T, v ? &v->pos : NULL, "internal error: '%s' is not a global",
			 v ? v->name : "?");
		return xstrdup("0");
	}
	return xstrdup(g->cname);
}

char *tr_keys(struct tr *T, const struct vec *args, unsigned *wild)
{
	struct strbuf sb = STRBUF_INIT;
	size_t mark = side_mark(T, args);

	*wild = 0;
	strbuf_adds(&sb, "(const union tap_idx[]){ ");
	for (size_t i = 0; i < args->n; i++) {
		const struct expr *a = args->v[i];
		char *val;

		if (!a) {
			*wild |= 1u << i;
			strbuf_adds(&sb, "{ .l = 0 }, ");
			continue;
		}
		val = list_item(T, args, i, mark);
		strbuf_addf(&sb, "{ .%c = %s }, ", tr_type(T, a) == SEM_STRING ? 's' : 'l',
			    val);
		free(val);
	}
	strbuf_adds(&sb, "}");
	return strbuf_detach(&sb);
}

void tr_stat_base(struct tr *T, const struct expr *a, char **map, char **keys)
{
	unsigned wild;

	if (a->kind == E_INDEX && a->a->kind == E_SYM) {
		*keys = tr_keys(T, &a->args, &wild);
		*map = tr_map(T, var_of(T, a->a));
	} else {
		*map = tr_map(T, var_of(T, a));
		*keys = xstrdup("0");
	}
}

static char *num_lit(int64_t n)
{
	if (n == INT64_MIN)
		return xstrdup("(-9223372036854775807LL - 1)");
	return xasprintf("%" PRId64 "LL", n);
}

/* ---- reading and writing variables and elements ------------------------ */

static bool elided_target(const struct tr *T, const struct expr *lv)
{
	const struct vardecl *v = lv->kind == E_SYM ? var_of(T, lv) : NULL;

	return v && !v->global && (v->elided || v->type == SEM_UNKNOWN);
}

/* The value of an lvalue (variable or array element). */
static char *lv_read(struct tr *T, const struct expr *lv, const char *keys)
{
	enum sem_type t = tr_type(T, lv);
	char *map, *tmp;

	if (lv->kind == E_SYM)
		return tr_var(T, var_of(T, lv));
	map = tr_map(T, var_of(T, lv->a));
	if (t == SEM_STRING) {
		tmp = tr_stmp(T);
		tr_line(T, "tap_map_get_str(%s, %s, %s);", map, keys, tmp);
	} else {
		tmp = tr_ltmp(T);
		tr_line(T, "%s = tap_map_get_long(%s, %s);", tmp, map, keys);
	}
	free(map);
	return tmp;
}

static void lv_write(struct tr *T, const struct expr *lv, const char *keys,
		     const char *val)
{
	enum sem_type t = tr_type(T, lv);
	char *map, *var;

	if (lv->kind == E_SYM) {
		var = tr_var(T, var_of(T, lv));
		if (t == SEM_STRING)
			tr_line(T, "tap_strlcpy(%s, %s, MAXSTRINGLEN);", var, val);
		else
			tr_line(T, "%s = %s;", var, val);
		free(var);
		return;
	}
	map = tr_map(T, var_of(T, lv->a));
	set_where(T, lv);
	tr_line(T, "if (tap_map_set_%s(c, %s, %s, %s))", t == SEM_STRING ? "str" : "long",
		map, keys, val);
	tr_line(T, "\tgoto %s;", T->err_label);
	free(map);
}

static char *lv_keys(struct tr *T, const struct expr *lv)
{
	unsigned wild;

	if (lv->kind != E_INDEX)
		return xstrdup("0");
	return tr_keys(T, &lv->args, &wild);
}

void tr_store(struct tr *T, const struct expr *lv, const char *val)
{
	char *keys = lv_keys(T, lv);

	lv_write(T, lv, keys, val);
	free(keys);
}

/* ---- operators ----------------------------------------------------------- */

static char *arith(struct tr *T, const struct expr *where, int op, const char *a,
		   const char *b)
{
	char *tmp;

	switch (op) {
	case TK_PLUS: case TK_ADD_ASSIGN:
		return xasprintf("(long long)((unsigned long long)(%s) + "
				 "(unsigned long long)(%s))", a, b);
	case TK_MINUS: case TK_SUB_ASSIGN:
		return xasprintf("(long long)((unsigned long long)(%s) - "
				 "(unsigned long long)(%s))", a, b);
	case TK_STAR: case TK_MUL_ASSIGN:
		return xasprintf("(long long)((unsigned long long)(%s) * "
				 "(unsigned long long)(%s))", a, b);
	case TK_SLASH: case TK_DIV_ASSIGN:
	case TK_PERCENT: case TK_MOD_ASSIGN:
		tmp = tr_ltmp(T);
		set_where(T, where);
		tr_line(T, "%s = tap_%s(c, %s, %s);", tmp,
			op == TK_SLASH || op == TK_DIV_ASSIGN ? "div" : "mod", a, b);
		tr_check(T);
		return tmp;
	case TK_AMP: case TK_AND_ASSIGN:
		return xasprintf("((%s) & (%s))", a, b);
	case TK_PIPE: case TK_OR_ASSIGN:
		return xasprintf("((%s) | (%s))", a, b);
	case TK_CARET: case TK_XOR_ASSIGN:
		return xasprintf("((%s) ^ (%s))", a, b);
	case TK_SHL: case TK_SHL_ASSIGN:
		return xasprintf("tap_op_shl(%s, %s)", a, b);
	case TK_SHR: case TK_SHR_ASSIGN:
		return xasprintf("tap_op_shr(%s, %s)", a, b);
	case TK_USHR:
		return xasprintf("tap_op_ushr(%s, %s)", a, b);
	default:
		return xstrdup("0LL");
	}
}

/* The tap_op_ helper (see translate.c) and C operator of a comparison. */
static const char *cmp_name(int op)
{
	switch (op) {
	case TK_LT: return "lt";
	case TK_GT: return "gt";
	case TK_LE: return "le";
	case TK_GE: return "ge";
	case TK_EQ: return "eq";
	default: return "ne";
	}
}

static const char *cmp_op(int op)
{
	switch (op) {
	case TK_LT: return "<";
	case TK_GT: return ">";
	case TK_LE: return "<=";
	case TK_GE: return ">=";
	case TK_EQ: return "==";
	default: return "!=";
	}
}

static char *concat(struct tr *T, const char *a, const char *b)
{
	char *tmp = tr_stmp(T);

	tr_line(T, "tap_strlcpy(%s, %s, MAXSTRINGLEN);", tmp, a);
	tr_line(T, "tap_strlcat(%s, %s, MAXSTRINGLEN);", tmp, b);
	return tmp;
}

static char *regex_match(struct tr *T, const struct expr *e, const char *subject)
{
	char err[256] = "";
	struct regex_prog *prog;
	char *name, *tmp;

	if (e->b->kind != E_STR) {
		char *w = tr_where(T, e);

		tr_error(T, &e->b->pos, "Expected a literal string for regex match: %s",
			 w);
		free(w);
		return xstrdup("0LL");
	}
	prog = regex_compile(e->b->str, err, sizeof(err));
	if (!prog) {
		tr_error(T, &e->b->pos, "%s", err);
		return xstrdup("0LL");
	}
	name = xasprintf("tap_re_%d", T->nregex++);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);

		regex_emit_c(mem, name, prog);
		fclose(mem);
		strbuf_adds(&T->decls, text);
		free(text);
	}
	regex_free(prog);
	tmp = tr_ltmp(T);
	set_where(T, e);
	tr_line(T, "%s = %stap_regex_match(c, &%s, %s);", tmp,
		e->op == TK_NMATCH ? "!" : "", name, subject);
	tr_check(T);
	free(name);
	return tmp;
}

static char *logical(struct tr *T, const struct expr *e)
{
	char *tmp, *a, *b;

	/* @defined($x) && $x: the right side may not exist in this probe */
	if (sem_static_cond(T->dp, e->a) == (e->op == TK_OROR))
		return xstrdup(e->op == TK_OROR ? "1LL" : "0LL");
	a = tr_expr(T, e->a);
	tmp = tr_ltmp(T);
	tr_line(T, "if (%stap_op_true(%s)) {", e->op == TK_ANDAND ? "" : "!", a);
	T->indent++;
	b = tr_expr(T, e->b);
	tr_line(T, "%s = tap_op_true(%s);", tmp, b);
	T->indent--;
	tr_line(T, "} else {");
	tr_line(T, "\t%s = %d;", tmp, e->op == TK_ANDAND ? 0 : 1);
	tr_line(T, "}");
	free(a);
	free(b);
	return tmp;
}

/* SystemTap's constant folding of a literal that settles the result
 * whatever the other operand is (0 * x, x & 0, -1 | x, x % 1 ...): when
 * the other operand is pure and writes nothing it is not evaluated at
 * all, so embedded C there is not even compiled. */
static bool settled_by_literal(struct tr *T, const struct expr *e, long long *v)
{
	const struct expr *l = e->a->kind == E_NUM ? e->a : NULL;
	const struct expr *r = e->b && e->b->kind == E_NUM ? e->b : NULL;
	int op = e->op;

	if (l && r)
		return false;
	if (l && ((l->num == 0 && (op == TK_STAR || op == TK_AMP || op == TK_SHR ||
				   op == TK_SHL)) ||
		  (l->num == -1 && (op == TK_PIPE || op == TK_SHR)))) {
		*v = l->num;
		return program_writes_nothing(T->p, e->b);
	}
	if (r && ((r->num == 0 && (op == TK_STAR || op == TK_AMP)) ||
		  (r->num == 1 && op == TK_PERCENT) ||
		  (r->num == -1 && (op == TK_PERCENT || op == TK_PIPE)))) {
		*v = op == TK_PERCENT ? 0 : r->num;
		return program_writes_nothing(T->p, e->a);
	}
	return false;
}

/* SystemTap's folding of a shift by a literal count it will not shift
 * by: a negative count, or a count past 63 of a literal, leaves the value
 * as it is (other counts are masked to 0..63 at run time). */
static bool shift_folds_to_left(const struct expr *e)
{
	const struct expr *n = e->b;

	if ((e->op != TK_SHL && e->op != TK_SHR) || !n || n->kind != E_NUM)
		return false;
	return n->num < 0 || (n->num > 63 && e->a->kind == E_NUM);
}

static char *binary(struct tr *T, const struct expr *e)
{
	char *a, *b, *r;
	bool str;
	long long v;

	if (e->op == TK_ANDAND || e->op == TK_OROR)
		return logical(T, e);
	if (settled_by_literal(T, e, &v))
		return xasprintf("%lldLL", v);
	if (shift_folds_to_left(e))
		return tr_expr(T, e->a);
	a = tr_expr(T, e->a);
	if (e->op == TK_MATCH || e->op == TK_NMATCH) {
		r = regex_match(T, e, a);
		free(a);
		return r;
	}
	if (has_side(T, e->b))
		a = keep(T, tr_type(T, e->a), a);
	b = tr_expr(T, e->b);
	str = tr_type(T, e->a) == SEM_STRING;
	switch (e->op) {
	case TK_DOT:
		r = concat(T, a, b);
		break;
	case TK_LT: case TK_GT: case TK_LE: case TK_GE: case TK_EQ: case TK_NE:
		if (str)
			r = xasprintf("tap_op_scmp(tap_strcmp(%s, %s) %s 0)", a, b,
				      cmp_op(e->op));
		else
			r = xasprintf("tap_op_%s(%s, %s)", cmp_name(e->op), a, b);
		break;
	default:
		r = arith(T, e, e->op, a, b);
		break;
	}
	free(a);
	free(b);
	return r;
}

static char *unary(struct tr *T, const struct expr *e)
{
	char *a = tr_expr(T, e->a), *r;

	switch (e->op) {
	case TK_MINUS:
		r = xasprintf("(long long)(0ULL - (unsigned long long)(%s))", a);
		break;
	case TK_NOT:
		r = xasprintf("tap_op_not(%s)", a);
		break;
	case TK_TILDE:
		r = xasprintf("(~(%s))", a);
		break;
	default:
		r = xasprintf("(%s)", a);
		break;
	}
	free(a);
	return r;
}

static char *ternary(struct tr *T, const struct expr *e)
{
	enum sem_type t = tr_type(T, e);
	int known = sem_static_cond(T->dp, e->a);
	char *cond, *tmp;
	const struct expr *arms[2] = { e->b, e->c };

	/* @defined(...) ? a : b: only the arm that exists in this probe */
	if (known >= 0)
		return tr_expr(T, arms[!known]);
	cond = tr_expr(T, e->a);
	tmp = t == SEM_STRING ? tr_stmp(T) : tr_ltmp(T);

	tr_line(T, "if (tap_op_true(%s)) {", cond);
	for (int i = 0; i < 2; i++) {
		char *v;

		T->indent++;
		v = tr_expr(T, arms[i]);
		if (t == SEM_STRING)
			tr_line(T, "tap_strlcpy(%s, %s, MAXSTRINGLEN);", tmp, v);
		else
			tr_line(T, "%s = %s;", tmp, v);
		free(v);
		T->indent--;
		tr_line(T, i ? "}" : "} else {");
	}
	free(cond);
	return tmp;
}

static char *target_assign(struct tr *T, const struct expr *e);
static char *access_assign(struct tr *T, const struct tvar *tv, const struct expr *e);

static char *assign(struct tr *T, const struct expr *e)
{
	const struct expr *lv = e->a;
	enum sem_type t = tr_type(T, lv);
	char *keys, *val, *cur, *r;

	if (lv->kind == E_TARGET)
		return target_assign(T, e);
	if (lv->kind == E_VAR)
		return access_assign(T, sem_atvar_of(lv)->access, e);
	if (lv->kind == E_CAST || lv->kind == E_AUTOCAST)	/* guru mode */
		return access_assign(T, sem_cast_of(lv)->access, e);
	/* The value of an unread local's assignment is its right side
	 * (tr_expr_void() drops a pure one where nothing reads it); that
	 * of "x <<< v" too: a local is never a statistic, and there is no
	 * global to add v to. */
	if (elided_target(T, lv))
		return tr_expr(T, e->b);
	if (e->op == TK_AGG) {
		char *map, *k;

		tr_stat_base(T, lv, &map, &k);
		val = tr_expr(T, e->b);
		/* a full array is reported near the array, as stap does */
		set_where(T, lv);
		tr_line(T, "if (tap_map_add_stat(c, %s, %s, %s))", map, k, val);
		tr_line(T, "\tgoto %s;", T->err_label);
		free(map);
		free(k);
		return val;
	}
	keys = lv_keys(T, lv);
	val = tr_expr(T, e->b);
	if (e->op == TK_ASSIGN) {
		r = val;
	} else {
		val = keep(T, tr_type(T, e->b), val);
		cur = lv_read(T, lv, keys);
		if (e->op == TK_CAT_ASSIGN)
			r = concat(T, cur, val);
		else
			/* SystemTap reports a failing "x /= y" at y */
			r = arith(T, e->b, e->op, cur, val);
		free(cur);
		free(val);
	}
	if (t != SEM_STRING && lv->kind == E_INDEX && strchr(r, '(')) {
		char *tmp = tr_ltmp(T);

		tr_line(T, "%s = %s;", tmp, r);
		free(r);
		r = tmp;
	}
	lv_write(T, lv, keys, r);
	free(keys);
	if (lv->kind == E_SYM) {
		free(r);
		return lv_read(T, lv, NULL);
	}
	return r;
}

static char *crement(struct tr *T, const struct expr *e)
{
	const struct expr *lv = e->a;
	char *keys = lv_keys(T, lv);
	char *cur = lv_read(T, lv, keys);
	char *old = tr_ltmp(T), *nv = tr_ltmp(T);

	tr_line(T, "%s = %s;", old, cur);
	tr_line(T, "%s = (long long)((unsigned long long)%s %s 1ULL);", nv, old,
		e->op == TK_INC ? "+" : "-");
	lv_write(T, lv, keys, nv);
	free(keys);
	free(cur);
	if (e->kind == E_PREINC) {
		free(old);
		return nv;
	}
	free(nv);
	return old;
}

/* The runtime's enum tap_stat_op name of an extractor. */
const char *tr_stat_op_c(int op)
{
	switch (op) {
	case STAT_SUM: return "TAP_STAT_OP_SUM";
	case STAT_MIN: return "TAP_STAT_OP_MIN";
	case STAT_MAX: return "TAP_STAT_OP_MAX";
	case STAT_AVG: return "TAP_STAT_OP_AVG";
	case STAT_VARIANCE: return "TAP_STAT_OP_VARIANCE";
	default: return "TAP_STAT_OP_COUNT";
	}
}

static char *stat_extract(struct tr *T, const struct expr *e)
{
	char *map, *keys, *tmp = tr_ltmp(T);
	int shift = 0;

	if (e->op == STAT_VARIANCE && e->args.n > 0 && e->args.v[0])
		shift = (int)((const struct expr *)e->args.v[0])->num;
	tr_stat_base(T, e->a, &map, &keys);
	set_where(T, e);
	tr_line(T, "if (tap_stat_get(c, %s, %s, %s, %d, &%s))", map, keys,
		tr_stat_op_c(e->op), shift, tmp);
	tr_line(T, "\tgoto %s;", T->err_label);
	free(map);
	free(keys);
	return tmp;
}

static char *index_read(struct tr *T, const struct expr *e)
{
	char *keys, *map, *tmp, *bucket;
	unsigned wild;

	if (e->a->kind != E_HIST) {
		keys = tr_keys(T, &e->args, &wild);
		tmp = lv_read(T, e, keys);
		free(keys);
		return tmp;
	}
	tr_stat_base(T, e->a->a, &map, &keys);
	bucket = e->args.n ? tr_expr(T, e->args.v[0]) : xstrdup("0LL");
	tmp = tr_ltmp(T);
	set_where(T, e->a);
	tr_line(T, "if (tap_hist_index(c, %s, %s, %s, &%s))", map, keys, bucket, tmp);
	tr_line(T, "\tgoto %s;", T->err_label);
	free(map);
	free(keys);
	free(bucket);
	return tmp;
}

static char *in_expr(struct tr *T, const struct expr *e)
{
	unsigned wild;
	char *keys, *map, *tmp;

	/* [i] in @hist_log(s) is, as in SystemTap, bucket i's count, with
	 * the same errors as @hist_log(s)[i] */
	if (e->a->kind == E_HIST)
		return index_read(T, e);
	keys = tr_keys(T, &e->args, &wild);
	map = tr_map(T, var_of(T, e->a));
	tmp = tr_ltmp(T);
	tr_line(T, "%s = tap_map_exists(%s, %s, %uU);", tmp, map, keys, wild);
	free(keys);
	free(map);
	return tmp;
}

/* ---- calls ----------------------------------------------------------------- */

/* Pass the arguments of a call to f: written straight into f's frame at
 * the next nesting depth, where f finds its parameters.  Passing them as
 * C arguments made a call with thousands of them take gcc minutes.  At
 * MAXNESTING there is no such frame; f then raises the error. */
static void pass_args(struct tr *T, const struct sem_function *f, char **vals)
{
	char *member;

	if (!f->n_params)
		return;
	member = tr_fn_cname(T, f);
	tr_line(T, "if (c->nesting < MAXNESTING) {");
	T->indent++;
	tr_line(T, "struct %s_frame *callee = "
		"&((struct tap_locals *)c->locals)->fn[c->nesting].%s;", member, member);
	for (int i = 0; i < f->n_params; i++) {
		char *field = tr_param_field(f, i);

		if (f->params[i]->type == SEM_STRING)
			tr_line(T, "tap_strlcpy(callee->%s, %s, MAXSTRINGLEN);", field, vals[i]);
		else
			tr_line(T, "callee->%s = %s;", field, vals[i]);
		tr_store_run(T);
		free(field);
	}
	T->indent--;
	tr_line(T, "}");
	free(member);
}

static char *call(struct tr *T, const struct expr *e)
{
	const struct sem_ref *r = program_ref(T->p, e);
	const struct sem_function *head = r ? r->fn : NULL;
	enum sem_type t = tr_type(T, e);
	char **vals;
	size_t mark;
	char *ret, *retarg;

	if (!head || !head->group) {
		tr_error(T, &e->pos, "unresolved function call");
		return xstrdup("0LL");
	}
	/* Every argument is evaluated before the call.  Each overload that
	 * "next" moves on to is passed the same values again, after the one
	 * before it ran: keep them all then. */
	mark = head->n_group > 1 ? e->args.n : side_mark(T, &e->args);
	vals = list_values(T, &e->args, mark);
	if (t == SEM_STRING) {
		ret = tr_stmp(T);
		retarg = xstrdup(ret);
	} else if (t == SEM_LONG) {
		ret = tr_ltmp(T);
		retarg = xasprintf("&%s", ret);
	} else {
		ret = xstrdup("0LL");
		retarg = xstrdup("0");
	}
	set_where(T, e);
	tr_line(T, "{");
	T->indent++;
	tr_line(T, "int next_call = 1;");
	for (int g = 0; g < head->n_group; g++) {
		const struct sem_function *f = head->group[g];
		char *name;

		/* pass 2 groups overloads of one arity; vals has that many */
		if ((size_t)f->n_params != e->args.n) {
			tr_error(T, &e->pos, "internal error: overload of another arity");
			break;
		}
		name = tr_fn_cname(T, f);
		if (!f->n_params) {
			tr_line(T, "if (next_call && !c->last_error)");
			tr_line(T, "\tnext_call = %s(c, %s);", name, retarg);
		} else {
			tr_line(T, "if (next_call && !c->last_error) {");
			T->indent++;
			pass_args(T, f, vals);
			tr_line(T, "next_call = %s(c, %s);", name, retarg);
			T->indent--;
			tr_line(T, "}");
		}
		free(name);
	}
	tr_line(T, "if (next_call && !c->last_error)");
	tr_line(T, "\ttap_error(c, \"all functions exhausted\");");
	T->indent--;
	tr_line(T, "}");
	tr_check(T);
	free_values(vals, e->args.n);
	free(retarg);
	return ret;
}

/* ---- print family ----------------------------------------------------------- */

static void add_fmt_text(struct strbuf *fmt, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%')
			strbuf_addc(fmt, '%');
		strbuf_addc(fmt, s[i]);
	}
}

/* SystemTap's translator caps a print's values (a delimiter or format
 * not counted) at 32, for every member of the family. */
#define TR_MAX_PRINT_ARGS 32

static void too_many_print_args(struct tr *T, const struct expr *e)
{
	char what[300];

	snprintf(what, sizeof(what), "identifier '%s'", e->name ? e->name : "print");
	sem_report(T->d, &e->pos, what, "too many arguments to print (%zu)", e->args.n);
	T->failed = true;
}

static char *print_call(struct tr *T, const struct expr *e)
{
	bool to_string = e->op & PF_STRING;
	bool formatted = e->op & PF_FORMAT;
	bool delim = e->op & PF_DELIM;
	bool newline = e->op & PF_NEWLINE;
	bool as_char = e->op & PF_CHAR;
	struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT;
	char *fmtlit, *res;
	char **vals;

	if (e->a) {
		char *map, *keys;

		if (e->a->kind != E_HIST) {
			tr_error(T, &e->pos, "only a histogram can be printed this way");
			return xstrdup("0LL");
		}
		res = to_string ? tr_stmp(T) : xstrdup("0LL");
		tr_stat_base(T, e->a->a, &map, &keys);
		set_where(T, e);
		if (to_string)
			tr_line(T, "if (tap_hist_sprint(c, %s, %s, %s))", res, map, keys);
		else
			tr_line(T, "if (tap_hist_print(c, %s, %s))", map, keys);
		tr_line(T, "\tgoto %s;", T->err_label);
		if (to_string && newline)
			tr_line(T, "tap_strlcat(%s, \"\\n\", MAXSTRINGLEN);", res);
		free(map);
		free(keys);
		return res;
	}
	if (e->args.n > TR_MAX_PRINT_ARGS)
		too_many_print_args(T, e);
	if (formatted)
		strbuf_addn(&fmt, e->str ? e->str : "", e->str ? e->len : 0);
	vals = list_values(T, &e->args, side_mark(T, &e->args));
	for (size_t i = 0; i < e->args.n; i++) {
		const struct expr *a = e->args.v[i];
		bool s = tr_type(T, a) == SEM_STRING;
		const char *v = vals[i];

		if (!formatted) {
			if (i && delim)
				add_fmt_text(&fmt, e->str ? e->str : "", e->str ? e->len : 0);
			strbuf_adds(&fmt, s ? "%s" : as_char ? "%c" : "%d");
		}
		strbuf_addf(&args, "%s%s(%s)", i ? ", " : "", s ? "TAP_PSTR" : "TAP_PNUM", v);
	}
	free_values(vals, e->args.n);
	if (newline)
		strbuf_addc(&fmt, '\n');
	if (formatted && fmt_legacy_p_wanted(T->o->compatible)) {
		size_t n;
		char *legacy = fmt_legacy_p(fmt.buf ? fmt.buf : "", fmt.len, &n);

		fmtlit = tr_cstr(legacy, n);
		free(legacy);
	} else {
		fmtlit = tr_cstr(fmt.buf ? fmt.buf : "", fmt.len);
	}
	set_where(T, e);
	{
		char *argv = e->args.n ?
			xasprintf("(const struct tap_parg[]){ %s }", args.buf) : xstrdup("0");

		if (to_string) {
			res = tr_stmp(T);
			tr_line(T, "tap_sprintf(c, %s, MAXSTRINGLEN, %s, %zu, %s);", res, fmtlit,
				e->args.n, argv);
		} else {
			res = xstrdup("0LL");
			tr_line(T, "tap_printf(c, %s, %zu, %s);", fmtlit, e->args.n, argv);
		}
		free(argv);
	}
	tr_check(T);
	free(fmtlit);
	strbuf_free(&fmt);
	strbuf_free(&args);
	return res;
}

static char *embedded_expr(struct tr *T, const struct expr *e)
{
	bool str = tr_type(T, e) == SEM_STRING;
	char *tmp = str ? tr_stmp(T) : tr_ltmp(T);

	tr_line(T, "{");
	tr_embedded_names_begin(T, e);
	if (str)
		tr_line(T, "\ttap_strlcpy(%s, (%s), MAXSTRINGLEN);", tmp, e->str);
	else
		tr_line(T, "\t%s = (long long)(%s);", tmp, e->str);
	tr_embedded_names_end(T, e);
	tr_line(T, "}");
	tr_check(T);
	return tmp;
}

static char *target_expr(struct tr *T, const struct expr *e);

static char *expr_value(struct tr *T, const struct expr *e)
{
	int saved = T->dp && T->dp->entry_exprs.n ? tr_entry_slot(T, e) : -1;

	if (saved >= 0)		/* evaluated by the entry half */
		return tr_entry_read(T, saved);
	switch (e->kind) {
	case E_NUM:
		return num_lit(e->num);
	case E_STR:
		return tr_cstr(e->str, e->len);
	case E_SYM:
		return tr_var(T, var_of(T, e));
	case E_INDEX:
		return index_read(T, e);
	case E_IN:
		return in_expr(T, e);
	case E_CALL:
		return call(T, e);
	case E_PRINT:
		return print_call(T, e);
	case E_UNARY:
		return unary(T, e);
	case E_BINARY:
		return binary(T, e);
	case E_TERNARY:
		return ternary(T, e);
	case E_ASSIGN:
		return assign(T, e);
	case E_PREINC: case E_POSTINC:
		return crement(T, e);
	case E_STAT:
		return stat_extract(T, e);
	case E_DEFINED:
		return xstrdup(sem_defined(T->dp, e) ? "1LL" : "0LL");
	case E_ENTRY:
		return expr_value(T, e->a);
	case E_TARGET:
		return target_expr(T, e);
	case E_CAST:
		if (sem_cast_typing_only(e))	/* p's value, typed for autocast only */
			return expr_value(T, e->a);
		/* fall through */
	case E_AUTOCAST:	/* resolved as a @cast from its operand */
		return tvar_c(T, sem_cast_of(e)->access);
	case E_VAR:
		return tvar_c(T, sem_atvar_of(e)->access);
	case E_EMBEDDED:
		return embedded_expr(T, e);
	case E_ATOP:
		if (is_atconst(e))	/* a name pass 2 allowed (atconst_allowed) */
			return xasprintf("((long long)(%s))", atconst_name(e));
		if (is_atperf(e))
			return tr_perf(T, T->p, T->dp, e);
		tr_error(T, &e->pos, "expression not supported in this probe context");
		return xstrdup("0LL");
	default:
		tr_error(T, &e->pos, "expression not supported in this probe context");
		return xstrdup("0LL");
	}
}

/* The longest C expression a number is handed on as; a longer one goes
 * into a temporary.  Otherwise each operator of a long chain (a + b + c
 * ...) would copy the whole C of its left side: quadratic time, and one
 * huge expression for gcc. */
#define TR_MAX_EXPR 1000

char *tr_expr(struct tr *T, const struct expr *e)
{
	char *v = expr_value(T, e);

	if (strlen(v) > TR_MAX_EXPR && tr_type(T, e) != SEM_STRING) {
		char *tmp = tr_ltmp(T);

		tr_line(T, "%s = %s;", tmp, v);
		free(v);
		v = tmp;
	}
	return v;
}

/* $name...: the access path pass 2 resolved, else the probe's family
 * writes the C. */
static char *target_expr(struct tr *T, const struct expr *e)
{
	const struct probe_family *fam = T->dp ? T->dp->family : NULL;
	const struct sem_target *st = sem_target_of(T->dp, e);

	if (st && st->access)
		return tvar_c(T, st->access);
	if (!fam || !fam->target_c) {
		tr_error(T, &e->pos, "expression not supported in this probe context");
		return xstrdup("0LL");
	}
	return fam->target_c(T, T->dp, e);
}

/* $var = ..., @var(...) = ... (guru mode, pass 2 checked): a store where
 * the access path reads from. */
static char *access_assign(struct tr *T, const struct tvar *tv, const struct expr *e)
{
	char *val = tr_expr(T, e->b);
	char *r = tvar_store_c(T, tv, val);

	free(val);
	return r;
}

/* $name = ..., $name .= ...: the probe's family writes the C, or the
 * store goes where the target's access path reads from. */
static char *target_assign(struct tr *T, const struct expr *e)
{
	const struct probe_family *fam = T->dp ? T->dp->family : NULL;
	const struct sem_target *st = sem_target_of(T->dp, e->a);
	char *val, *r;

	if ((!fam || !fam->target_assign_c) && st && st->access)
		return access_assign(T, st->access, e);
	if (!fam || !fam->target_assign_c) {
		tr_error(T, &e->a->pos, "assignment to a target variable not supported "
			 "in this probe context");
		return xstrdup("0LL");
	}
	val = tr_expr(T, e->b);
	r = fam->target_assign_c(T, T->dp, e, val);
	free(val);
	return r;
}

void tr_expr_void(struct tr *T, const struct expr *e)
{
	/* an unread local's assignment of a pure value: nothing to do */
	if (e->kind == E_ASSIGN && elided_target(T, e->a) &&
	    program_pure_expr(T->p, e->b))
		return;
	free(tr_expr(T, e));
}
