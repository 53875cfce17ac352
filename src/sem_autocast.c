/* SystemTap's autocast: typed values and p->member on them (see
 * sem_autocast.h). */
#include "sem_autocast.h"

#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "sem_atvar.h"
#include "sem_cast.h"
#include "sem_defer.h"
#include "sem_target.h"
#include "tvar_resolve.h"

/* A value's C type, and whether it is in the probed process's memory. */
struct ctval {
	struct tvar_ctype tc;		/* tc.ct.ops NULL: untyped */
	bool user;
};

/* What the typed assignments to a variable, or the typed returns of a
 * function, say: nothing yet, one type, or types that disagree. */
enum ac_state { AC_NONE, AC_TYPED, AC_CONFLICT };

struct slot {
	enum ac_state state;
	struct ctval val;
};

struct noted {
	const struct expr *e;
	const struct derived_probe *dp;
	bool quiet;
	bool written;	/* assigned to, in guru mode */
};

/* An assignment "var = rhs", or a function's "return rhs" (var NULL). */
struct source {
	const void *owner;		/* struct vardecl * or struct sem_function * */
	const struct expr *rhs;
	const struct derived_probe *dp;	/* where rhs is evaluated, NULL in a function */
};

struct typing {
	struct elab *E;
	struct ptrindex index;		/* owner -> slots[i] */
	struct slot *slots;
	size_t nslots;
	struct source *sources;
	size_t nsources;
	bool changed;
	/* the walk's context */
	const struct derived_probe *dp;
	const struct sem_function *fn;
};

struct guard {
	const struct derived_probe *dp;
	const struct expr *cond;
	const void *yes, *no;
	bool stmts;
};

/* Autocasts decided (resolved or not) by sem_autocast_resolve. */
static struct ptrindex decided;

void sem_autocast_note(struct elab *E, const struct expr *e, const struct derived_probe *dp,
		       bool quiet)
{
	struct noted *n = xcalloc(1, sizeof(*n));

	n->e = e;
	n->dp = dp;
	n->quiet = quiet;
	vec_push(&E->autocasts, n);
}

void sem_autocast_written(struct elab *E, const struct expr *e)
{
	for (size_t i = 0; i < E->autocasts.n; i++) {
		struct noted *n = E->autocasts.v[i];

		if (n->e == e)
			n->written = true;
	}
}

void sem_autocast_guard(struct elab *E, const struct derived_probe *dp, const struct expr *cond,
			const void *yes, const void *no, bool stmts)
{
	struct guard *g = xcalloc(1, sizeof(*g));

	*g = (struct guard){ dp, cond, yes, no, stmts };
	vec_push(&E->autocast_guards, g);
}

bool sem_autocast_undecided_cond(const struct expr *cond)
{
	if (!cond)
		return false;
	switch (cond->kind) {
	case E_DEFINED:
		return cond->a && cond->a->kind == E_AUTOCAST && !sem_autocast_decided(cond->a);
	case E_UNARY:
		return cond->op == TK_NOT && sem_autocast_undecided_cond(cond->a);
	case E_BINARY:
		return (cond->op == TK_ANDAND || cond->op == TK_OROR) &&
		       (sem_autocast_undecided_cond(cond->a) || sem_autocast_undecided_cond(cond->b));
	default:
		return false;
	}
}

bool sem_autocast_decided(const struct expr *e)
{
	return ptrindex_get(&decided, e) >= 0;
}

static bool same_type(const struct ctval *a, const struct ctval *b)
{
	return a->tc.ct.ops == b->tc.ct.ops && a->tc.ct.src == b->tc.ct.src &&
	       a->tc.type == b->tc.type && a->tc.object == b->tc.object && a->user == b->user;
}

static struct slot *slot_of(struct typing *T, const void *owner, bool make)
{
	int i = ptrindex_get(&T->index, owner);

	if (i >= 0)
		return &T->slots[i];
	if (!make)
		return NULL;
	T->slots = xrealloc(T->slots, (T->nslots + 1) * sizeof(*T->slots));
	memset(&T->slots[T->nslots], 0, sizeof(*T->slots));
	ptrindex_set(&T->index, owner, (int)T->nslots);
	return &T->slots[T->nslots++];
}

/* The type of what a resolved access path reads. */
static struct ctval of_access(const struct tvar *tv)
{
	struct ctval v = { 0 };

	if (tv && tv->type == SEM_LONG && tv->ctype.ct.ops) {
		v.tc = tv->ctype;
		v.user = tv->user;
	}
	return v;
}

static struct ctval typeof_expr(struct typing *T, const struct expr *e,
				const struct derived_probe *dp);

/* The walk of e (an E_AUTOCAST) from its operand's type; NULL with *err
 * when it does not resolve (err->msg NULL: the operand is untyped). */
