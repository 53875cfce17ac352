/* Pass 2: type inference to a fixed point, and SystemTap's reports of
 * what stays unresolved or disagrees. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atconst.h"
#include "elab_int.h"
#include "probes/family.h"
#include "format.h"
#include "regcomp.h"
#include "sem_atvar.h"
#include "sem_cast.h"
#include "sem_perf.h"
#include "sem_target.h"

/* ---- type inference ----------------------------------------------------------- */

struct tctx {
	struct elab *E;
	struct sem_function *fn;
	const struct derived_probe *dp;	/* the probe being typed, or NULL */
	bool report;		/* the final pass: report what is wrong */
	bool dead;		/* typing a function of E->dead_fns */
	int changed;
	struct vec pend;	/* struct pending *: mismatches of the final pass */
};

/* A type error found by the final pass. As SystemTap does, only the most
 * specific kind of mismatch found anywhere is reported: 3 for a use that
 * disagrees with a declaration, 2 for an expression that disagrees with
 * its context, 1 for the two sides of an operator; 0 (an invalid type) is
 * always reported. */
struct pending {
	int cls;
	struct srcpos pos;
	char *msg;
	bool chained;
	struct srcpos chain_pos;
	char *chain_msg;
};

static struct sem_ref *ref_of(struct tctx *T, const void *node)
{
	return ptrmap_ref(&T->E->P->refs, node);
}

static bool same_pos(const struct srcpos *a, const struct srcpos *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col;
}

/* Takes msg and chain_msg. */
static void pend(struct tctx *T, int cls, const struct srcpos *pos, char *msg,
		 const struct srcpos *chain_pos, char *chain_msg)
{
	struct pending *p;

	for (size_t i = 0; i < T->pend.n; i++) {
		p = T->pend.v[i];
		if (same_pos(&p->pos, pos) && !strcmp(p->msg, msg)) {
			free(msg);
			free(chain_msg);
			return;
		}
	}
	p = xcalloc(1, sizeof(*p));
	p->cls = cls;
	p->pos = *pos;
	p->msg = msg;
	if (chain_pos && chain_pos->file) {
		p->chained = true;
		p->chain_pos = *chain_pos;
		p->chain_msg = chain_msg;
	} else {
		free(chain_msg);
	}
	vec_push(&T->pend, p);
}

/* A typing error's kind for similar-error suppression: SystemTap raises
 * unresolved, invalid and mismatched types from one place each. */
static const char *mismatch_kind(int cls)
{
	return cls < 0 ? "unresolved type" : cls == 0 ? "invalid type" : "type mismatch";
}

/* Report the most specific kind of mismatch; true if there was any. */
static bool flush_pending(struct tctx *T)
{
	int max = 0;

	for (size_t i = 0; i < T->pend.n; i++)
		if (((struct pending *)T->pend.v[i])->cls > max)
			max = ((struct pending *)T->pend.v[i])->cls;
	for (size_t i = 0; i < T->pend.n; i++) {
		struct pending *p = T->pend.v[i];

		if (p->cls == 0 || (max > 0 && p->cls == max) ||
		    (max == 0 && p->cls < 0)) {
			diag_chain_begin(T->E->d);
			diag_error_keyed(T->E->d, &p->pos, "semantic error",
					 mismatch_kind(p->cls), "%s", p->msg);
			if (p->chained)
				diag_error_keyed(T->E->d, &p->chain_pos, "semantic error",
						 "type origin", "%s", p->chain_msg);
			diag_chain_end(T->E->d);
		}
		free(p->msg);
		free(p->chain_msg);
		free(p);
	}
	vec_free(&T->pend);
	return max > 0;
}

/* "MSG: WHAT at FILE:LINE:COL"; takes msg. */
static char *with_what_at(const struct srcpos *pos, const char *what, char *msg)
{
	char *s = xasprintf("%s: %s at %s:%d:%d", msg, what,
			    pos->file ? pos->file->name : "", pos->line, pos->col);

	free(msg);
	return s;
}

static char *with_what(const struct expr *e, char *msg)
{
	char *what = describe_expr(e);
	char *s = with_what_at(&e->pos, what, msg);

	free(what);
	return s;
}

/* An "unresolved type" report: shown only when no mismatch was found.
 * -l/-L list such a variable as unknown instead (SystemTap's listing
 * mode lets a target variable that does not resolve leave it so). */
