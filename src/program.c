/* Pass 2's result as pass 3 reads it: the resolutions of expressions by
 * node, the globals -G may name, and freeing it all (see elaborate.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callee.h"
#include "elab_int.h"
#include "pptext.h"
#include "probes/family.h"
#include "sem_atvar.h"
#include "sem_autocast.h"
#include "sem_cast.h"
#include "sem_target.h"

/* ---- pointer map --------------------------------------------------- */

static size_t ptr_hash(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

struct sem_ref *ptrmap_get(const struct ptrmap *m, const void *k)
{
	if (!m->cap)
		return NULL;
	for (size_t i = ptr_hash(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->keys[i])
			return NULL;
		if (m->keys[i] == k)
			return m->vals[i];
	}
}

struct sem_ref *ptrmap_ref(struct ptrmap *m, const void *k)
{
	struct sem_ref *r = ptrmap_get(m, k);
	size_t i;

	if (r)
		return r;
	if ((m->n + 1) * 2 > m->cap) {
		struct ptrmap old = *m;

		m->cap = m->cap ? m->cap * 2 : 256;
		m->keys = xcalloc(m->cap, sizeof(*m->keys));
		m->vals = xcalloc(m->cap, sizeof(*m->vals));
		m->n = 0;
		for (size_t j = 0; j < old.cap; j++) {
			if (!old.keys[j])
				continue;
			i = ptr_hash(old.keys[j], m->cap);
			while (m->keys[i])
				i = (i + 1) & (m->cap - 1);
			m->keys[i] = old.keys[j];
			m->vals[i] = old.vals[j];
			m->n++;
		}
		free(old.keys);
		free(old.vals);
	}
	i = ptr_hash(k, m->cap);
	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	r = xcalloc(1, sizeof(*r));
	m->keys[i] = k;
	m->vals[i] = r;
	m->n++;
	return r;
}

static void ptrmap_free(struct ptrmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->vals[i]);
	free(m->keys);
	free(m->vals);
}

const struct sem_ref *program_ref(const struct program *p, const void *node)
{
	return ptrmap_get(&p->refs, node);
}

static bool pure_expr(const struct program *p, const struct expr *e, int depth);

/* A function body that only computes its value: returns of pure values,
 * chosen by ifs on pure tests, and pure values kept in its own locals
 * (SystemTap follows calls into their bodies alike). */
static bool pure_body(const struct program *p, const struct stmt *s, int depth)
{
	const struct sem_ref *r;

	if (!s)
		return true;
	switch (s->kind) {
	case S_NULL:
		return true;
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			if (!pure_body(p, s->stmts.v[i], depth))
				return false;
		return true;
	case S_IF:
		return pure_expr(p, s->e1, depth) && pure_body(p, s->body, depth) &&
		       pure_body(p, s->els, depth);
	case S_RETURN:
		return pure_expr(p, s->e1, depth);
	case S_EXPR:
		if (s->e1->kind != E_ASSIGN || s->e1->op != TK_ASSIGN ||
		    s->e1->a->kind != E_SYM)
			return false;
		r = program_ref(p, s->e1->a);
		return r && r->var && !r->var->global && pure_expr(p, s->e1->b, depth);
	default:
		return false;
	}
}

/* A script function that only computes a value, such as task_current()'s
 * "return &@task(...)" or a chain of "if (which == 0) return ...". */
static bool pure_wrapper(const struct program *p, const struct sem_function *f, int depth)
{
	const struct stmt *s = f->decl->body;

	if (!s || f->n_group > 1 || depth > 8)
		return false;
	return pure_body(p, s, depth + 1);
}

/* The array indexes of $x[i]->a, @cast(...)[i], @var(...)[i]... */
static bool pure_comps(const struct program *p, const struct expr *e, int depth)
{
	for (size_t i = 0; i < e->comps.n; i++) {
		const struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_INDEX && !pure_expr(p, c->index, depth))
			return false;
	}
	return true;
}

static bool pure_expr(const struct program *p, const struct expr *e, int depth)
{
	const struct sem_ref *r;

	if (!e)
		return true;
	switch (e->kind) {
	case E_NUM: case E_STR: case E_SYM:
	case E_DEFINED:		/* settled in pass 2, nothing runs */
		return true;
	case E_EMBEDDED:
		return embedded_pragmas(e->str) & PRAGMA_PURE;
	case E_TARGET: case E_VAR: case E_CAST: case E_AUTOCAST:
		/* a read of kernel or user memory, as SystemTap's pure
		 * accessor functions for them: `x = @cast(p, "T")->f` with
		 * x unused goes, and a function returning it is pure */
		return pure_expr(p, e->a, depth) && pure_comps(p, e, depth);
	case E_BINARY:
		if (e->op == TK_MATCH || e->op == TK_NMATCH)
			return false;	/* sets what matched() returns */
		/* fall through */
	case E_UNARY: case E_TERNARY:
		return pure_expr(p, e->a, depth) && pure_expr(p, e->b, depth) &&
		       pure_expr(p, e->c, depth);
	case E_PRINT:
		if (!(e->op & PF_STRING) || e->a)
			return false;
		break;
	case E_CALL:
		r = program_ref(p, e);
		if (!r || !r->fn)
			return false;
		if (!r->fn->decl->embedded) {
			if (!pure_wrapper(p, r->fn, depth))
				return false;
		} else if (!(r->fn->decl->pragmas & PRAGMA_PURE)) {
			return false;
		}
		break;
	default:
		return false;
	}
	for (size_t i = 0; i < e->args.n; i++)
		if (!pure_expr(p, e->args.v[i], depth))
			return false;
	return true;
}