static struct tvar *autocast_walk(struct typing *T, const struct expr *e,
				  const struct derived_probe *dp, struct family_error *err)
{
	struct ctval base = typeof_expr(T, e->a, dp);
	const struct ctypes *ct = &base.tc.ct;
	struct tvar *tv;
	enum ctype_kind k;

	if (!ct->ops)
		return NULL;
	if (!e->comps.n) {
		/* "& value": no member to take the address of (SystemTap's
		 * words, from its tracepoint variables) */
		err->pos = e->pos;
		err->msg = xstrdup("cannot take address of tracepoint variable");
		err->what = xstrdup("operator '&'");
		return NULL;
	}
	k = ctype_kind(ct, ctype_resolve(ct, base.tc.type));
	if (!base.tc.object && k != CTYPE_PTR) {
		/* an integer: SystemTap's words, its name left empty */
		const struct tcomp *first = e->comps.v[0];

		err->pos = first->pos;
		err->msg = xstrdup("autocast variable '' may not be used as a structure");
		err->what = xstrdup("operator '->'");
		return NULL;
	}
	tv = tvar_resolve_autocast(&base.tc, e, err);
	if (tv && base.user)
		tvar_set_user(tv);
	return tv;
}

/* The C type of e's value in probe dp (NULL: in a function), as far as
 * the typing has got. */
static struct ctval typeof_expr(struct typing *T, const struct expr *e,
				const struct derived_probe *dp)
{
	struct ctval none = { 0 }, a = { 0 }, b;
	const struct sem_ref *r;
	const struct slot *s;

	if (!e)
		return none;
	switch (e->kind) {
	case E_TARGET: {
		const struct sem_target *st = sem_target_of(dp, e);

		return st && !st->zeroed ? of_access(st->access) : none;
	}
	case E_CAST:
		return of_access(sem_cast_of(e)->access);
	case E_VAR:
		return of_access(sem_atvar_of(e)->access);
	case E_AUTOCAST: {
		const struct sem_cast *known = sem_cast_known(e);
		struct family_error err = { 0 };
		struct tvar *tv;

		if (known)
			return of_access(known->access);
		tv = autocast_walk(T, e, dp, &err);
		a = of_access(tv);
		tvar_free(tv);
		free(err.msg);
		free(err.what);
		return a;
	}
	case E_SYM:
		r = program_ref(T->E->P, e);
		if (!r || !r->var || r->var->param)
			return none;
		s = slot_of(T, r->var, false);
		return s && s->state == AC_TYPED ? s->val : none;
	case E_CALL:
		/* typed when every overload the call may run returns the type */
		r = program_ref(T->E->P, e);
		if (!r || !r->fn || !r->fn->n_group)
			return none;
		for (int i = 0; i < r->fn->n_group; i++) {
			s = slot_of(T, r->fn->group[i], false);
			if (!s || s->state != AC_TYPED || (i && !same_type(&s->val, &a)))
				return none;
			a = s->val;
		}
		return a;
	case E_ASSIGN:
		return e->op == TK_ASSIGN ? typeof_expr(T, e->b, dp) : none;
	case E_TERNARY:
		a = typeof_expr(T, e->b, dp);
		b = typeof_expr(T, e->c, dp);
		return a.tc.ct.ops && same_type(&a, &b) ? a : none;
	default:
		return none;
	}
}

/* One more typed source for an owner: the state only moves on, from
 * nothing to a type to disagreement, so the typing ends. */
static void merge(struct typing *T, const void *owner, const struct ctval *v)
{
	struct slot *s;

	if (!v->tc.ct.ops)
		return;		/* untyped (f = 0) says nothing */
	s = slot_of(T, owner, true);
	if (s->state == AC_NONE) {
		s->state = AC_TYPED;
		s->val = *v;
		T->changed = true;
	} else if (s->state == AC_TYPED && !same_type(&s->val, v)) {
		s->state = AC_CONFLICT;
		T->changed = true;
	}
}

static void add_source(struct typing *T, const void *owner, const struct expr *rhs)
{
	T->sources = xrealloc(T->sources, (T->nsources + 1) * sizeof(*T->sources));
	T->sources[T->nsources++] = (struct source){ owner, rhs, T->dp };
}

/* Assignments whose variable was bound (code ruled out by @defined was
 * not resolved, so its variables are not). */
static void collect_expr(void *ctx, const struct expr *e)
{
	struct typing *T = ctx;
	const struct sem_ref *r;

	if (e->kind != E_ASSIGN || e->op != TK_ASSIGN || e->a->kind != E_SYM)
		return;
	r = program_ref(T->E->P, e->a);
	if (r && r->var && !r->var->param)
		add_source(T, r->var, e->b);
}

static void collect_stmt(void *ctx, const struct stmt *s)
{
	struct typing *T = ctx;

	if (s->kind == S_RETURN && T->fn && s->e1)
		add_source(T, T->fn, s->e1);
}

