/* Pass 2: errors that wait for the first round of elision.
 *
 * SystemTap resolves @entry and target variables while it derives probes,
 * but an @entry outside a .return probe and a target variable the probe
 * cannot resolve become errors only if the expression is still there once
 * its optimiser has run: a function nobody calls, a side-effect-free
 * statement (`- @entry(get_cycles())`, `$x;`) and an assignment to a
 * local nobody reads (`a = $x`) go first, and their errors with them
 * (stap's semok/entry02 and optimize scripts).  With -u nothing goes, so
 * every such error is reported.
 *
 * Resolution therefore hands these errors here with their expression;
 * once elaborate.c has elided what it elides, the ones whose expression
 * is still reachable from a probe that runs, or from a function such a
 * probe calls, are reported.  An arm that a decided @defined rules out
 * (`if (@defined(p->counter)) ... else ...`, the ternary, && and ||) is
 * not reachable: pass 3 emits only the other, as SystemTap's folding
 * keeps only the other (its testsuite's cast.stp).
 */
#include "sem_defer.h"

#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "lookup.h"
#include "util.h"

struct deferred {
	const struct expr *e;
	struct srcpos pos;
	char *what;
	char *msg;
};

void sem_defer_error(struct elab *E, const struct expr *e, const struct srcpos *pos,
		     const char *what, const char *msg)
{
	struct deferred *d = xcalloc(1, sizeof(*d));

	d->e = e;
	d->pos = *pos;
	d->what = xstrdup(what);
	d->msg = xstrdup(msg);
	vec_push(&E->deferred, d);
}

struct live_walk {
	const struct program *P;
	const struct derived_probe *dp;	/* NULL in a function */
	struct ptrindex *live;	/* expression -> 1: still run */
	struct ptrindex *dead;	/* expression -> 1: under a dropped assignment */
};

static void mark_dead(void *ctx, const struct expr *e)
{
	ptrindex_set(ctx, e, 1);
}

static void mark_live(struct live_walk *W, const struct expr *e)
{
	struct ast_visitor dead = { .ctx = W->dead, .expr = mark_dead };

	ptrindex_set(W->live, e, 1);
	/* pass 3 emits nothing of an assignment to an elided local */
	if (program_dropped_assign(W->P, e))
		ast_walk_expr(e->b, &dead);
}

static void live_stmt(struct live_walk *W, const struct stmt *s);

/* The operands pass 3 emits: a decided @defined leaves one arm of a
 * ternary, and the right side of && or || only when the left does not
 * decide (translate_expr.c asks sem_static_cond the same). */
static void live_expr(struct live_walk *W, const struct expr *e)
{
	int known;

	if (!e)
		return;
	mark_live(W, e);
	known = e->kind == E_TERNARY || (e->kind == E_BINARY &&
					 (e->op == TK_ANDAND || e->op == TK_OROR))
		? sem_static_cond(W->dp, e->a) : -1;
	live_expr(W, e->a);
	if (e->kind == E_TERNARY && known >= 0) {
		live_expr(W, known ? e->b : e->c);
		return;
	}
	if (e->kind == E_BINARY && known >= 0 && known == (e->op == TK_OROR))
		return;
	live_expr(W, e->b);
	live_expr(W, e->c);
	for (size_t i = 0; i < e->args.n; i++)
		live_expr(W, e->args.v[i]);
	for (size_t i = 0; i < e->comps.n; i++)
		live_expr(W, ((const struct tcomp *)e->comps.v[i])->index);
}

static void live_stmt(struct live_walk *W, const struct stmt *s)
{
	int known = -1;

	if (!s)
		return;
	if (s->kind == S_IF)
		known = sem_static_cond(W->dp, s->e1);
	if (s->kind == S_FOREACH) {
		live_expr(W, s->base);
		for (size_t i = 0; i < s->slice.n; i++)
			live_expr(W, s->slice.v[i]);
		live_expr(W, s->limit);
	}
	live_expr(W, s->e1);
	live_expr(W, s->e2);
	live_expr(W, s->e3);
	for (size_t i = 0; i < s->stmts.n; i++)
		live_stmt(W, s->stmts.v[i]);
	if (known != 0)
		live_stmt(W, s->body);
	if (known != 1)
		live_stmt(W, s->els);
}

static void deferred_free(struct deferred *d)
{
	free(d->what);
	free(d->msg);
	free(d);
}

void sem_drop_deferred(struct elab *E)
{
	for (size_t i = 0; i < E->deferred.n; i++)
		deferred_free(E->deferred.v[i]);
	vec_free(&E->deferred);
}

/* The kind of a deferred error, for SystemTap's "similar error"
 * counting, which tells errors apart by the check that raised them, not
 * by what they name: the message up to its first name, number or detail
 * ("unable to find local", "not accessible at this address"); malloc'd,
 * NULL when the message starts with one (each is then a kind of its own). */
static char *deferred_kind(const char *msg)
{
	size_t n = strcspn(msg, "'\"(:,[0123456789\n");

	while (n > 0 && msg[n - 1] == ' ')
		n--;
	return n ? xstrndup(msg, n) : NULL;
}

void sem_report_deferred(struct elab *E)
{
	struct program *P = E->P;
	struct ptrindex live = { 0 }, dead = { 0 };
	struct live_walk W = { .P = P, .live = &live, .dead = &dead };

	if (!E->deferred.n)
		return;
	for (size_t i = 0; i < P->probes.n; i++) {
		W.dp = P->probes.v[i];
		live_expr(&W, W.dp->cond);
		live_stmt(&W, W.dp->body);
	}
	W.dp = NULL;
	for (size_t i = 0; i < P->functions.n; i++)
		live_stmt(&W, ((const struct sem_function *)P->functions.v[i])->decl->body);
	for (size_t i = 0; i < E->deferred.n; i++) {
		struct deferred *d = E->deferred.v[i];

		if (ptrindex_get(&live, d->e) > 0 && ptrindex_get(&dead, d->e) < 0) {
			char *kind = deferred_kind(d->msg);

			sem_error_kind(E, &d->pos, d->what, kind, d->msg);
			free(kind);
		}
	}
	sem_drop_deferred(E);
	ptrindex_free(&live);
	ptrindex_free(&dead);
}
