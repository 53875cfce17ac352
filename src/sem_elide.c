/* Pass 2: a probe whose handler cannot have an effect is elided.
 *
 * SystemTap leaves such probes out of the module ("Probe 'begin' has been
 * elided"), and a script left with none is an error ("no probes found"):
 * `probe begin {}` and `probe timer.s(1) { x = 1 }` do nothing, so they
 * are not registered at all.  -u keeps them.
 *
 * "No effect" is judged on the tree as pass 3 would emit it: assignments
 * to elided locals are dropped already (program_dropped_assign), pure
 * expressions alone do nothing, and an if, loop, foreach or try does
 * nothing when its parts do nothing.  A call does nothing when it calls
 * an embedded-C function marked pure, or a script function whose body
 * does nothing but return a value computed without effect.  Anything
 * else (printing, writing a global, next, delete, embedded C) is an
 * effect, and so is what this cannot decide (recursion).  A probe with a
 * condition is kept: SystemTap puts the test and a "next" in its body.
 */
#include "sem_elide.h"

#include <stdlib.h>

#include "lookup.h"
#include "probes/perf.h"

/* What is known of a script function (a memo of fn_effect). */
enum fn_state { FN_UNKNOWN, FN_VISITING, FN_PURE, FN_EFFECT };

struct elide {
	const struct program *P;
	struct ptrindex state;	/* struct sem_function * -> enum fn_state */
};

static bool stmt_effect(struct elide *L, const struct stmt *s, bool in_fn);

static bool exprs_effect(struct elide *L, const struct vec *v);

static bool fn_effect(struct elide *L, const struct sem_function *f)
{
	int state = ptrindex_get(&L->state, f);
	bool effect;

	if (state == FN_PURE || state == FN_EFFECT)
		return state == FN_EFFECT;
	if (state == FN_VISITING)
		return true;	/* recursion: not worth deciding */
	if (f->decl->embedded)
		effect = !(f->decl->pragmas & PRAGMA_PURE);
	else {
		ptrindex_set(&L->state, f, FN_VISITING);
		effect = stmt_effect(L, f->decl->body, true);
	}
	ptrindex_set(&L->state, f, effect ? FN_EFFECT : FN_PURE);
	return effect;
}

/* A call may run any overload of its group ("next" moves on). */
static bool call_effect(struct elide *L, const struct expr *e)
{
	const struct sem_ref *r = program_ref(L->P, e);
	const struct sem_function *f = r ? r->fn : NULL;

	if (!f)
		return true;
	if (f->group) {
		for (int i = 0; i < f->n_group; i++)
			if (fn_effect(L, f->group[i]))
				return true;
	} else if (fn_effect(L, f)) {
		return true;
	}
	return exprs_effect(L, &e->args);
}

static bool expr_effect(struct elide *L, const struct expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case E_NUM: case E_STR: case E_SYM: case E_TARGET: case E_VAR:
	case E_DEFINED: case E_STAT:
		return false;
	case E_CAST: case E_AUTOCAST: case E_ENTRY: case E_UNARY: case E_TERNARY:
		return expr_effect(L, e->a) || expr_effect(L, e->b) ||
		       expr_effect(L, e->c);
	case E_BINARY:
		if (e->op == TK_MATCH || e->op == TK_NMATCH)
			return true;	/* sets what matched() returns */
		return expr_effect(L, e->a) || expr_effect(L, e->b);
	case E_INDEX: case E_IN:
		return exprs_effect(L, &e->args);
	case E_PRINT:
		/* sprint... computes a string; the others print */
		if (!(e->op & PF_STRING) || e->a)
			return true;
		return exprs_effect(L, &e->args);
	case E_CALL:
		return call_effect(L, e);
	case E_ASSIGN:
		return !program_dropped_assign(L->P, e);
	default:
		return true;
	}
}

static bool exprs_effect(struct elide *L, const struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (expr_effect(L, v->v[i]))
			return true;
	return false;
}

/* in_fn: a function's body, where "return VALUE" only hands back a value */
static bool stmt_effect(struct elide *L, const struct stmt *s, bool in_fn)
{
	if (!s)
		return false;
	switch (s->kind) {
	case S_NULL:
		return false;
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			if (stmt_effect(L, s->stmts.v[i], in_fn))
				return true;
		return false;
	case S_EXPR:
		return expr_effect(L, s->e1);
	case S_IF: case S_WHILE: case S_FOR:
		return expr_effect(L, s->e1) || expr_effect(L, s->e2) ||
		       expr_effect(L, s->e3) || stmt_effect(L, s->body, in_fn) ||
		       stmt_effect(L, s->els, in_fn);
	case S_FOREACH:
		return expr_effect(L, s->limit) || exprs_effect(L, &s->slice) ||
		       stmt_effect(L, s->body, in_fn);
	case S_TRY:
		/* the catch runs only for an error of the try block */
		return stmt_effect(L, s->body, in_fn);
	case S_RETURN:
		return !in_fn || expr_effect(L, s->e1);
	default:
		return true;	/* delete, next, break, continue */
	}
}

/* SystemTap's warning names the elided probe by its point's first
 * component and points at the user's alias point, or at the probe. */
static void warn_elided(struct elab *E, const struct derived_probe *dp)
{
	const struct pp_comp *name = dp->loc->comps.v[0];
	const struct pp_comp *first;
	char what[300];

	if (dp->user_point) {
		first = dp->user_point->comps.v[0];
		if (!elab_user_file(E, first->pos.file))
			return;
		ident_what(what, sizeof(what), first->name);
		sem_warn(E, &first->pos, what, "Probe '%s' has been elided", name->name);
	} else if (elab_user_file(E, dp->origin->pos.file)) {
		sem_warn(E, &dp->origin->pos, "keyword", "Probe '%s' has been elided",
			 name->name);
	}
}

size_t sem_elide_probes(struct elab *E)
{
	struct program *P = E->P;
	struct elide L = { .P = P };
	size_t kept = 0, elided = 0;

	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		/* a condition is a test and a "next" ahead of the body; a
		 * perf counter's event is read by @perf elsewhere */
		if (dp->cond || perf_is_counter(dp) || stmt_effect(&L, dp->body, false)) {
			P->probes.v[kept++] = dp;
			continue;
		}
		warn_elided(E, dp);
		vec_push(&P->elided, dp);
		elided++;
	}
	P->probes.n = kept;
	ptrindex_free(&L.state);
	return elided;
}
