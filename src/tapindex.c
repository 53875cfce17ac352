/* The tapset index (see tapindex.h). */
#include "tapindex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "hash128.h"
#include "cachedir.h"
#include "glob.h"
#include "util.h"

#define INDEX_HEADER "tapc-tapset-index 1"

/* ---- sets of names ------------------------------------------------------- */

struct nameset {
	char **slot;
	size_t cap, n;
};

static size_t name_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static bool nameset_has(const struct nameset *ns, const char *name)
{
	if (!ns->cap)
		return false;
	for (size_t i = name_hash(name) & (ns->cap - 1);; i = (i + 1) & (ns->cap - 1)) {
		if (!ns->slot[i])
			return false;
		if (!strcmp(ns->slot[i], name))
			return true;
	}
}

/* Add name; true if it was new. */
static bool nameset_add(struct nameset *ns, const char *name)
{
	size_t i;

	if (nameset_has(ns, name))
		return false;
	if (2 * (ns->n + 1) > ns->cap) {
		struct nameset bigger = { 0 };

		bigger.cap = ns->cap ? ns->cap * 2 : 64;
		bigger.slot = xcalloc(bigger.cap, sizeof(char *));
		for (size_t j = 0; j < ns->cap; j++)
			if (ns->slot[j])
				nameset_add(&bigger, ns->slot[j]);
		for (size_t j = 0; j < ns->cap; j++)
			free(ns->slot[j]);
		free(ns->slot);
		*ns = bigger;
	}
	for (i = name_hash(name) & (ns->cap - 1); ns->slot[i]; i = (i + 1) & (ns->cap - 1))
		;
	ns->slot[i] = xstrdup(name);
	ns->n++;
	return true;
}

static void nameset_free(struct nameset *ns)
{
	for (size_t i = 0; i < ns->cap; i++)
		free(ns->slot[i]);
	free(ns->slot);
	memset(ns, 0, sizeof(*ns));
}

/* ---- what a script uses ----------------------------------------------------- */

struct wanted {
	struct nameset functions, vars;
	struct strlist points;		/* first components, may hold '*' */
	int changes;
};

static void want_expr(struct wanted *w, const struct expr *e);

static void want_exprs(struct wanted *w, const struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		want_expr(w, v->v[i]);
}

static void want_expr(struct wanted *w, const struct expr *e)
{
	if (!e)
		return;
	if (e->kind == E_CALL && e->name)
		w->changes += nameset_add(&w->functions, e->name);
	else if (e->kind == E_SYM && e->name)
		w->changes += nameset_add(&w->vars, e->name);
	want_expr(w, e->a);
	want_expr(w, e->b);
	want_expr(w, e->c);
	want_exprs(w, &e->args);
	for (size_t i = 0; i < e->comps.n; i++)
		want_expr(w, ((const struct tcomp *)e->comps.v[i])->index);
}

static void want_stmt(struct wanted *w, const struct stmt *s)
{
	if (!s)
		return;
	want_expr(w, s->e1);
	want_expr(w, s->e2);
	want_expr(w, s->e3);
	want_expr(w, s->base);
	want_expr(w, s->limit);
	want_exprs(w, &s->slice);
	want_stmt(w, s->body);
	want_stmt(w, s->els);
	for (size_t i = 0; i < s->stmts.n; i++)
		want_stmt(w, s->stmts.v[i]);
}

static void want_points(struct wanted *w, const struct vec *points)
{
	for (size_t i = 0; i < points->n; i++) {
		const struct probe_point *pp = points->v[i];
		const struct pp_comp *c0 = pp->comps.n ? pp->comps.v[0] : NULL;
		bool known = false;

		want_expr(w, pp->cond);
		if (!c0)
			continue;
		for (int j = 0; j < w->points.count && !known; j++)
			known = !strcmp(w->points.items[j], c0->name);
		if (!known) {
			strlist_add(&w->points, c0->name);
			w->changes++;
		}
	}
}

static void want_script(struct wanted *w, const struct script *sc)
{
	for (size_t i = 0; i < sc->probes.n; i++) {
		const struct probe *p = sc->probes.v[i];

		want_points(w, &p->points);
		want_stmt(w, p->body);
	}
	for (size_t i = 0; i < sc->aliases.n; i++) {
		const struct probe_alias *a = sc->aliases.v[i];

		want_points(w, &a->points);
		want_stmt(w, a->body);
		want_stmt(w, a->epi_body);
	}
	for (size_t i = 0; i < sc->functions.n; i++)
		want_stmt(w, ((const struct function *)sc->functions.v[i])->body);
}

/* ---- index entries ------------------------------------------------------------ */

struct entry {
	char *path;
	long long size, mtime_ns;
	struct strlist defs;		/* "f NAME", "g NAME", "a NAME" */
	bool indexed;			/* defs are those of the file as it is */
	bool parsed, needed;
	struct script *sc;		/* when parsed */
};

static void defs_of(struct entry *e, const struct script *sc)
{
	struct nameset seen = { 0 };

	for (size_t i = 0; i < sc->functions.n; i++) {
		char *d = xasprintf("f %s", ((const struct function *)sc->functions.v[i])->name);

		if (nameset_add(&seen, d))
			strlist_add(&e->defs, d);
		free(d);
	}
	for (size_t i = 0; i < sc->globals.n; i++) {
		char *d = xasprintf("g %s", ((const struct global *)sc->globals.v[i])->name);

		if (nameset_add(&seen, d))
			strlist_add(&e->defs, d);
		free(d);
	}
	for (size_t i = 0; i < sc->aliases.n; i++) {
		const struct probe_alias *a = sc->aliases.v[i];

		for (size_t j = 0; j < a->names.n; j++) {
			const struct probe_point *nm = a->names.v[j];
			char *d;

			if (!nm->comps.n)
				continue;
			d = xasprintf("a %s", ((const struct pp_comp *)nm->comps.v[0])->name);
			if (nameset_add(&seen, d))
				strlist_add(&e->defs, d);
			free(d);
		}
	}
	nameset_free(&seen);
}