static void unresolved_at(struct tctx *T, const struct srcpos *pos, const char *what)
{
	if (T->report && !T->E->o->listing && !T->dead)
		pend(T, -1, pos, with_what_at(pos, what, xstrdup("unresolved type ")),
		     NULL, NULL);
}

static void unresolved_expr(struct tctx *T, const struct expr *e)
{
	char *what = describe_expr(e);

	unresolved_at(T, &e->pos, what);
	free(what);
}

/* e has type got where its context wants want. */
static void tok_mismatch(struct tctx *T, const struct expr *e, enum sem_type want,
			 enum sem_type got)
{
	char *msg;

	if (!T->report || (got == SEM_UNKNOWN && T->E->o->listing))
		return;
	if (got != SEM_UNKNOWN)
		msg = xasprintf("type mismatch: expected %s but found %s",
				sem_type_name(want), sem_type_name(got));
	else
		msg = xasprintf("type mismatch: expected %s", sem_type_name(want));
	pend(T, 2, &e->pos, with_what(e, msg), NULL, NULL);
}

/* e (of type got) disagrees with a declaration of type decl whose type
 * was first inferred at origin (NULL when it was written in the source);
 * index >= 0 for an array key or a function argument. */
static void decl_mismatch_at(struct tctx *T, const struct srcpos *pos,
			     const char *what, int index, enum sem_type got,
			     enum sem_type decl, const struct srcpos *origin)
{
	char *msg, *chain, *origin_what;

	if (!T->report)
		return;
	if (!origin || !origin->file) {
		msg = xasprintf("type mismatch: expected %s but found %s",
				sem_type_name(got), sem_type_name(decl));
		pend(T, 3, pos, with_what_at(pos, what, msg), NULL, NULL);
		return;
	}
	if (index >= 0) {
		msg = xasprintf("index %d type mismatch (%s)", index, sem_type_name(got));
		chain = xasprintf("type of index %d was first inferred here (%s)",
				  index, sem_type_name(decl));
	} else {
		msg = xasprintf("type mismatch (%s)", sem_type_name(got));
		chain = xasprintf("type was first inferred here (%s)", sem_type_name(decl));
	}
	origin_what = describe_token_at(origin);
	if (origin_what)
		chain = with_what_at(origin, origin_what, chain);
	free(origin_what);
	pend(T, 3, pos, with_what_at(pos, what, msg), origin, chain);
}

static void decl_mismatch(struct tctx *T, const struct expr *e, int index,
			  enum sem_type got, enum sem_type decl,
			  const struct srcpos *origin)
{
	char *what = describe_expr(e);

	decl_mismatch_at(T, &e->pos, what, index, got, decl, origin);
	free(what);
}

static void bin_mismatch(struct tctx *T, const struct expr *op, enum sem_type l,
			 enum sem_type r)
{
	if (!T->report)
		return;
	pend(T, 1, &op->pos, with_what(op, xasprintf(
		"type mismatch: left and right sides don't agree (%s vs %s)",
		sem_type_name(l), sem_type_name(r))), NULL, NULL);
}

/* Give a declaration (variable, function, key) a type. */
static void infer(struct tctx *T, enum sem_type *slot, struct srcpos *slot_pos,
		  enum sem_type t, const struct srcpos *pos)
{
	if (t == SEM_UNKNOWN || *slot != SEM_UNKNOWN)
		return;
	*slot = t;
	*slot_pos = *pos;
	T->changed++;
}

/* Record e's type and check it against what its context wants. */
static enum sem_type settle(struct tctx *T, struct expr *e, enum sem_type t,
			    enum sem_type want, const struct srcpos *want_pos)
{
	struct sem_ref *r = ref_of(T, e);

	(void)want_pos;
	if (t != SEM_UNKNOWN && r->type == SEM_UNKNOWN) {
		r->type = t;
		T->changed++;
	}
	if (t != SEM_UNKNOWN && want != SEM_UNKNOWN && t != want)
		tok_mismatch(T, e, want, t);
	return t;
}

static enum sem_type ttarget(struct tctx *T, struct expr *e, enum sem_type want,
			     const struct srcpos *want_pos);
static enum sem_type tcast(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos);
static enum sem_type tatvar(struct tctx *T, struct expr *e, enum sem_type want,
			    const struct srcpos *want_pos);
static enum sem_type texpr(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos);

