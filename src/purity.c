/* Pass 2 and 3: what can have an effect, judged on the tree as pass 3
 * would emit it.
 *
 * Literals, variable reads, array lookups, statistics extractors,
 * operators, sprintf and reads of kernel or user memory ($x->f,
 * @cast(...)->f, as SystemTap's pure accessor functions) only compute a
 * value.  A call has an effect when the function it may run (any
 * overload of its group) does: an embedded-C function unless marked
 * pure, a script function when its body does something its caller can
 * see.  Writes to a function's own locals are not seen by its caller
 * (but constant folding counts them, as SystemTap's does); an
 * assignment to a local nobody reads is dropped by pass 3, so only its
 * value can matter.  Everything else (printing, writing a global,
 * =~ setting matched(), delete, next, embedded C) is an effect, and so
 * is what this cannot decide (recursion).
 */
#include "purity.h"

#include "elab_int.h"
#include "token.h"

/* What is known of a script function (the memo of fn_effect). */
enum fn_state { FN_UNKNOWN, FN_VISITING, FN_PURE, FN_EFFECT };

void purity_init(struct purity *U, const struct program *P, bool strict)
{
	*U = (struct purity){ .P = P, .strict = strict };
}

void purity_free(struct purity *U)
{
	ptrindex_free(&U->fns);
}

static bool exprs_effect(struct purity *U, const struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (purity_expr_effect(U, v->v[i]))
			return true;
	return false;
}

static bool fn_effect(struct purity *U, const struct sem_function *f)
{
	int state = ptrindex_get(&U->fns, f);
	bool effect;

	if (state == FN_PURE || state == FN_EFFECT)
		return state == FN_EFFECT;
	if (state == FN_VISITING)
		return true;	/* recursion: not worth deciding */
	if (f->decl->embedded) {
		effect = !(f->decl->pragmas & PRAGMA_PURE);
	} else {
		bool was_in_fn = U->in_fn;

		ptrindex_set(&U->fns, f, FN_VISITING);
		U->in_fn = true;
		effect = purity_stmt_effect(U, f->decl->body, true);
		U->in_fn = was_in_fn;
	}
	ptrindex_set(&U->fns, f, effect ? FN_EFFECT : FN_PURE);
	return effect;
}

/* A call may run any overload of its group ("next" moves on). */
static bool call_effect(struct purity *U, const struct expr *e)
{
	return purity_callee_effect(U, e) || exprs_effect(U, &e->args);
}

bool purity_callee_effect(struct purity *U, const struct expr *call)
{
	const struct sem_ref *r = program_ref(U->P, call);
	const struct sem_function *f = r ? r->fn : NULL;

	if (!f)
		return true;
	if (f->group) {
		for (int i = 0; i < f->n_group; i++)
			if (fn_effect(U, f->group[i]))
				return true;
		return false;
	}
	return fn_effect(U, f);
}

/* Whether e names a local or parameter of the function being judged. */
static bool own_local(const struct purity *U, const struct expr *e)
{
	const struct sem_ref *r;

	if (!U->in_fn || U->strict || !e || e->kind != E_SYM)
		return false;
	r = program_ref(U->P, e);
	return r && r->var && !r->var->global;
}

/* Whether the assignment e writes an elided local, which pass 3 does not
 * write at all.  That includes "x <<< v" into a local nobody reads: a
 * local is never a statistic, and pass 3 has nowhere to add it. */
static bool elided_target(const struct program *P, const struct expr *e)
{
	const struct sem_ref *r;

	if (e->a->kind != E_SYM)
		return false;
	r = program_ref(P, e->a);
	return r && r->var && !r->var->global && r->var->elided;
}

/* The array indexes of $x[i]->a, @cast(...)[i], @var(...)[i]... */
static bool comps_effect(struct purity *U, const struct expr *e)
{
	for (size_t i = 0; i < e->comps.n; i++) {
		const struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_INDEX && purity_expr_effect(U, c->index))
			return true;
	}
	return false;
}

bool purity_expr_effect(struct purity *U, const struct expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case E_NUM: case E_STR: case E_SYM:
	case E_DEFINED:		/* settled in pass 2, nothing runs */
	case E_STAT:
		return false;
	case E_EMBEDDED:	/* pure-marked embedded C computes a value only */
		return !(embedded_pragmas(e->str) & PRAGMA_PURE);
	case E_TARGET: case E_VAR: case E_CAST: case E_AUTOCAST:
		return purity_expr_effect(U, e->a) || comps_effect(U, e);
	case E_ENTRY: case E_UNARY: case E_TERNARY:
		return purity_expr_effect(U, e->a) || purity_expr_effect(U, e->b) ||
		       purity_expr_effect(U, e->c);
	case E_BINARY:
		if (e->op == TK_MATCH || e->op == TK_NMATCH)
			return true;	/* sets what matched() returns */
		return purity_expr_effect(U, e->a) || purity_expr_effect(U, e->b);
	case E_INDEX: case E_IN:
		return exprs_effect(U, &e->args);
	case E_PRINT:
		/* sprint... computes a string; the others print */
		if (!(e->op & PF_STRING) || e->a)
			return true;
		return exprs_effect(U, &e->args);
	case E_CALL:
		return call_effect(U, e);
	case E_ASSIGN:
		if (own_local(U, e->a) || elided_target(U->P, e))
			return purity_expr_effect(U, e->b);
		return true;
	case E_PREINC: case E_POSTINC:
		return !own_local(U, e->a);
	default:
		return true;
	}
}

bool purity_stmt_effect(struct purity *U, const struct stmt *s, bool in_fn)
{
	if (!s)
		return false;
	switch (s->kind) {
	case S_NULL:
		return false;
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			if (purity_stmt_effect(U, s->stmts.v[i], in_fn))
				return true;
		return false;
	case S_EXPR:
		return purity_expr_effect(U, s->e1);
	case S_IF: case S_WHILE: case S_FOR:
		return purity_expr_effect(U, s->e1) || purity_expr_effect(U, s->e2) ||
		       purity_expr_effect(U, s->e3) ||
		       purity_stmt_effect(U, s->body, in_fn) ||
		       purity_stmt_effect(U, s->els, in_fn);
	case S_FOREACH:
		return purity_expr_effect(U, s->limit) || exprs_effect(U, &s->slice) ||
		       purity_stmt_effect(U, s->body, in_fn);
	case S_TRY:
		/* the catch runs only for an error of the try block */
		return purity_stmt_effect(U, s->body, in_fn);
	case S_RETURN:
		return !in_fn || purity_expr_effect(U, s->e1);
	default:
		return true;	/* delete, next, break, continue */
	}
}

static bool pure(const struct program *p, const struct expr *e, bool strict)
{
	struct purity U;
	bool effect;

	purity_init(&U, p, strict);
	effect = purity_expr_effect(&U, e);
	purity_free(&U);
	return !effect;
}

bool program_pure_expr(const struct program *p, const struct expr *e)
{
	return pure(p, e, false);
}

bool program_writes_nothing(const struct program *p, const struct expr *e)
{
	return pure(p, e, true);
}

bool program_dropped_assign(const struct program *p, const struct expr *e)
{
	return e && e->kind == E_ASSIGN && elided_target(p, e) && program_pure_expr(p, e->b);
}
