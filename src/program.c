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
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		vec_free(&m->vals[i]->c_reads);
		vec_free(&m->vals[i]->c_writes);
		free(m->vals[i]);
	}
	free(m->keys);
	free(m->vals);
}

const struct sem_ref *program_ref(const struct program *p, const void *node)
{
	return ptrmap_get(&p->refs, node);
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
	if (dp->list_wellformed)
		return xstrdup(dp->wellformed);
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

void sem_body_free(struct sem_body *b)
{
	vec_free(&b->reads);
	vec_free(&b->updates);
	vec_free(&b->writes);
	vec_free(&b->aggs);
	vec_free(&b->calls);
}

/* Whether dp is the twin of prev that SystemTap's one probe stands for
 * (probe_family.one_probe_per_alias): the same user's probe through the
 * same aliases, printed alike. */
bool derived_probe_twins(const struct derived_probe *prev, const struct derived_probe *dp)
{
	if (prev->family != dp->family || !dp->family->one_probe_per_alias)
		return false;
	if (prev->origin != dp->origin || prev->chain.n != dp->chain.n)
		return false;
	for (size_t i = 0; i < dp->chain.n; i++)
		if (strcmp(prev->chain.v[i], dp->chain.v[i]))
			return false;
	char *a = pp_resolved_text(prev->loc), *b = pp_resolved_text(dp->loc);
	bool same = !strcmp(a, b);

	free(a);
	free(b);
	return same;
}

static void derived_probe_free(struct derived_probe *dp)
{
	probe_point_free(dp->loc);
	free(dp->list_name);
	free(dp->wellformed);
	free(dp->fp.target);
	free(dp->fp.module);
	free(dp->fp.label);
	free(dp->fp.callee);
	callee_callers_free(dp->fp.callers);
	family_free_data(dp->family, dp->fp.data);
	vec_free(&dp->entry_exprs);
	vec_free(&dp->chain);
	if (!dp->body_owner)
		stmt_free(dp->body);
	expr_free(dp->cond);
	vec_free(&dp->locals);
	sem_body_free(&dp->uses);
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
	for (size_t i = 0; i < p->elided_stmts.n; i++)
		stmt_free(p->elided_stmts.v[i]);
	vec_free(&p->elided_stmts);
	for (size_t i = 0; i < p->all_fns.n; i++) {
		struct sem_function *f = p->all_fns.v[i];

		if (f->own_decl) {
			stmt_free(f->own_decl->body);
			free(f->own_decl);
			free(f->own_name);
		}
		free(f->params);
		vec_free(&f->locals);
		sem_body_free(&f->uses);
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
