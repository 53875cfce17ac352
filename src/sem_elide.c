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

#include "astwalk.h"
#include "lookup.h"
#include "probes/perf.h"
#include "token.h"

/* What is known of a script function (a memo of fn_effect). */
enum fn_state { FN_UNKNOWN, FN_VISITING, FN_PURE, FN_EFFECT };

struct elide {
	const struct program *P;
	struct ptrindex state;	/* struct sem_function * -> enum fn_state */
	/* Inside a function's body: what it writes to its own locals and
	 * parameters ends with the call, so a write there is no effect of
	 * the call (SystemTap judges a function by what its caller sees). */
	bool in_fn;
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
		bool was_in_fn = L->in_fn;

		ptrindex_set(&L->state, f, FN_VISITING);
		L->in_fn = true;
		effect = stmt_effect(L, f->decl->body, true);
		L->in_fn = was_in_fn;
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

/* Whether e names a local or parameter of the function being judged. */
static bool own_local(const struct elide *L, const struct expr *e)
{
	const struct sem_ref *r;

	if (!L->in_fn || !e || e->kind != E_SYM)
		return false;
	r = program_ref(L->P, e);
	return r && r->var && !r->var->global;
}

/* Whether e assigns to an elided local: only its value can matter. */
static bool unread_local(const struct elide *L, const struct expr *e)
{
	const struct sem_ref *r;

	if (e->op != TK_ASSIGN || e->a->kind != E_SYM)
		return false;
	r = program_ref(L->P, e->a);
	return r && r->var && !r->var->global && r->var->elided;
}

static bool expr_effect(struct elide *L, const struct expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case E_NUM: case E_STR: case E_SYM: case E_TARGET: case E_VAR:
	case E_DEFINED: case E_STAT:
		return false;
	case E_EMBEDDED:	/* pure-marked embedded C computes a value only */
		return !(embedded_pragmas(e->str) & PRAGMA_PURE);
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
		if (own_local(L, e->a) || unread_local(L, e))
			return expr_effect(L, e->b);
		return !program_dropped_assign(L->P, e);
	case E_PREINC: case E_POSTINC:
		return !own_local(L, e->a);
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

/* ---- side-effect-free statements ---------------------------------------- */

/* SystemTap's first round of optimisation, before types are inferred: an
 * assignment to a local nobody reads is dropped ("Eliding assignment to
 * 'x'"), and an expression statement that can have no effect, such a
 * dropped assignment of a pure value included, goes ("Eliding
 * side-effect-free expression"), so that `x = "a"; x + 2` is no type
 * error.  What those statements read is then read no more: the locals
 * only they read are elided in turn (silently, as SystemTap's later
 * rounds are), and a global only they read is written only, so it is
 * printed at the end. */
struct stmt_elide {
	struct elab *E;
	struct elide L;
};

/* SystemTap names an elided statement by its first token: describe_expr's
 * words for it, but for the tokens that expression errors name
 * otherwise (a string unquoted, the statistic operators by name). */
static char *first_token_what(const struct expr *e)
{
	while (!e->paren && (e->kind == E_BINARY || e->kind == E_ASSIGN ||
			     e->kind == E_TERNARY || e->kind == E_POSTINC ||
			     e->kind == E_AUTOCAST || e->kind == E_INDEX) && e->a)
		e = e->a;
	if (e->paren)
		return xstrdup("operator '('");
	switch (e->kind) {
	case E_STR:
		return xasprintf("string '%s'", e->str);
	case E_IN:
		return xstrdup("operator '['");
	case E_STAT:
		return xasprintf("operator '%s'", ast_stat_name(e->op));
	case E_HIST:
		return xstrdup(e->op == HIST_LOG ? "operator '@hist_log'" :
			       "operator '@hist_linear'");
	case E_DEFINED:
		return xstrdup("operator '@defined'");
	case E_ENTRY:
		return xstrdup("operator '@entry'");
	case E_EMBEDDED:
		return xstrdup("embedded-code");
	default:
		return describe_expr(e);
	}
}

/* The reads of a dropped statement are taken off its variables' counts
 * (a plain assignment's target is written, not read). */
static void forget_read(void *ctx, const struct expr *e)
{
	const struct program *P = ctx;
	const struct sem_ref *r;

	if (e->kind == E_ASSIGN && e->op == TK_ASSIGN && e->a->kind == E_SYM) {
		r = program_ref(P, e->a);
		if (r && r->var)
			r->var->reads++;
	}
	if (e->kind != E_SYM)
		return;
	r = program_ref(P, e);
	if (r && r->var)
		r->var->reads--;
}

static void drop_statement(struct stmt_elide *X, struct stmt *s)
{
	struct ast_visitor forget = { .ctx = X->E->P, .expr = forget_read };

	if (elab_user_file(X->E, s->pos.file)) {
		char *what = first_token_what(s->e1);

		sem_warn(X->E, &s->pos, what, "Eliding side-effect-free expression ");
		free(what);
	}
	ast_walk_expr(s->e1, &forget);
	vec_push(&X->E->P->elided_exprs, s->e1);
	s->e1 = NULL;
	s->kind = S_NULL;
}

static void elide_in(struct stmt_elide *X, struct stmt *s)
{
	if (!s)
		return;
	switch (s->kind) {
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			elide_in(X, s->stmts.v[i]);
		break;
	case S_IF: case S_WHILE: case S_FOR: case S_FOREACH: case S_TRY:
		elide_in(X, s->body);
		elide_in(X, s->els);
		break;
	case S_EXPR:
		if (!expr_effect(&X->L, s->e1))
			drop_statement(X, s);
		break;
	default:
		break;
	}
}

/* "Eliding assignment to 'x'" for each assignment to a local that
 * nothing reads. */
static void warn_assign(void *ctx, const struct expr *e)
{
	struct stmt_elide *X = ctx;
	const struct sem_ref *r;
	const char *op;
	char *what;

	if (e->kind != E_ASSIGN || e->a->kind != E_SYM || !e->op_pos.file ||
	    !elab_user_file(X->E, e->op_pos.file))
		return;
	r = program_ref(X->E->P, e->a);
	if (!r || !r->var || r->var->global || !r->var->elided)
		return;
	op = tok_spelling((enum tok_kind)e->op);
	what = xasprintf("operator '%s'", op ? op : "=");
	sem_warn(X->E, &e->op_pos, what, "Eliding assignment to '%s'", e->a->name);
	free(what);
}

static void elide_locals_unread(struct vec *locals)
{
	for (size_t i = 0; i < locals->n; i++) {
		struct vardecl *v = locals->v[i];

		if (v->reads == 0)
			v->elided = true;
	}
}

void sem_elide_statements(struct elab *E)
{
	struct program *P = E->P;
	struct stmt_elide X = { .E = E, .L = { .P = P } };
	struct ast_visitor assigns = { .ctx = &X, .expr = warn_assign };

	/* SystemTap's order: the probes, then the functions */
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		elide_locals_unread(&dp->locals);
		ast_walk_stmt(dp->body, &assigns);
	}
	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		elide_locals_unread(&f->locals);
		ast_walk_stmt(f->decl->body, &assigns);
	}
	for (size_t i = 0; i < P->probes.n; i++)
		elide_in(&X, ((struct derived_probe *)P->probes.v[i])->body);
	for (size_t i = 0; i < P->functions.n; i++)
		elide_in(&X, ((struct sem_function *)P->functions.v[i])->decl->body);
	ptrindex_free(&X.L.state);
}
