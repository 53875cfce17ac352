/* Context-sensitive functions: see ctxfn.h. */
#include "ctxfn.h"

#include <stdlib.h>
#include <string.h>

#include "astwalk.h"
#include "elab_int.h"

static void find_target(void *ctx, const struct expr *e)
{
	if (e->kind == E_TARGET)
		*(bool *)ctx = true;
}

bool ctxfn_sensitive(const struct function *f)
{
	bool found = false;
	struct ast_visitor v = { .ctx = &found, .expr = find_target };

	ast_walk_stmt(f->body, &v);
	return found;
}

/* A clone's name in -p2 listings, after SystemTap's
 * "__clone_probe_N_of_NAME": N the probe's index. */
static char *clone_name(struct elab *E, const struct sem_function *f,
			const struct derived_probe *dp)
{
	size_t n = 0;

	while (n < E->P->probes.n && E->P->probes.v[n] != dp)
		n++;
	return xasprintf("__clone_probe_%zu_of_%s", n, f->name);
}

struct sem_function *ctxfn_clone(struct elab *E, struct sem_function *f,
				 const struct derived_probe *dp)
{
	struct sem_function *c;
	struct function *decl;

	for (size_t i = 0; i < E->ctx_clones.n; i++) {
		c = E->ctx_clones.v[i];
		/* order is unique to the function copied */
		if (c->ctx_dp == dp && c->order == f->order)
			return c;
	}
	c = xmalloc(sizeof(*c));
	*c = (struct sem_function){
		.file = f->file, .library = f->library, .order = f->order,
		.type = f->type, .type_pos = f->type_pos, .type_declared = f->type_declared,
		.ctx_sensitive = true, .ctx_dp = dp,
	};
	decl = xmalloc(sizeof(*decl));
	*decl = *f->decl;
	decl->body = stmt_dup(f->decl->body);
	c->own_decl = decl;
	c->decl = decl;
	c->own_name = clone_name(E, f, dp);
	c->name = c->own_name;
	sem_function_params(E, c);
	vec_push(&E->ctx_clones, c);
	vec_push(&E->fns, c);
	vec_push(&E->P->all_fns, c);
	return c;
}

struct called {
	struct elab *E;
	bool found;
};

static void find_call(void *ctx, const struct expr *e)
{
	struct called *cl = ctx;
	const struct vec *named;

	if (e->kind != E_CALL || cl->found || !(named = namemap_get(&cl->E->fn_names, e->name)))
		return;
	for (size_t i = 0; i < named->n; i++)
		if (((const struct sem_function *)named->v[i])->ctx_sensitive)
			cl->found = true;
}

bool ctxfn_called(struct elab *E, const struct stmt *body)
{
	struct called cl = { .E = E };
	struct ast_visitor v = { .ctx = &cl, .expr = find_call };

	ast_walk_stmt(body, &v);
	return cl.found;
}