static bool entry_wanted(const struct entry *e, const struct wanted *w)
{
	for (int i = 0; i < e->defs.count; i++) {
		const char *d = e->defs.items[i];

		if ((d[0] == 'f' && nameset_has(&w->functions, d + 2)) ||
		    (d[0] == 'g' && nameset_has(&w->vars, d + 2)))
			return true;
		if (d[0] != 'a')
			continue;
		for (int j = 0; j < w->points.count; j++)
			if (glob_match(w->points.items[j], d + 2))
				return true;
	}
	return false;
}

/* ---- the index file ------------------------------------------------------------- */

/* The index file of key in the checked cache directory (created when
 * create); NULL with why filled when the cache may not be used, or empty
 * when it does not exist. */
static char *index_path(const char *key, bool create, char *why, size_t whylen)
{
	char *dir = cachedir_get("tapset-index", create, why, whylen), *path;

	if (!dir)
		return NULL;
	path = xasprintf("%s/%s.idx", dir, key);
	free(dir);
	return path;
}

/* Fill the entries the index file knows, where the file is unchanged. */
static void read_index(const char *path, struct entry *v, int n, char *why, size_t whylen)
{
	FILE *f = cache_fopen(path, why, whylen);
	char line[4096];
	struct entry *cur = NULL;

	if (!f)
		return;
	if (!fgets(line, sizeof(line), f) || strcmp(line, INDEX_HEADER "\n")) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		long long size, mtime;
		int off = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "F %lld %lld %n", &size, &mtime, &off) == 2 && off > 0) {
			cur = NULL;
			for (int i = 0; i < n && !cur; i++)
				if (!strcmp(v[i].path, line + off) && v[i].size == size &&
				    v[i].mtime_ns == mtime && !v[i].indexed)
					cur = &v[i];
			if (cur)
				cur->indexed = true;
		} else if (cur && (line[0] == 'f' || line[0] == 'g' || line[0] == 'a') &&
			   line[1] == ' ') {
			strlist_add(&cur->defs, line);
		}
	}
	fclose(f);
}

static void write_index(const char *key, const struct entry *v, int n, char *why,
			size_t whylen)
{
	struct atomic_file af;
	char *path = index_path(key, true, why, whylen);

	/* the index is an optimisation: failing to write it is no error */
	if (path && atomic_open(&af, path)) {
		fprintf(af.f, "%s\n", INDEX_HEADER);
		for (int i = 0; i < n; i++) {
			if (!v[i].indexed)
				continue;
			fprintf(af.f, "F %lld %lld %s\n", v[i].size, v[i].mtime_ns, v[i].path);
			for (int j = 0; j < v[i].defs.count; j++)
				fprintf(af.f, "%s\n", v[i].defs.items[j]);
		}
		atomic_close(&af, true);
	}
	free(path);
}

/* ---- loading -------------------------------------------------------------------- */

static void stat_entry(struct entry *e)
{
	struct stat st;

	if (stat(e->path, &st) == 0) {
		e->size = (long long)st.st_size;
		e->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	} else {
		e->size = -1;
	}
}

static void parse_entry(struct entry *e, tapindex_parse_fn parse, void *ctx)
{
	e->parsed = true;
	e->sc = parse(ctx, e->path);
	if (e->sc && !e->indexed) {
		defs_of(e, e->sc);
		e->indexed = true;
	}
}

void tapindex_load(const struct strlist *paths, struct script **user, int n_user,
		   const char *key, tapindex_parse_fn parse, void *ctx, char *why,
		   size_t whylen)
{
	int n = paths->count;
	struct entry *v = xcalloc((size_t)n + 1, sizeof(*v));
	struct wanted w = { 0 };
	char *ipath = index_path(key, false, why, whylen);
	bool stale = false;

	for (int i = 0; i < n; i++) {
		v[i].path = paths->items[i];
		stat_entry(&v[i]);
	}
	if (ipath)
		read_index(ipath, v, n, why, whylen);
	/* Files the index does not know as they are now: parsed (and
	 * indexed, unless they have errors) whether needed or not. */
	for (int i = 0; i < n; i++)
		if (!v[i].indexed) {
			parse_entry(&v[i], parse, ctx);
			stale |= v[i].indexed;
		}
	for (int i = 0; i < n_user; i++)
		want_script(&w, user[i]);
	while (w.changes) {
		w.changes = 0;
		for (int i = 0; i < n; i++) {
			if (v[i].needed || !entry_wanted(&v[i], &w))
				continue;
			v[i].needed = true;
			if (!v[i].parsed)
				parse_entry(&v[i], parse, ctx);
			if (v[i].sc)
				want_script(&w, v[i].sc);
			w.changes++;
		}
	}
	if (stale && !why[0])
		write_index(key, v, n, why, whylen);
	for (int i = 0; i < n; i++)
		strlist_free(&v[i].defs);
	free(v);
	free(ipath);
	nameset_free(&w.functions);
	nameset_free(&w.vars);
	strlist_free(&w.points);
}