/* A reference to a declaration's value: the declaration decides, or
 * learns from the context. */
static enum sem_type tdecl(struct tctx *T, struct expr *e, enum sem_type *slot,
			   struct srcpos *slot_pos, bool declared, enum sem_type want)
{
	if (*slot == SEM_UNKNOWN && want != SEM_UNKNOWN)
		infer(T, slot, slot_pos, want, &e->pos);
	if (*slot != SEM_UNKNOWN && want != SEM_UNKNOWN && *slot != want)
		decl_mismatch(T, e, -1, want, *slot, declared ? NULL : slot_pos);
	return settle(T, e, *slot, SEM_UNKNOWN, NULL);
}

static bool is_operator(const struct expr *e)
{
	switch (e->kind) {
	case E_BINARY: case E_ASSIGN: case E_UNARY: case E_PREINC:
	case E_POSTINC: case E_TERNARY: case E_IN:
		return true;
	default:
		return false;
	}
}

static void invalid_type(struct tctx *T, const struct expr *e, enum sem_type t)
{
	struct sem_ref *r;

	if (!T->report)
		return;
	/* a statistics local is SystemTap's "stat locals not supported"
	 * at its declaration, said once there (report_unresolved_var) */
	r = e->kind == E_SYM ? ptrmap_get(&T->E->P->refs, e) : NULL;
	if (t == SEM_STATS && r && r->var && !r->var->global && !r->var->param)
		return;
	pend(T, 0, &e->pos, with_what(e, is_operator(e) ? xstrdup("invalid operator") :
				       xasprintf("invalid type %s", sem_type_name(t))),
	     NULL, NULL);
}

/* Keys of an indexed array, foreach or "in". */
static void tkeys(struct tctx *T, struct vardecl *v, struct vec *args)
{
	if (!v || v->arity != (int)args->n)
		return;
	for (size_t i = 0; i < args->n; i++) {
		struct expr *k = args->v[i];
		enum sem_type t;

		if (!k)
			continue;
		t = texpr(T, k, v->index_types[i], &v->index_pos[i]);
		if (t == SEM_STATS)
			invalid_type(T, k, t);
		else
			infer(T, &v->index_types[i], &v->index_pos[i], t, &k->pos);
		if (t != SEM_UNKNOWN && v->index_types[i] != SEM_UNKNOWN &&
		    t != v->index_types[i])
			decl_mismatch(T, k, (int)i, t, v->index_types[i], &v->index_pos[i]);
	}
}

/* Where the type of e came from: its declaration's first inference for
 * variables and calls, else e itself. */
static const struct srcpos *type_origin(struct tctx *T, const struct expr *e)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, e);

	if (r && r->var && r->var->type_pos.file &&
	    (e->kind == E_SYM || e->kind == E_INDEX))
		return &r->var->type_pos;
	if (r && r->fn && r->fn->type_pos.file && e->kind == E_CALL)
		return &r->fn->type_pos;
	return &e->pos;
}

/* Two operands that must agree (comparison, ternary, assignment): op is
 * the whole expression. */
static enum sem_type tpair(struct tctx *T, const struct expr *op, struct expr *a,
			   struct expr *b, enum sem_type want,
			   const struct srcpos *want_pos)
{
	enum sem_type ta = texpr(T, a, want, want_pos);
	enum sem_type tb = texpr(T, b, ta != SEM_UNKNOWN ? ta : want,
				 ta != SEM_UNKNOWN ? type_origin(T, a) : want_pos);

	if (ta == SEM_UNKNOWN && tb != SEM_UNKNOWN)
		ta = texpr(T, a, tb, type_origin(T, b));
	if (ta != SEM_UNKNOWN && tb != SEM_UNKNOWN && ta != tb)
		bin_mismatch(T, op, ta, tb);
	return ta != SEM_UNKNOWN ? ta : tb;
}

/* a OP b, a comparison.  SystemTap checks the left operand against the
 * type the right one already has (a literal's, known from the parse),
 * then the right against the left's: 1 < "a" is "expected string but
 * found long" at the 1. */
static enum sem_type tcompare(struct tctx *T, const struct expr *op, struct expr *a,
			      struct expr *b)
{
	enum sem_type right = b->kind == E_NUM ? SEM_LONG : b->kind == E_STR ? SEM_STRING :
			      SEM_UNKNOWN;

