/* Read-only tree walk (see astwalk.h). */
#include "astwalk.h"

void ast_walk_expr(const struct expr *e, const struct ast_visitor *v)
{
	if (!e)
		return;
	if (v->expr)
		v->expr(v->ctx, e);
	ast_walk_expr(e->a, v);
	ast_walk_expr(e->b, v);
	ast_walk_expr(e->c, v);
	for (size_t i = 0; i < e->args.n; i++)
		ast_walk_expr(e->args.v[i], v);
	/* $var[i] and @cast(...)[i]: the index is an expression too */
	for (size_t i = 0; i < e->comps.n; i++)
		ast_walk_expr(((const struct tcomp *)e->comps.v[i])->index, v);
}

static void walk_foreach(const struct stmt *s, const struct ast_visitor *v)
{
	ast_walk_expr(s->base, v);
	for (size_t i = 0; i < s->slice.n; i++)
		ast_walk_expr(s->slice.v[i], v);
	ast_walk_expr(s->limit, v);
	if (v->foreach_body)
		v->foreach_body(v->ctx, s, true);
	ast_walk_stmt(s->body, v);
	if (v->foreach_body)
		v->foreach_body(v->ctx, s, false);
}

void ast_walk_stmt(const struct stmt *s, const struct ast_visitor *v)
{
	if (!s)
		return;
	if (v->stmt)
		v->stmt(v->ctx, s);
	if (s->kind == S_FOREACH) {
		walk_foreach(s, v);
		return;
	}
	ast_walk_expr(s->e1, v);
	ast_walk_expr(s->e2, v);
	ast_walk_expr(s->e3, v);
	for (size_t i = 0; i < s->stmts.n; i++)
		ast_walk_stmt(s->stmts.v[i], v);
	ast_walk_stmt(s->body, v);
	ast_walk_stmt(s->els, v);
}