bool program_pure_expr(const struct program *p, const struct expr *e)
{
	return pure_expr(p, e, 0);
}

bool program_dropped_assign(const struct program *p, const struct expr *e)
{
	const struct sem_ref *r;

	if (!e || e->kind != E_ASSIGN || e->op == TK_AGG || e->a->kind != E_SYM)
		return false;
	r = program_ref(p, e->a);
	return r && r->var && !r->var->global && r->var->elided &&
	       program_pure_expr(p, e->b);
}

char *derivation_text(const struct derived_probe *dp, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < dp->chain.n; i++)
		strbuf_addf(&sb, "%s%s", i ? sep : "", (const char *)dp->chain.v[i]);
	return strbuf_detach(&sb);
}

const char *program_text(struct program *p, const char *text)
{
	const struct vec *have = namemap_get(&p->texts, text);
	char *copy;

	if (have)
		return have->v[0];
	copy = xstrdup(text);
	namemap_add(&p->texts, copy, copy);
	vec_push(&p->all_texts, copy);
	return copy;
}

char *derived_list_name(const struct derived_probe *dp)
{
	struct strbuf sb = STRBUF_INIT;

	if (dp->list_name)
		return xstrdup(dp->list_name);
	pp_comps_text(&sb, dp->loc, 0, dp->loc->comps.n);
	return strbuf_detach(&sb);
}

const struct vardecl *program_global(const struct program *p, const char *name)
{
	for (size_t i = 0; i < p->all_vars.n; i++) {
		const struct vardecl *v = p->all_vars.v[i];

		if (v->global && (v->listed || !v->library) && !strcmp(v->name, name))
			return v;
	}
	return NULL;
}

static void body_free(struct sem_body *b)
{
	vec_free(&b->reads);
	vec_free(&b->writes);
	vec_free(&b->aggs);
	vec_free(&b->calls);
}

static void derived_probe_free(struct derived_probe *dp)
{
	probe_point_free(dp->loc);
	free(dp->list_name);
	free(dp->fp.target);
	free(dp->fp.module);
	free(dp->fp.label);
	free(dp->fp.callee);
	callee_callers_free(dp->fp.callers);
	family_free_data(dp->family, dp->fp.data);
	vec_free(&dp->entry_exprs);
	vec_free(&dp->chain);
	stmt_free(dp->body);
	expr_free(dp->cond);
	vec_free(&dp->locals);
	body_free(&dp->uses);
	sem_targets_free(dp->targets);
	free(dp);
}

void program_free(struct program *p)
{
	if (!p)
		return;
	sem_casts_free();
	sem_autocasts_forget();
	sem_atvars_free();
	for (size_t i = 0; i < p->probes.n; i++)
		derived_probe_free(p->probes.v[i]);
	for (size_t i = 0; i < p->elided.n; i++)
		derived_probe_free(p->elided.v[i]);
	for (size_t i = 0; i < p->elided_exprs.n; i++)
		expr_free(p->elided_exprs.v[i]);
	vec_free(&p->elided_exprs);
	for (size_t i = 0; i < p->all_fns.n; i++) {
		struct sem_function *f = p->all_fns.v[i];

		free(f->params);
		vec_free(&f->locals);
		body_free(&f->uses);
		if (f->group && f->group[0] == f)
			free(f->group);
		free(f);
	}
	for (size_t i = 0; i < p->all_vars.n; i++) {
		struct vardecl *v = p->all_vars.v[i];

		free(v->name);
		free(v->index_types);
		free(v->index_pos);
		free(v);
	}
	vec_free(&p->probes);
	vec_free(&p->elided);
	vec_free(&p->functions);
	vec_free(&p->globals);
	vec_free(&p->embeds);
	vec_free(&p->all_fns);
	vec_free(&p->all_vars);
	ptrmap_free(&p->refs);
	namemap_free(&p->texts);
	for (size_t i = 0; i < p->all_texts.n; i++)
		free(p->all_texts.v[i]);
	vec_free(&p->all_texts);
	free(p);
}
