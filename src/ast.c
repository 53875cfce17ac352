/* Syntax tree constructors, copies and destructors. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct expr *expr_new(enum expr_kind kind, const struct srcpos *pos)
{
	struct expr *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	if (pos)
		e->pos = *pos;
	return e;
}

struct stmt *stmt_new(enum stmt_kind kind, const struct srcpos *pos)
{
	struct stmt *s = xcalloc(1, sizeof(*s));

	s->kind = kind;
	if (pos)
		s->pos = *pos;
	return s;
}

struct tcomp *tcomp_new(enum tcomp_kind kind, const struct srcpos *pos)
{
	struct tcomp *c = xcalloc(1, sizeof(*c));

	c->kind = kind;
	if (pos)
		c->pos = *pos;
	return c;
}

struct pp_comp *pp_comp_new(char *name, struct expr *arg,
			    const struct srcpos *pos)
{
	struct pp_comp *c = xcalloc(1, sizeof(*c));

	c->name = name;
	c->arg = arg;
	if (pos)
		c->pos = *pos;
	return c;
}

struct probe_point *probe_point_new(const struct srcpos *pos)
{
	struct probe_point *pp = xcalloc(1, sizeof(*pp));

	if (pos)
		pp->pos = *pos;
	return pp;
}

struct script *script_new(const struct srcfile *f)
{
	struct script *s = xcalloc(1, sizeof(*s));

	s->file = f;
	return s;
}

static char *dup_bytes(const char *p, size_t n)
{
	char *r;

	if (!p)
		return NULL;
	r = xmalloc(n + 1);
	memcpy(r, p, n);
	r[n] = '\0';
	return r;
}

static struct tcomp *tcomp_dup(const struct tcomp *c)
{
	struct tcomp *r = tcomp_new(c->kind, &c->pos);

	r->name = c->name ? xstrdup(c->name) : NULL;
	r->index = expr_dup(c->index);
	return r;
}

struct expr *expr_dup(const struct expr *e)
{
	struct expr *r;

	if (!e)
		return NULL;
	r = xmalloc(sizeof(*r));
	*r = *e;
	r->name = e->name ? xstrdup(e->name) : NULL;
	r->str = dup_bytes(e->str, e->len);
	r->module = e->module ? xstrdup(e->module) : NULL;
	r->a = expr_dup(e->a);
	r->b = expr_dup(e->b);
	r->c = expr_dup(e->c);
	memset(&r->args, 0, sizeof(r->args));
	memset(&r->comps, 0, sizeof(r->comps));
	for (size_t i = 0; i < e->args.n; i++)
		vec_push(&r->args, expr_dup(e->args.v[i]));
	for (size_t i = 0; i < e->comps.n; i++)
		vec_push(&r->comps, tcomp_dup(e->comps.v[i]));
	return r;
}

struct pp_comp *pp_comp_dup(const struct pp_comp *c)
{
	return pp_comp_new(xstrdup(c->name), expr_dup(c->arg), &c->pos);
}

struct probe_point *probe_point_dup(const struct probe_point *pp)
{
	struct probe_point *r = probe_point_new(&pp->pos);

	for (size_t i = 0; i < pp->comps.n; i++)
		vec_push(&r->comps, pp_comp_dup(pp->comps.v[i]));
	r->optional = pp->optional;
	r->optional_inherited = pp->optional_inherited;
	r->sufficient = pp->sufficient;
	r->cond = expr_dup(pp->cond);
	return r;
}

void tcomp_free(struct tcomp *c)
{
	if (!c)
		return;
	free(c->name);
	expr_free(c->index);
	free(c);
}

/* The nodes still to be freed.  A worklist instead of recursion: the
 * parser builds trees deeper than any stack before it refuses them. */
struct doomed {
	struct vec exprs;	/* struct expr * */
	struct vec stmts;	/* struct stmt * */
};

static void doom_expr(struct doomed *d, struct expr *e)
{
	if (e)
		vec_push(&d->exprs, e);
}

static void doom_stmt(struct doomed *d, struct stmt *s)
{
	if (s)
		vec_push(&d->stmts, s);
}

static void free_expr_node(struct doomed *d, struct expr *e)
{
	free(e->name);
	free(e->str);
	free(e->module);
	doom_expr(d, e->a);
	doom_expr(d, e->b);
	doom_expr(d, e->c);
	for (size_t i = 0; i < e->args.n; i++)
		doom_expr(d, e->args.v[i]);
	vec_free(&e->args);
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		doom_expr(d, c->index);
		free(c->name);
		free(c);
	}
	vec_free(&e->comps);
	free(e);
}

static void foreach_key_free(struct foreach_key *k)
{
	if (!k)
		return;
	free(k->name);
	free(k);
}

static void free_stmt_node(struct doomed *d, struct stmt *s)
{
	doom_expr(d, s->e1);
	doom_expr(d, s->e2);
	doom_expr(d, s->e3);
	doom_stmt(d, s->body);
	doom_stmt(d, s->els);
	for (size_t i = 0; i < s->stmts.n; i++)
		doom_stmt(d, s->stmts.v[i]);
	vec_free(&s->stmts);
	free(s->name);
	foreach_key_free(s->value);
	for (size_t i = 0; i < s->keys.n; i++)
		foreach_key_free(s->keys.v[i]);
	vec_free(&s->keys);
	doom_expr(d, s->base);
	for (size_t i = 0; i < s->slice.n; i++)
		doom_expr(d, s->slice.v[i]);
	vec_free(&s->slice);
	doom_expr(d, s->limit);
	free(s);
}

