/* @probewrite(v): see probewrite.h. */
#include "probewrite.h"

#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "util.h"

struct writes {
	const char *name;	/* the variable asked about */
	bool written;
};

/* The variable an lvalue names: v, or the array of v[...]. */
static const char *written_name(const struct expr *lv)
{
	if (lv && lv->kind == E_INDEX)
		lv = lv->a;
	return lv && lv->kind == E_SYM ? lv->name : NULL;
}

static void note(struct writes *w, const char *name)
{
	if (name && !strcmp(name, w->name))
		w->written = true;
}

static void writes_expr(void *ctx, const struct expr *e)
{
	if (e->kind == E_ASSIGN || e->kind == E_PREINC || e->kind == E_POSTINC)
		note(ctx, written_name(e->a));
}

static void writes_stmt(void *ctx, const struct stmt *s)
{
	if (s->kind == S_DELETE)
		note(ctx, written_name(s->e1));
	if (s->kind == S_FOREACH) {
		if (s->value)
			note(ctx, s->value->name);
		for (size_t i = 0; i < s->keys.n; i++)
			note(ctx, ((const struct foreach_key *)s->keys.v[i])->name);
	}
}

static bool writes(const struct stmt *body, const char *name)
{
	struct writes w = { .name = name };
	struct ast_visitor v = { .ctx = &w, .expr = writes_expr, .stmt = writes_stmt };

	ast_walk_stmt(body, &v);
	return w.written;
}

static bool is_probewrite(const struct expr *e)
{
	return e->kind == E_ATOP && !strcmp(e->name, "@probewrite") && e->args.n == 1;
}

static void collect_expr(void *ctx, const struct expr *e)
{
	if (is_probewrite(e))
		vec_push(ctx, (void *)e);
}

void probewrite_fold(struct stmt *part, const struct stmt *body)
{
	struct vec found = { 0 };
	struct ast_visitor v = { .ctx = &found, .expr = collect_expr };

	ast_walk_stmt(part, &v);
	/* the nodes are part's own (the caller's copy), so they may change:
	 * each becomes the number, at the operator's place */
	for (size_t i = 0; i < found.n; i++) {
		struct expr *e = found.v[i];
		struct expr *var = e->args.v[0];
		bool w = writes(body, var->name);

		expr_free(var);
		e->args.n = 0;
		free(e->name);
		e->name = NULL;
		e->kind = E_NUM;
		e->num = w;
	}
	vec_free(&found);
}