	return tpair(T, op, a, b, right, right != SEM_UNKNOWN ? &b->pos : NULL);
}

/* Where the type of the variable lhs assigns came from, or NULL when its
 * declaration's initializer gave it (global g = "s"): SystemTap then
 * says "expected long but found string" at the assignment, no origin. */
static const struct srcpos *assigned_origin(struct tctx *T, const struct expr *lhs)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, lhs);
	const struct global *g = r && r->var ? r->var->decl : NULL;

	if (g && g->init && same_pos(&r->var->type_pos, &g->init->pos))
		return NULL;
	return type_origin(T, lhs);
}

/* lhs = rhs.  As in SystemTap, when the variable assigned has its type
 * already and the value is not itself a variable, a disagreement is the
 * variable's: reported at it, with where its type was first inferred
 * (a = 1; a = "x" is "type mismatch (string): identifier 'a'").  A
 * variable on the right is the one that disagrees, as tpair has it. */
static enum sem_type tassign(struct tctx *T, const struct expr *op, enum sem_type want,
			     const struct srcpos *want_pos)
{
	struct expr *lhs = op->a, *rhs = op->b;
	enum sem_type tl, tr;

	if (rhs->kind == E_SYM || (lhs->kind != E_SYM && lhs->kind != E_INDEX))
		return tpair(T, op, lhs, rhs, want, want_pos);
	tl = texpr(T, lhs, want, want_pos);
	if (tl == SEM_UNKNOWN)
		return tpair(T, op, lhs, rhs, want, want_pos);
	tr = texpr(T, rhs, SEM_UNKNOWN, NULL);
	if (tr == SEM_UNKNOWN)
		tr = texpr(T, rhs, tl, type_origin(T, lhs));
	if (tr != SEM_UNKNOWN && tr != tl)
		decl_mismatch(T, lhs, -1, tr, tl, assigned_origin(T, lhs));
	return tl;
}

/* A bad pattern literal of =~ is a pass-2 error at the literal, as in
 * SystemTap (pass 3 compiles the good ones). */
static void check_regex(struct tctx *T, const struct expr *pat)
{
	char err[256];
	char *what;

	if (!T->report || pat->kind != E_STR || regex_check(pat->str, err, sizeof(err)))
		return;
	what = describe_expr(pat);
	sem_error(T->E, &pat->pos, what, "%s", err);
	free(what);
}

static void tprint(struct tctx *T, struct expr *e)
{
	bool unresolved = false;
	bool formatted = e->op & PF_FORMAT;

	if (e->op & PF_CHAR) {
		/* print_char(c): one number, printed as a character */
		if ((e->a || e->args.n != 1) && T->report) {
			char *what = describe_expr(e);

			sem_error(T->E, &e->pos, what, "print_char takes one numeric argument");
			free(what);
		}
		if (e->a)
			texpr(T, e->a, SEM_UNKNOWN, NULL);
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_LONG, NULL);
		return;
	}
	if (e->a) {
		texpr(T, e->a, SEM_UNKNOWN, NULL);
		return;
	}
	if (formatted && e->str) {
		enum tap_arg_kind kinds[64];
		const char *err = NULL;
		int off = 0;
		int n = tap_format_check(e->str, kinds, 64, &err, &off);

		if (n < 0) {
			if (T->report) {
				char *what = describe_expr(e);

				sem_error(T->E, &e->pos, what, "%s", err);
				free(what);
			}
		} else if (n != (int)e->args.n) {
			if (T->report) {
				char *what = describe_expr(e);

				sem_error(T->E, &e->pos, what, "%s", TAP_FMT_ERR_NARGS);
				free(what);
			}
		} else {
			for (int i = 0; i < n; i++) {
				enum sem_type w = i < 64 ? (kinds[i] == TAP_ARG_STRING ?
							    SEM_STRING : SEM_LONG) : SEM_UNKNOWN;

				texpr(T, e->args.v[i], w, NULL);
			}
			return;
		}
	}
	for (size_t i = 0; i < e->args.n; i++) {
		struct expr *a = e->args.v[i];
		enum sem_type t = texpr(T, a, SEM_UNKNOWN, NULL);

		if (t == SEM_STATS)
			invalid_type(T, a, t);
		else if (t == SEM_UNKNOWN)
			unresolved = true, unresolved_expr(T, a);
	}
	if (unresolved)
		unresolved_expr(T, e);
}