static void free_doomed(struct doomed *d)
{
	while (d->exprs.n || d->stmts.n) {
		if (d->stmts.n)
			free_stmt_node(d, d->stmts.v[--d->stmts.n]);
		else
			free_expr_node(d, d->exprs.v[--d->exprs.n]);
	}
	vec_free(&d->exprs);
	vec_free(&d->stmts);
}

void expr_free(struct expr *e)
{
	struct doomed d = { { 0 }, { 0 } };

	doom_expr(&d, e);
	free_doomed(&d);
}

void stmt_free(struct stmt *s)
{
	struct doomed d = { { 0 }, { 0 } };

	doom_stmt(&d, s);
	free_doomed(&d);
}

void pp_comp_free(struct pp_comp *c)
{
	if (!c)
		return;
	free(c->name);
	expr_free(c->arg);
	free(c);
}

void probe_point_free(struct probe_point *pp)
{
	if (!pp)
		return;
	for (size_t i = 0; i < pp->comps.n; i++)
		pp_comp_free(pp->comps.v[i]);
	vec_free(&pp->comps);
	expr_free(pp->cond);
	free(pp);
}

static void points_free(struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		probe_point_free(v->v[i]);
	vec_free(v);
}

void probe_free(struct probe *p)
{
	if (!p)
		return;
	points_free(&p->points);
	stmt_free(p->body);
	free(p);
}

void probe_alias_free(struct probe_alias *a)
{
	if (!a)
		return;
	points_free(&a->names);
	points_free(&a->points);
	stmt_free(a->body);
	stmt_free(a->epi_body);
	free(a);
}

void global_free(struct global *g)
{
	if (!g)
		return;
	free(g->name);
	expr_free(g->init);
	free(g);
}

void param_free(struct param *p)
{
	if (!p)
		return;
	free(p->name);
	free(p);
}

void function_free(struct function *f)
{
	if (!f)
		return;
	free(f->name);
	for (size_t i = 0; i < f->params.n; i++)
		param_free(f->params.v[i]);
	vec_free(&f->params);
	stmt_free(f->body);
	free(f->embedded);
	free(f);
}

void embedded_free(struct embedded *e)
{
	if (!e)
		return;
	free(e->code);
	free(e);
}

void script_add(struct script *s, enum decl_kind kind, void *p)
{
	struct decl *d = xmalloc(sizeof(*d));

	d->kind = kind;
	d->p = p;
	vec_push(&s->decls, d);
	switch (kind) {
	case D_PROBE:
		vec_push(&s->probes, p);
		break;
	case D_ALIAS:
		vec_push(&s->aliases, p);
		break;
	case D_FUNCTION:
		vec_push(&s->functions, p);
		break;
	case D_GLOBAL:
		vec_push(&s->globals, p);
		break;
	case D_EMBEDDED:
		vec_push(&s->embeds, p);
		break;
	}
}

void script_free(struct script *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->probes.n; i++)
		probe_free(s->probes.v[i]);
	for (size_t i = 0; i < s->aliases.n; i++)
		probe_alias_free(s->aliases.v[i]);
	for (size_t i = 0; i < s->functions.n; i++)
		function_free(s->functions.v[i]);
	for (size_t i = 0; i < s->globals.n; i++)
		global_free(s->globals.v[i]);
	for (size_t i = 0; i < s->embeds.n; i++)
		embedded_free(s->embeds.v[i]);
	for (size_t i = 0; i < s->decls.n; i++)
		free(s->decls.v[i]);
	vec_free(&s->probes);
	vec_free(&s->aliases);
	vec_free(&s->functions);
	vec_free(&s->globals);
	vec_free(&s->embeds);
	vec_free(&s->decls);
	free(s);
}

bool stmt_empty(const struct stmt *s)
{
	if (!s || s->kind == S_NULL)
		return true;
	if (s->kind != S_BLOCK)
		return false;
	for (size_t i = 0; i < s->stmts.n; i++)
		if (!stmt_empty(s->stmts.v[i]))
			return false;
	return true;
}

/* SystemTap marks properties of embedded-C functions with comments such as
 * slash-star "pure" star-slash anywhere in the body. */
bool embedded_global_pragma(const char **at, const char **name, size_t *len, bool *write)
{
	const char *p = *at;

	while (p && (p = strstr(p, "pragma:"))) {
		p += strlen("pragma:");
		if (!strncmp(p, "read:", 5))
			*write = false, p += 5;
		else if (!strncmp(p, "write:", 6))
			*write = true, p += 6;
		else
			continue;
		*name = p;
		while (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		       (*p >= '0' && *p <= '9'))
			p++;
		*len = (size_t)(p - *name);
		if (*len) {
			*at = p;
			return true;
		}
	}
	*at = NULL;
	return false;
}

unsigned embedded_pragmas(const char *code)
{
	static const struct {
		const char *text;
		unsigned flag;
	} tab[] = {
		{ "/* pure */", PRAGMA_PURE },
		{ "/* unprivileged */", PRAGMA_UNPRIVILEGED },
		{ "/* myproc-unprivileged */", PRAGMA_MYPROC_UNPRIVILEGED },
		{ "/* guru */", PRAGMA_GURU },
		{ "/* unmangled */", PRAGMA_UNMANGLED },
		{ "/* stable */", PRAGMA_STABLE },
		{ "/* unmodified-fnargs */", PRAGMA_UNMODIFIED_FNARGS },
	};
	unsigned flags = 0;

	if (!code)
		return 0;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strstr(code, tab[i].text))
			flags |= tab[i].flag;
	return flags;
}
