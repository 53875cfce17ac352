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

/* The copies made for one probe, and its number in their names. */
struct ctx_probe {
	size_t no;
	struct vec clones;	/* struct sem_function * */
};

/* One probe's record, made at its first copy: a probe has few copies,
 * and kernel.function("*") has 300,000 probes, so the lookup is by
 * probe. */
static struct ctx_probe *probe_record(struct elab *E, const struct derived_probe *dp)
{
	int i = ptrindex_get(&E->ctx_index, dp);
	struct ctx_probe *p;

	if (i >= 0)
		return E->ctx_probes.v[i];
	p = xcalloc(1, sizeof(*p));
	p->no = E->ctx_probes.n;
	ptrindex_set(&E->ctx_index, dp, (int)E->ctx_probes.n);
	vec_push(&E->ctx_probes, p);
	return p;
}

struct sem_function *ctxfn_clone(struct elab *E, struct sem_function *f,
				 const struct derived_probe *dp)
{
	struct ctx_probe *p = probe_record(E, dp);
	struct sem_function *c;
	struct function *decl;

	for (size_t i = 0; i < p->clones.n; i++) {
		c = p->clones.v[i];
		/* order is unique to the function copied */
		if (c->order == f->order)
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
	/* after SystemTap's "__clone_probe_N_of_NAME" in -p2 listings */
	c->own_name = xasprintf("__clone_probe_%zu_of_%s", p->no, f->name);
	c->name = c->own_name;
	sem_function_params(E, c);
	vec_push(&p->clones, c);
	vec_push(&E->fns, c);
	vec_push(&E->P->all_fns, c);
	return c;
}

void ctxfn_free(struct elab *E)
{
	for (size_t i = 0; i < E->ctx_probes.n; i++) {
		struct ctx_probe *p = E->ctx_probes.v[i];

		vec_free(&p->clones);
		free(p);
	}
	vec_free(&E->ctx_probes);
	ptrindex_free(&E->ctx_index);
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

	/* most scripts have none: no walk of every shared body then */
	if (!E->any_ctx_sensitive)
		return false;
	ast_walk_stmt(body, &v);
	return cl.found;
}