static enum sem_type tcall(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos)
{
	struct sem_ref *r = ref_of(T, e);
	struct sem_function *head = r->fn;
	enum sem_type t = SEM_UNKNOWN;

	(void)want_pos;

	if (!head || !head->group) {
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_UNKNOWN, NULL);
		return SEM_UNKNOWN;
	}
	for (int g = 0; g < head->n_group; g++) {
		struct sem_function *f = head->group[g];

		t = tdecl(T, e, &f->type, &f->type_pos, f->type_declared, want);
		if (t == SEM_STATS)
			invalid_type(T, e, t);
		for (size_t i = 0; i < e->args.n && (int)i < f->n_params; i++) {
			struct vardecl *p = f->params[i];
			struct expr *a = e->args.v[i];
			enum sem_type at = texpr(T, a, p->type, &p->type_pos);

			if (at == SEM_STATS)
				invalid_type(T, a, at);
			else
				infer(T, &p->type, &p->type_pos, at, &a->pos);
			if (at != SEM_UNKNOWN && p->type != SEM_UNKNOWN && at != p->type)
				decl_mismatch(T, a, (int)i, at, p->type,
					      p->type_declared ? NULL : &p->type_pos);
		}
	}
	return t;
}

static enum sem_type texpr(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos)
{
	struct sem_ref *r;
	struct vardecl *v;
	enum sem_type t;

