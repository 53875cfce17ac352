/* Target expressions resolved once per derived probe (see sem_target.h). */
#include "sem_target.h"

#include <stdlib.h>

#include "astwalk.h"
#include "probes/family.h"
#include "util.h"

struct resolve_ctx {
	struct derived_probe *dp;
	bool skip_bad;
};

/* --skip-badvars: st, which did not resolve, reads as the number 0. */
static void zero_target(struct sem_target *st)
{
	st->type = SEM_LONG;
	st->access = tvar_new(TVAR_BASE_CONST, 0, st->e->name, &st->e->pos);
	st->access->leaf = TVAR_VALUE;
	st->access->type = SEM_LONG;
	st->zeroed = true;
}

static void resolve_one(void *ctx, const struct expr *e)
{
	struct resolve_ctx *rc = ctx;
	struct derived_probe *dp = rc->dp;
	struct sem_targets *t;
	struct sem_target *st;

	if (e->kind != E_TARGET)
		return;
	/* allocated at the first: kernel.function("*") has 300,000 probes,
	 * most often without target expressions */
	if (!dp->targets)
		dp->targets = xcalloc(1, sizeof(*dp->targets));
	t = dp->targets;
	if (ptrindex_get(&t->index, e) >= 0)
		return;
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	st = &t->v[t->n];
	*st = (struct sem_target){ .e = e };
	if (dp->family->target_type)
		st->type = dp->family->target_type(dp, e, false, &st->err, &st->access);
	else
		st->type = SEM_UNKNOWN;
	if (st->type == SEM_UNKNOWN) {
		tvar_free(st->access);
		st->access = NULL;
		if (rc->skip_bad)
			zero_target(st);
	}
	ptrindex_set(&t->index, e, (int)t->n);
	t->n++;
}

void sem_targets_resolve_in(struct derived_probe *dp, const struct stmt *body, bool skip_bad)
{
	struct resolve_ctx rc = { .dp = dp, .skip_bad = skip_bad };
	struct ast_visitor v = { .ctx = &rc, .expr = resolve_one };

	if (dp->family && (dp->family->target_type || skip_bad))
		ast_walk_stmt(body, &v);
}

void sem_targets_resolve(struct derived_probe *dp, bool skip_bad)
{
	struct resolve_ctx rc = { .dp = dp, .skip_bad = skip_bad };
	struct ast_visitor v = { .ctx = &rc, .expr = resolve_one };

	if (dp->targets_resolved || !dp->family ||
	    (!dp->family->target_type && !skip_bad))
		return;
	dp->targets_resolved = true;
	sem_targets_resolve_in(dp, dp->body, skip_bad);
	ast_walk_expr(dp->cond, &v);
}

const struct sem_target *sem_target_of(const struct derived_probe *dp, const struct expr *e)
{
	int i = dp && dp->targets ? ptrindex_get(&dp->targets->index, e) : -1;

	return i < 0 ? NULL : &dp->targets->v[i];
}

enum sem_type sem_target_check(const struct derived_probe *dp, const struct expr *e,
			       bool write, struct family_error *err)
{
	const struct sem_target *st;

	if (write) {
		struct tvar *access = NULL;
		enum sem_type t;

		if (!dp->family->target_type)
			return SEM_UNKNOWN;
		t = dp->family->target_type(dp, e, true, err, &access);

		tvar_free(access);
		return t;
	}
	st = sem_target_of(dp, e);
	if (!st)
		return SEM_UNKNOWN;
	if (st->type == SEM_UNKNOWN) {
		err->pos = st->err.pos;
		err->msg = st->err.msg ? xstrdup(st->err.msg) : NULL;
		err->what = st->err.what ? xstrdup(st->err.what) : NULL;
	}
	return st->type;
}

void sem_targets_free(struct sem_targets *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].err.msg);
		free(t->v[i].err.what);
		tvar_free(t->v[i].access);
	}
	free(t->v);
	ptrindex_free(&t->index);
	free(t);
}