static void collect(struct typing *T)
{
	struct ast_visitor v = { .ctx = T, .expr = collect_expr, .stmt = collect_stmt };

	for (size_t i = 0; i < T->E->P->probes.n; i++) {
		struct derived_probe *dp = T->E->P->probes.v[i];

		T->dp = dp;
		T->fn = NULL;
		ast_walk_stmt(dp->body, &v);
	}
	T->dp = NULL;
	for (size_t i = 0; i < T->E->fns.n; i++) {
		struct sem_function *f = T->E->fns.v[i];

		if (!f->resolved || !f->decl->body)
			continue;
		T->fn = f;
		T->dp = f->ctx_dp;
		ast_walk_stmt(f->decl->body, &v);
	}
	T->fn = NULL;
	T->dp = NULL;
}

/* The autocasts in code a decided @defined rules out. */
static struct ptrindex ruled_out;

static void rule_out(void *ctx, const struct expr *e)
{
	(void)ctx;
	if (e->kind == E_AUTOCAST)
		ptrindex_set(&ruled_out, e, 1);
}

static void rule_out_way(const struct guard *g, const void *way)
{
	struct ast_visitor v = { .expr = rule_out };

	if (!way)
		return;
	if (g->stmts)
		ast_walk_stmt(way, &v);
	else
		ast_walk_expr(way, &v);
}

/* Resolve one noted autocast into the @cast table, or report why not. */
static void decide(struct typing *T, const struct noted *n)
{
	struct family_error err = { 0 };
	struct tvar *tv;

	if (sem_cast_known(n->e))
		return;		/* a probe's copy noted twice */
	tv = autocast_walk(T, n->e, n->dp, &err);
	if (!tv && !err.msg) {
		const struct tcomp *first = n->e->comps.n ? n->e->comps.v[0] : NULL;

		err.pos = first ? first->pos : n->e->pos;
		err.msg = xstrdup("unknown type in dereference");
		err.what = xstrdup(first ? "operator '->'" : "operator '&'");
	}
	if (tv && n->written && !tvar_writable(tv)) {
		/* a struct, an array, a value in pieces */
		const struct tcomp *first = n->e->comps.v[0];

		err.pos = first->pos;
		err.msg = xstrdup("cannot write to this member: it is not an integer or pointer held in memory");
		err.what = xstrdup("operator '->'");
		tvar_free(tv);
		tv = NULL;
	}
	/* an error only if elision keeps the expression, as SystemTap's */
	if (!tv && !n->quiet && ptrindex_get(&ruled_out, n->e) < 0)
		sem_defer_error(T->E, n->e, &err.pos, err.what ? err.what : "operator '->'",
				err.msg);
	sem_cast_set_autocast(n->e, tv, &err);
	ptrindex_set(&decided, n->e, 1);
}

static bool any_user_global(const struct elab *E)
{
	for (size_t i = 0; i < E->globals.n; i++)
		if (!((const struct vardecl *)E->globals.v[i])->library)
			return true;
	return false;
}

/* The script's globals that the typing left C pointers. */
static void mark_pointers(struct typing *T)
{
	for (size_t i = 0; i < T->E->globals.n; i++) {
		struct vardecl *v = T->E->globals.v[i];
		const struct slot *s = v->library ? NULL : slot_of(T, v, false);
		const struct ctypes *ct;

		if (!s || s->state != AC_TYPED || s->val.tc.object)
			continue;
		ct = &s->val.tc.ct;
		v->holds_pointer = ctype_kind(ct, ctype_resolve(ct, s->val.tc.type)) == CTYPE_PTR;
	}
}

void sem_autocast_resolve(struct elab *E)
{
	struct typing T = { .E = E };

	if (!E->autocasts.n && !any_user_global(E))
		return;		/* nothing asks: no typing */
	collect(&T);
	do {
		T.changed = false;
		for (size_t i = 0; i < T.nsources; i++) {
			const struct source *s = &T.sources[i];
			struct ctval v = typeof_expr(&T, s->rhs, s->dp);

			merge(&T, s->owner, &v);
		}
	} while (T.changed);
	mark_pointers(&T);
	/* @defined's operands first: they decide the guards */
	for (size_t i = 0; i < E->autocasts.n; i++)
		if (((struct noted *)E->autocasts.v[i])->quiet)
			decide(&T, E->autocasts.v[i]);
	for (size_t i = 0; i < E->autocast_guards.n; i++) {
		const struct guard *g = E->autocast_guards.v[i];
		int known = sem_static_cond(g->dp, g->cond);

		if (known >= 0)
			rule_out_way(g, known ? g->no : g->yes);
	}
	for (size_t i = 0; i < E->autocasts.n; i++)
		decide(&T, E->autocasts.v[i]);
	ptrindex_free(&ruled_out);
	memset(&ruled_out, 0, sizeof(ruled_out));
	ptrindex_free(&T.index);
	free(T.slots);
	free(T.sources);
}

void sem_autocasts_forget(void)
{
	ptrindex_free(&decided);
	memset(&decided, 0, sizeof(decided));
}