	if (!e)
		return SEM_UNKNOWN;
	switch (e->kind) {
	case E_NUM:
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_STR:
		return settle(T, e, SEM_STRING, want, want_pos);
	case E_EMBEDDED:
		return settle(T, e, strstr(e->str, "/* string */") ? SEM_STRING : SEM_LONG,
			      want, want_pos);
	case E_ATOP:
		if (is_atconst(e) || is_atperf(e))
			return settle(T, e, SEM_LONG, want, want_pos);
		return SEM_UNKNOWN;
	case E_SYM:
		r = ref_of(T, e);
		v = r->var;
		if (!v || v->arity > 0)
			return SEM_UNKNOWN;
		return tdecl(T, e, &v->type, &v->type_pos, v->type_declared, want);
	case E_INDEX:
		if (e->a->kind == E_HIST) {
			texpr(T, e->a, SEM_UNKNOWN, NULL);
			for (size_t i = 0; i < e->args.n; i++)
				texpr(T, e->args.v[i], SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		}
		v = ref_of(T, e)->var;
		if (!v)
			return SEM_UNKNOWN;
		tkeys(T, v, &e->args);
		return tdecl(T, e, &v->type, &v->type_pos, v->type_declared, want);
	case E_IN:
		if (e->a->kind == E_SYM) {
			tkeys(T, ref_of(T, e)->var, &e->args);
		} else {
			texpr(T, e->a, SEM_UNKNOWN, NULL);
			for (size_t i = 0; i < e->args.n; i++)
				texpr(T, e->args.v[i], SEM_LONG, NULL);
		}
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_CALL:
		return tcall(T, e, want, want_pos);
	case E_PRINT:
		tprint(T, e);
		return settle(T, e, (e->op & PF_STRING) ? SEM_STRING : SEM_LONG,
			      want, want_pos);
	case E_UNARY:
		texpr(T, e->a, SEM_LONG, NULL);
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_PREINC: case E_POSTINC:
		texpr(T, e->a, SEM_LONG, NULL);
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_BINARY:
		switch (e->op) {
		case TK_DOT:
			texpr(T, e->a, SEM_STRING, NULL);
			texpr(T, e->b, SEM_STRING, NULL);
			return settle(T, e, SEM_STRING, want, want_pos);
		case TK_LT: case TK_GT: case TK_LE: case TK_GE: case TK_EQ: case TK_NE:
			t = tcompare(T, e, e->a, e->b);
			if (t == SEM_STATS)
				invalid_type(T, e, t);
			return settle(T, e, SEM_LONG, want, want_pos);
		case TK_MATCH: case TK_NMATCH:
			texpr(T, e->a, SEM_STRING, NULL);
			texpr(T, e->b, SEM_STRING, NULL);
			check_regex(T, e->b);
			return settle(T, e, SEM_LONG, want, want_pos);
		default:
			texpr(T, e->a, SEM_LONG, NULL);
			if ((e->op != TK_ANDAND && e->op != TK_OROR) ||
			    sem_static_cond(T->dp, e->a) != (e->op == TK_OROR))
				texpr(T, e->b, SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		}
	case E_TERNARY: {
		int known = sem_static_cond(T->dp, e->a);

		texpr(T, e->a, SEM_LONG, NULL);
		if (known >= 0)		/* the other arm does not exist here */
			return settle(T, e, texpr(T, known ? e->b : e->c, want, want_pos),
				      SEM_UNKNOWN, NULL);
		t = tpair(T, e, e->b, e->c, want, want_pos);
		return settle(T, e, t, SEM_UNKNOWN, NULL);
	}
	case E_ASSIGN:
		if (e->a->kind == E_SYM && e->op != TK_AGG) {
			/* An assignment to a local elided as unused is
			 * only its right-hand side (but one that dropped
			 * assignments read is typed for them). */
			r = ptrmap_get(&T->E->P->refs, e->a);
			if (r && r->var && r->var->elided && !r->var->read_dropped)
				return settle(T, e, texpr(T, e->b, want, want_pos),
					      SEM_UNKNOWN, NULL);
		}
		switch (e->op) {
		case TK_ASSIGN:
			t = tassign(T, e, want, want_pos);
			if (t == SEM_STATS && ref_of(T, e->b)->type == SEM_STATS)
				invalid_type(T, e, t);
			return settle(T, e, t, SEM_UNKNOWN, NULL);
		case TK_AGG:
			texpr(T, e->a, SEM_STATS, NULL);
			texpr(T, e->b, SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		case TK_CAT_ASSIGN:
			texpr(T, e->a, SEM_STRING, NULL);
			texpr(T, e->b, SEM_STRING, NULL);
			return settle(T, e, SEM_STRING, want, want_pos);
		default:
			texpr(T, e->a, SEM_LONG, NULL);
			texpr(T, e->b, SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		}
	case E_STAT:
		texpr(T, e->a, SEM_STATS, NULL);
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_LONG, NULL);
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_HIST:
		texpr(T, e->a, SEM_STATS, NULL);
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_LONG, NULL);
		return SEM_UNKNOWN;
	case E_DEFINED:
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_ENTRY:	/* the value of its operand, saved at entry */
		t = texpr(T, e->a, want, want_pos);
		if (t == SEM_STATS)
			invalid_type(T, e, t);
		return settle(T, e, t, SEM_UNKNOWN, NULL);
	case E_TARGET:
		return ttarget(T, e, want, want_pos);
	case E_CAST:
	case E_AUTOCAST:	/* resolved as a @cast from its operand */
		return tcast(T, e, want, want_pos);
	case E_VAR:
		return tatvar(T, e, want, want_pos);
	default:
		return SEM_UNKNOWN;
	}
}

/* A target expression of a kernel event probe: typed by its family
 * (errors were reported by resolution). */
static enum sem_type ttarget(struct tctx *T, struct expr *e, enum sem_type want,
			     const struct srcpos *want_pos)
{
	const struct probe_family *fam = T->dp ? T->dp->family : NULL;
	const struct sem_target *st = sem_target_of(T->dp, e);
	struct family_error err = { 0 };
	enum sem_type t;

	if (!(st && st->zeroed) && (!fam || !fam->target_type))
		return SEM_UNKNOWN;
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_INDEX)
			texpr(T, c->index, SEM_LONG, NULL);
	}
	t = sem_target_check(T->dp, e, false, &err);
	free(err.msg);
	free(err.what);
	if (t == SEM_UNKNOWN)
		return SEM_UNKNOWN;
	return settle(T, e, t, want, want_pos);
}

/* @cast(ptr, ...)...: a long pointer and indexes; its type is what the
 * cast resolved to (errors were reported by resolution). */
static enum sem_type tcast(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos)
{
	const struct sem_cast *sc;

	texpr(T, e->a, SEM_LONG, NULL);
	if (sem_cast_typing_only(e))	/* p's value: its type need not be looked up */
		return settle(T, e, SEM_LONG, want, want_pos);
	sc = sem_cast_of(e);
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_INDEX)
			texpr(T, c->index, SEM_LONG, NULL);
	}
	if (sc->type == SEM_UNKNOWN)
		return SEM_UNKNOWN;
	return settle(T, e, sc->type, want, want_pos);
}

