/* Pass 2: a probe whose handler cannot have an effect is elided.
 *
 * SystemTap leaves such probes out of the module ("Probe 'begin' has been
 * elided"), and a script left with none is an error ("no probes found"):
 * `probe begin {}` and `probe timer.s(1) { x = 1 }` do nothing, so they
 * are not registered at all.  -u keeps them.
 *
 * "No effect" is purity.c's: the one notion that pass 2's dropped
 * assignments and pass 3's folding use too.  A probe with a condition is
 * kept: SystemTap puts the test and a "next" in its body.
 */
#include "sem_elide.h"

#include <stdlib.h>

#include "astwalk.h"
#include "probes/perf.h"
#include "purity.h"
#include "token.h"

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
	struct purity U;
	size_t kept = 0, elided = 0;

	purity_init(&U, P, false);

	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		/* a condition is a test and a "next" ahead of the body; a
		 * perf counter's event is read by @perf elsewhere */
		if (dp->cond || perf_is_counter(dp) ||
		    purity_stmt_effect(&U, dp->body, false)) {
			P->probes.v[kept++] = dp;
			continue;
		}
		if (!P->elided.n || !derived_probe_twins(P->elided.v[P->elided.n - 1], dp))
			warn_elided(E, dp);
		vec_push(&P->elided, dp);
		elided++;
	}
	P->probes.n = kept;
	purity_free(&U);
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
	struct purity U;
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

/* ---- SystemTap's reducer of statements whose value nobody uses -------- */

static bool reduce(struct stmt_elide *X, struct stmt *s);

/* The statement that evaluates e for its effects alone: e reduced further,
 * or nothing (silently, its reads forgotten) when e can have none. */
static struct stmt *piece(struct stmt_elide *X, struct expr *e)
{
	struct ast_visitor forget = { .ctx = X->E->P, .expr = forget_read };
	struct stmt *st;

	if (!purity_expr_effect(&X->U, e)) {
		ast_walk_expr(e, &forget);
		vec_push(&X->E->P->elided_exprs, e);
		return stmt_new(S_NULL, &e->pos);
	}
	st = stmt_new(S_EXPR, &e->pos);
	st->e1 = e;
	reduce(X, st);
	return st;
}

/* s becomes the block of its operands' effects, in order; the operator
 * itself (its operands detached) is dropped. */
static void to_block(struct stmt_elide *X, struct stmt *s, struct expr **ops, size_t n)
{
	struct vec kept = { 0 };

	for (size_t i = 0; i < n; i++)
		if (ops[i])
			vec_push(&kept, piece(X, ops[i]));
	vec_push(&X->E->P->elided_exprs, s->e1);
	s->e1 = NULL;
	s->kind = S_BLOCK;
	s->stmts = kept;
}

/* a && b, a || b and a ? b : c for their effects: an if statement, as
 * SystemTap's reducer writes them (an arm with no effect goes). */
static void to_if(struct stmt_elide *X, struct stmt *s, struct expr *cond,
		  struct expr *yes, struct expr *no)
{
	struct expr *op = s->e1;

	struct stmt *body = piece(X, yes), *els = no ? piece(X, no) : NULL;

	op->a = op->b = op->c = NULL;
	vec_push(&X->E->P->elided_exprs, op);
	if (body->kind == S_NULL && (!els || els->kind == S_NULL)) {
		/* nothing left to choose: the condition for its effects */
		stmt_free(body);
		stmt_free(els);
		s->e1 = NULL;
		s->kind = S_BLOCK;
		s->stmts = (struct vec){ 0 };
		vec_push(&s->stmts, piece(X, cond));
		return;
	}
	s->kind = S_IF;
	s->e1 = cond;
	s->body = body;
	s->els = els;
}

static struct expr *negate(struct expr *e)
{
	struct expr *n = expr_new(E_UNARY, &e->pos);

	n->op = TK_NOT;
	n->a = e;
	return n;
}

/*
 * A statement whose expression has an effect runs only for that effect:
 * SystemTap's void-statement reducer evaluates an operator's operands as
 * statements of their own, and a call of a function with no effect as its
 * arguments, so that what has none goes, silently, with its reads
 * (`f(a[0] = 4, a[0])` reads a no more, so a is printed at the end;
 * `good() + pure_c()` never runs pure_c(), as its testsuite's
 * optim_voidstmt checks).
 */
static bool reduce(struct stmt_elide *X, struct stmt *s)
{
	struct expr *e = s->e1;
	struct expr *ops[2];

	switch (e->kind) {
	case E_CALL:
		if (purity_callee_effect(&X->U, e))
			return false;
		break;
	case E_PRINT:	/* sprint, sprintf...: a string, no output */
		if (!(e->op & PF_STRING) || e->a)
			return false;
		break;
	case E_UNARY:
		ops[0] = e->a;
		e->a = NULL;
		to_block(X, s, ops, 1);
		return true;
	case E_BINARY:
		if (e->op == TK_MATCH || e->op == TK_NMATCH)
			return false;	/* sets what matched() returns */
		if (e->op == TK_ANDAND || e->op == TK_OROR) {
			struct expr *a = e->a;

			to_if(X, s, e->op == TK_OROR ? negate(a) : a, e->b, NULL);
			return true;
		}
		ops[0] = e->a;
		ops[1] = e->b;
		e->a = e->b = NULL;
		to_block(X, s, ops, 2);
		return true;
	case E_TERNARY:
		to_if(X, s, e->a, e->b, e->c);
		return true;
	default:
		return false;
	}
	{
		struct vec args = e->args;

		e->args = (struct vec){ 0 };
		to_block(X, s, (struct expr **)args.v, args.n);
		free(args.v);
	}
	return true;
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
		if (!purity_expr_effect(&X->U, s->e1))
			drop_statement(X, s);
		else
			reduce(X, s);
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

/* SystemTap's warning for a script's function that is left with nothing
 * to do ("side-effect-free function 'f'", at its name). */
static void warn_empty_function(struct elab *E, const struct sem_function *f)
{
	char what[300];

	if (!f->decl->body || !elab_user_file(E, f->decl->pos.file) ||
	    !stmt_empty(f->decl->body))
		return;
	ident_what(what, sizeof(what), f->name);
	sem_warn(E, &f->decl->pos, what, "side-effect-free function '%s'", f->name);
}

void sem_elide_statements(struct elab *E)
{
	struct program *P = E->P;
	struct stmt_elide X = { .E = E };
	struct ast_visitor assigns = { .ctx = &X, .expr = warn_assign };

	purity_init(&X.U, P, false);

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
	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		elide_in(&X, f->decl->body);
		warn_empty_function(E, f);
	}
	purity_free(&X.U);
}
