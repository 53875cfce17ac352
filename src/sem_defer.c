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
 * probe calls, are reported.
 */
#include "sem_defer.h"

#include <stdlib.h>

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
	struct ptrindex *live;	/* expression -> 1: still run */
	struct ptrindex *dead;	/* expression -> 1: under a dropped assignment */
};

static void mark_dead(void *ctx, const struct expr *e)
{
	ptrindex_set(ctx, e, 1);
}

static void mark_live(void *ctx, const struct expr *e)
{
	struct live_walk *W = ctx;
	struct ast_visitor dead = { .ctx = W->dead, .expr = mark_dead };

	ptrindex_set(W->live, e, 1);
	/* pass 3 emits nothing of an assignment to an elided local */
	if (program_dropped_assign(W->P, e))
		ast_walk_expr(e->b, &dead);
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

void sem_report_deferred(struct elab *E)
{
	struct program *P = E->P;
	struct ptrindex live = { 0 }, dead = { 0 };
	struct live_walk W = { .P = P, .live = &live, .dead = &dead };
	struct ast_visitor v = { .ctx = &W, .expr = mark_live };

	if (!E->deferred.n)
		return;
	for (size_t i = 0; i < P->probes.n; i++) {
		const struct derived_probe *dp = P->probes.v[i];

		ast_walk_expr(dp->cond, &v);
		ast_walk_stmt(dp->body, &v);
	}
	for (size_t i = 0; i < P->functions.n; i++)
		ast_walk_stmt(((const struct sem_function *)P->functions.v[i])->decl->body, &v);
	for (size_t i = 0; i < E->deferred.n; i++) {
		struct deferred *d = E->deferred.v[i];

		if (ptrindex_get(&live, d->e) > 0 && ptrindex_get(&dead, d->e) < 0)
			sem_error(E, &d->pos, d->what, "%s", d->msg);
	}
	sem_drop_deferred(E);
	ptrindex_free(&live);
	ptrindex_free(&dead);
}