/* @var(...)...: its indexes are longs; its type is its variable's. */
static enum sem_type tatvar(struct tctx *T, struct expr *e, enum sem_type want,
			    const struct srcpos *want_pos)
{
	const struct sem_atvar *sa = sem_atvar_of(e);

	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_INDEX)
			texpr(T, c->index, SEM_LONG, NULL);
	}
	if (sa->type == SEM_UNKNOWN)
		return SEM_UNKNOWN;
	return settle(T, e, sa->type, want, want_pos);
}

static void tname(struct tctx *T, const void *node, enum sem_type t,
		  const struct srcpos *pos)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, node);
	struct vardecl *v = r ? r->var : NULL;
	char what[300];

	if (!v || t == SEM_UNKNOWN)
		return;
	if (v->type == SEM_UNKNOWN) {
		infer(T, &v->type, &v->type_pos, t, pos);
	} else if (v->type != t) {
		ident_what(what, sizeof(what), v->name);
		decl_mismatch_at(T, pos, what, -1, t, v->type,
				 v->type_declared ? NULL : &v->type_pos);
	}
	if (r->type == SEM_UNKNOWN && v->type != SEM_UNKNOWN)
		r->type = v->type;
}

/* foreach (v = [k] in s): a statistics array has no one value to put
 * in v (an aggregate of it is asked for by name), SystemTap's
 * "invalid type stats" at v. */
static void stats_value(struct tctx *T, const struct foreach_key *value)
{
	char what[300];

	if (!T->report)
		return;
	ident_what(what, sizeof(what), value->name);
	pend(T, 0, &value->pos, with_what_at(&value->pos, what, xasprintf(
		"invalid type %s", sem_type_name(SEM_STATS))), NULL, NULL);
}

static enum sem_type tname_get(struct tctx *T, const void *node)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, node);

	return r && r->var ? r->var->type : SEM_UNKNOWN;
}

static void tstmt(struct tctx *T, struct stmt *s)
{
	if (!s)
		return;
	switch (s->kind) {
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			tstmt(T, s->stmts.v[i]);
		return;
	case S_EXPR:
		texpr(T, s->e1, SEM_UNKNOWN, NULL);
		return;
	case S_IF: case S_WHILE: {
		int known = s->kind == S_IF ? sem_static_cond(T->dp, s->e1) : -1;

		texpr(T, s->e1, SEM_LONG, NULL);
		if (known != 0)
			tstmt(T, s->body);
		if (known != 1)
			tstmt(T, s->els);
		return;
	}
	case S_FOR:
		texpr(T, s->e1, SEM_UNKNOWN, NULL);
		texpr(T, s->e2, SEM_LONG, NULL);
		texpr(T, s->e3, SEM_UNKNOWN, NULL);
		tstmt(T, s->body);
		return;
	case S_FOREACH: {
		struct sem_ref *br = ptrmap_get(&T->E->P->refs, s->base);
		struct vardecl *arr = br ? br->var : NULL;

		if (s->base->kind == E_HIST) {
			texpr(T, s->base, SEM_UNKNOWN, NULL);
			for (size_t i = 0; i < s->keys.n; i++)
				tname(T, s->keys.v[i], SEM_LONG,
				      &((struct foreach_key *)s->keys.v[i])->pos);
			if (s->value)
				tname(T, s->value, SEM_LONG, &s->value->pos);
		} else if (arr && arr->arity == (int)s->keys.n) {
			for (size_t i = 0; i < s->keys.n; i++) {
				struct foreach_key *k = s->keys.v[i];
				enum sem_type kt = tname_get(T, k);

				if (arr->index_types[i] == SEM_UNKNOWN)
					infer(T, &arr->index_types[i], &arr->index_pos[i],
					      kt, &k->pos);
				tname(T, k, arr->index_types[i], &k->pos);
			}
			if (s->value) {
				if (arr->type == SEM_UNKNOWN)
					infer(T, &arr->type, &arr->type_pos,
					      tname_get(T, s->value), &s->value->pos);
				if (arr->type == SEM_STATS)
					stats_value(T, s->value);
				else
					tname(T, s->value, arr->type, &s->value->pos);
			}
			if (arr->arity == (int)s->slice.n)
				tkeys(T, arr, &s->slice);
			if (s->sort_aggr && arr->type != SEM_UNKNOWN &&
			    arr->type != SEM_STATS)
				invalid_type(T, s->base, arr->type);
		}
		texpr(T, s->limit, SEM_LONG, NULL);
		tstmt(T, s->body);
		return;
	}
	case S_RETURN:
		if (s->e1 && T->fn) {
			struct sem_function *f = T->fn;
			enum sem_type t = texpr(T, s->e1, f->type, &f->type_pos);

			if (t == SEM_STATS)
				invalid_type(T, s->e1, t);
			else
				infer(T, &f->type, &f->type_pos, t, &s->e1->pos);
			if (t != SEM_UNKNOWN && f->type != SEM_UNKNOWN && t != f->type)
				decl_mismatch(T, s->e1, -1, t, f->type,
					      f->type_declared ? NULL : &f->type_pos);
		}
		return;
	case S_DELETE:
		if (s->e1->kind == E_INDEX)
			texpr(T, s->e1, SEM_UNKNOWN, NULL);
		return;
	case S_TRY:
		tstmt(T, s->body);
		if (s->name)
			tname(T, s, SEM_STRING, &s->name_pos);
		tstmt(T, s->els);
		return;
	default:
		return;
	}
}

static void type_body(struct tctx *T, struct stmt *body, struct expr *cond,
		      struct sem_function *fn, const struct derived_probe *dp)
{
	T->fn = fn;
	T->dp = dp;
	tstmt(T, body);
	if (cond)
		texpr(T, cond, SEM_LONG, NULL);
}

static void report_unresolved_var(struct tctx *T, struct vardecl *v)
{
	char what[300];

	ident_what(what, sizeof(what), v->name);
	if (!v->global && !v->param && v->type == SEM_STATS) {
		pend(T, 0, &v->pos, with_what_at(&v->pos, what, xstrdup(
			"stat locals not supported, missing global declaration? ")),
		     NULL, NULL);
		return;
	}
	if (v->type == SEM_UNKNOWN) {
		unresolved_at(T, &v->pos, what);
		return;
	}
	for (int i = 0; i < v->arity; i++)
		if (v->index_types[i] == SEM_UNKNOWN) {
			unresolved_at(T, &v->pos, what);
			break;
		}
}

/* One round of inference over every function and probe body. */
static void type_program(struct tctx *T)
{
	const struct program *P = T->E->P;

	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		if (f->decl->body)
			type_body(T, f->decl->body, NULL, f, f->ctx_dp);
	}
	/* SystemTap type-checks a function whose only calls were elided:
	 * its mismatches are errors, what stays unknown is not */
	T->dead = true;
	for (size_t i = 0; i < T->E->dead_fns.n; i++) {
		struct sem_function *f = T->E->dead_fns.v[i];

		if (f->decl->body)
			type_body(T, f->decl->body, NULL, f, f->ctx_dp);
	}
	T->dead = false;
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		type_body(T, dp->body, dp->cond, NULL, dp);
	}
}

/* global x% wraps an array when it is full; a scalar has nothing to
 * wrap: SystemTap refuses it once its arity is known. */
static void check_wrap(struct elab *E)
{
	const struct program *P = E->P;
	char what[300];

	for (size_t i = 0; i < P->globals.n; i++) {
		const struct vardecl *v = P->globals.v[i];

		if (!v->wrap || v->arity != 0)
			continue;
		ident_what(what, sizeof(what), v->name);
		sem_error(E, &v->pos, what, "wrapping not supported for scalars");
	}
}

void infer_types(struct elab *E)
{
	struct program *P = E->P;
	struct tctx T = { .E = E };

	for (int round = 0; round < 2 * 1000; round++) {
		T.changed = 0;
		type_program(&T);
		if (!T.changed)
			break;
	}
	T.report = true;
	type_program(&T);

	/* What is still unknown. */
	for (size_t i = 0; i < P->globals.n; i++)
		report_unresolved_var(&T, P->globals.v[i]);
	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		for (int j = 0; j < f->n_params; j++)
			report_unresolved_var(&T, f->params[j]);
		for (size_t j = 0; j < f->locals.n; j++)
			if (!((struct vardecl *)f->locals.v[j])->elided)
				report_unresolved_var(&T, f->locals.v[j]);
	}
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		for (size_t j = 0; j < dp->locals.n; j++)
			if (!((struct vardecl *)dp->locals.v[j])->elided)
				report_unresolved_var(&T, dp->locals.v[j]);
	}
	flush_pending(&T);
	check_wrap(E);
}

