/* Pass 2: probe point derivation, name resolution, type inference and
 * unused-code elimination (see elaborate.h).
 *
 * The order follows SystemTap's semantic pass: derive probes (aliases
 * expanded), resolve symbols in every probe and every user function
 * (pulling in library functions and globals on demand), drop what is not
 * used, then infer types to a fixed point and report what stays
 * unresolved.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctxfn.h"
#include "elab_int.h"
#include "probes/family.h"
#include "suggest.h"
#include "sem_autocast.h"
#include "sem_dead.h"
#include "sem_defer.h"
#include "sem_elide.h"
#include "sem_version.h"
#include "sem_foreach.h"
#include "sem_limits.h"
#include "sem_overload.h"

void use_file(struct elab *E, const struct srcfile *f)
{
	for (int i = 0; i < E->n_lib; i++)
		if (E->lib[i]->file == f)
			E->lib_used[i] = true;
}

/* ---- privilege ----------------------------------------------------- */

/* The --privilege level the script is checked against. */
unsigned privilege_level(const struct elab *E)
{
	return E->o->privilege ? E->o->privilege : PRIV_STAPDEV;
}

/* --privilege=stapusr: only what SystemTap lets its stapusr members use. */
static bool stapusr_only(const struct elab *E)
{
	return privilege_is_stapusr(privilege_level(E));
}

/* Whether the level allows the points of pattern p of family fam. */
bool pattern_allowed(const struct elab *E, const struct probe_family *fam,
		     const struct point_pattern *p)
{
	if (!stapusr_only(E))
		return true;
	return fam->unprivileged && fam->unprivileged(p);
}

/* Embedded C that users of the level may run: everything at stapsys and
 * above, at stapusr only code marked unprivileged or myproc-unprivileged
 * (the latter checked at run time to run in the user's own processes). */
bool embedded_allowed(const struct elab *E, unsigned pragmas)
{
	return !stapusr_only(E) ||
	       (pragmas & (PRAGMA_UNPRIVILEGED | PRAGMA_MYPROC_UNPRIVILEGED));
}

/* ---- diagnostics ----------------------------------------------------- */

/* A string literal's text as SystemTap's tokens hold it: the escapes a
 * C string needs written back (\n, \\), a quote as itself. */
static char *literal_text(const char *str)
{
	static const char esc_from[] = "\n\t\r\a\b\f\v\\";
	static const char esc_to[] = "ntrabfv\\";
	struct strbuf sb = STRBUF_INIT;

	for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
		const char *hit = strchr(esc_from, *c);

		if (hit) {
			strbuf_addc(&sb, '\\');
			strbuf_addc(&sb, esc_to[hit - esc_from]);
		} else if (*c < 0x20 || *c == 0x7f) {
			strbuf_addf(&sb, "\\%03o", *c);
		} else {
			strbuf_addc(&sb, (char)*c);
		}
	}
	return strbuf_detach(&sb);
}

/* The token that starts at pos in its source, described as SystemTap
 * names it ("identifier 'a'", "number '1'", "string 'x'"), for a place
 * known only by its position; NULL for any other token. */
char *describe_token_at(const struct srcpos *pos)
{
	const char *line = pos && pos->file ? srcfile_line(pos->file, pos->line) : NULL;
	const char *t, *end;

	if (!line || pos->col < 1)
		return NULL;
	for (t = line; t < line + pos->col - 1; t++)
		if (!*t || *t == '\n')
			return NULL;
	end = t;
	if (isalpha((unsigned char)*t) || *t == '_') {
		while (isalnum((unsigned char)*end) || *end == '_')
			end++;
		return xasprintf("identifier '%.*s'", (int)(end - t), t);
	}
	if (isdigit((unsigned char)*t)) {
		while (isalnum((unsigned char)*end))
			end++;
		return xasprintf("number '%.*s'", (int)(end - t), t);
	}
	if (*t == '"') {
		struct strbuf sb = STRBUF_INIT;

		for (end = t + 1; *end && *end != '"' && *end != '\n'; end++) {
			if (*end == '\\' && end[1] == '"')
				end++;
			else if (*end == '\\' && end[1])
				strbuf_addc(&sb, *end++);
			strbuf_addc(&sb, *end);
		}
		char *what = xasprintf("string '%s'", sb.buf ? sb.buf : "");

		strbuf_free(&sb);
		return what;
	}
	return NULL;
}

/* SystemTap names the token an error is about: "identifier 'x'". */
char *describe_expr(const struct expr *e)
{
	const char *op;

	switch (e->kind) {
	case E_NUM: {
		/* as written (0x10), where the source has the number */
		char *what = describe_token_at(&e->pos);

		if (what && !strncmp(what, "number '", 8))
			return what;
		free(what);
		return xasprintf("number '%" PRId64 "'", e->num);
	}
	case E_STR: {
		char *text = literal_text(e->str);
		char *what = xasprintf("string '%s'", text);

		free(text);
		return what;
	}
	case E_SYM: case E_CALL: case E_PRINT:
		return xasprintf("identifier '%s'", e->name);
	case E_INDEX: case E_IN:
		if (e->a && e->a->kind == E_SYM)
			return xasprintf("identifier '%s'", e->a->name);
		return xstrdup("operator '['");
	case E_TARGET:
		/* $var$ and $$parms$$ are one token in SystemTap's lexer */
		if (e->comps.n == 1 && ((const struct tcomp *)e->comps.v[0])->kind == TC_PPRINT)
			return xasprintf("identifier '%s%s'", e->name,
					 ((const struct tcomp *)e->comps.v[0])->name);
		return xasprintf("identifier '%s'", e->name);
	case E_BINARY: case E_ASSIGN: case E_UNARY: case E_PREINC:
	case E_POSTINC:
		op = tok_spelling((enum tok_kind)e->op);
		return xasprintf("operator '%s'", op ? op : "?");
	case E_TERNARY:
		return xstrdup("operator '?'");
	case E_ATOP:
		return xasprintf("operator '%s'", e->name ? e->name : "@");
	case E_CAST:
		return xstrdup("operator '@cast'");
	case E_VAR:
		return xstrdup("operator '@var'");
	case E_STAT: case E_HIST: case E_DEFINED: case E_ENTRY:
		return xstrdup("operator '@'");
	default:
		return xstrdup("expression");
	}
}

/* "MSG: WHAT at FILE:LINE:COL", the text of a semantic error or warning;
 * lines of detail in msg (a DWARF variable's: where it does have a
 * value) come after the headline and its place, as SystemTap prints them. */
static char *sem_message_of(const struct srcpos *pos, const char *what, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;
	size_t head = strcspn(msg, "\n");

	strbuf_addf(&sb, "%.*s", (int)head, msg);
	if (what && pos && pos->file)
		strbuf_addf(&sb, ": %s at %s:%d:%d", what, pos->file->name,
			    pos->line, pos->col);
	strbuf_addf(&sb, "%s", msg + head);
	return strbuf_detach(&sb);
}

/* The same with MSG from a printf format. */
__attribute__((format(printf, 3, 0)))
static char *sem_message(const struct srcpos *pos, const char *what,
			 const char *fmt, va_list ap)
{
	struct strbuf text = STRBUF_INIT;
	char *msg;

	strbuf_vaddf(&text, fmt, ap);
	msg = sem_message_of(pos, what, text.buf ? text.buf : "");
	strbuf_free(&text);
	return msg;
}

__attribute__((format(printf, 4, 0)))
static void sem_verror(struct diag *d, const struct srcpos *pos, const char *what,
		       const char *fmt, va_list ap)
{
	char *msg = sem_message(pos, what, fmt, ap);

	/* The template is the error's kind for SystemTap's "similar error"
	 * suppression, unless it is only "%s" around a prepared text. */
	diag_error_keyed(d, pos, "semantic error", strcmp(fmt, "%s") ? fmt : NULL,
			 "%s", msg);
	free(msg);
}

void sem_report(struct diag *d, const struct srcpos *pos, const char *what,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sem_verror(d, pos, what, fmt, ap);
	va_end(ap);
}

void sem_error(struct elab *E, const struct srcpos *pos, const char *what,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sem_verror(E->d, pos, what, fmt, ap);
	va_end(ap);
}

void sem_error_kind(struct elab *E, const struct srcpos *pos, const char *what,
		    const char *kind, const char *msg)
{
	char *text = sem_message_of(pos, what, msg);

	diag_error_keyed(E->d, pos, "semantic error", kind, "%s", text);
	free(text);
}

void sem_warn(struct elab *E, const struct srcpos *pos, const char *what,
		     const char *fmt, ...)
{
	va_list ap, again;
	char *msg;
	struct strbuf key = STRBUF_INIT;

	va_start(ap, fmt);
	va_copy(again, ap);
	strbuf_vaddf(&key, fmt, again);
	va_end(again);
	msg = sem_message(pos, what, fmt, ap);
	va_end(ap);
	/* SystemTap tells one warning of each text apart from its place */
	diag_warning_keyed(E->d, pos, key.buf, "%s", msg);
	free(msg);
	strbuf_free(&key);
}

void ident_what(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "identifier '%s'", name);
}

/* ---- declarations ------------------------------------------------------ */

struct vardecl *var_new(struct elab *E, const char *name,
			       const struct srcpos *pos)
{
	struct vardecl *v = xcalloc(1, sizeof(*v));

	v->name = xstrdup(name);
	v->pos = *pos;
	v->arity = -1;
	vec_push(&E->P->all_vars, v);
	return v;
}

/* An alias is named by plain components: SystemTap refuses to register
 * one with a wildcard in its name (what would it define?). */
static bool alias_has_wildcard(struct elab *E, const struct probe_alias *a)
{
	for (size_t i = 0; i < a->names.n; i++) {
		const struct probe_point *name = a->names.v[i];

		for (size_t j = 0; j < name->comps.n; j++) {
			const struct pp_comp *c = name->comps.v[j];

			if (!strchr(c->name, '*'))
				continue;
			sem_error(E, &a->pos, "keyword", "while registering probe alias");
			sem_error(E, &c->pos, NULL, "invalid use of wildcard probe point component");
			return true;
		}
	}
	return false;
}

void sem_function_params(struct elab *E, struct sem_function *sf)
{
	const struct function *f = sf->decl;

	sf->n_params = (int)f->params.n;
	sf->params = xcalloc(f->params.n + 1, sizeof(*sf->params));
	for (size_t j = 0; j < f->params.n; j++) {
		struct param *p = f->params.v[j];
		struct vardecl *v = var_new(E, p->name, &p->pos);

		v->param = true;
		v->arity = 0;
		v->type = sem_type_of_decl(p->type);
		v->type_pos = p->pos;
		v->type_declared = v->type != SEM_UNKNOWN;
		sf->params[j] = v;
	}
}

static void collect(struct elab *E, struct script *sc, bool library, int *order)
{
	for (size_t i = 0; i < sc->functions.n; i++) {
		struct function *f = sc->functions.v[i];
		struct sem_function *sf = xcalloc(1, sizeof(*sf));

		sf->decl = f;
		sf->file = sc->file;
		sf->name = f->name;
		sf->library = library;
		sf->order = (*order)++;
		sf->type = sem_type_of_decl(f->type);
		sf->type_pos = f->pos;
		sf->type_declared = sf->type != SEM_UNKNOWN;
		sem_function_params(E, sf);
		sf->ctx_sensitive = ctxfn_sensitive(f);
		E->any_ctx_sensitive |= sf->ctx_sensitive;
		vec_push(&E->fns, sf);
		namemap_add(&E->fn_names, sf->name, sf);
		vec_push(&E->P->all_fns, sf);
	}
	for (size_t i = 0; i < sc->globals.n; i++) {
		struct global *g = sc->globals.v[i];
		struct vardecl *v = var_new(E, g->name, &g->pos);

		v->global = true;
		v->library = library;
		v->is_private = g->is_private;
		v->wrap = g->wrap;
		v->maxsize = g->size;
		v->decl = g;
		if (g->size)
			v->arity_pos = g->pos;
		if (g->init) {
			v->type = g->init->kind == E_STR ? SEM_STRING : SEM_LONG;
			v->type_pos = g->init->pos;
			v->arity = 0;
			v->arity_pos = g->pos;
			v->writes++;
		}
		vec_push(&E->globals, v);
		namemap_add(&E->global_names, v->name, v);
	}
	for (size_t i = 0; i < sc->aliases.n; i++) {
		struct alias_ref *r;

		if (alias_has_wildcard(E, sc->aliases.v[i]))
			continue;
		r = xcalloc(1, sizeof(*r));
		r->a = sc->aliases.v[i];
		r->file = sc->file;
		vec_push(&E->aliases, r);
	}
}

bool visible(bool is_private, const struct srcfile *decl_file,
		    const struct srcfile *from)
{
	return !is_private || decl_file == from;
}

/* ---- the driver -------------------------------------------------------------- */

static void sum_uses(struct sem_body *b)
{
	for (size_t i = 0; i < b->reads.n; i++)
		((struct vardecl *)b->reads.v[i])->reads++;
	for (size_t i = 0; i < b->writes.n; i++)
		((struct vardecl *)b->writes.v[i])->writes++;
	for (size_t i = 0; i < b->updates.n; i++)
		((struct vardecl *)b->updates.v[i])->updates++;
}

bool elab_user_file(struct elab *E, const struct srcfile *f)
{
	for (int i = 0; i < E->n_user; i++)
		if (E->user[i]->file == f)
			return true;
	return false;
}

/* Locals: drop the ones only ever written, warn about the ones never
 * written. */
/* SystemTap suggests, for a local, the other locals and parameters of
 * its probe or function (not the globals: it is not one); for a global
 * (no locals, no function), the other globals. */
static char *similar_vars(struct elab *E, const struct vardecl *v,
			  const struct vec *locals, const struct sem_function *fn)
{
	bool global = !locals && !fn;
	size_t n = (locals ? locals->n : 0) + (fn ? (size_t)fn->n_params : 0) +
		   (global ? E->P->globals.n : 0);
	const char **names = xcalloc(n + 1, sizeof(*names));
	char *sugg;
	int k = 0;

	for (size_t j = 0; locals && j < locals->n; j++)
		if (locals->v[j] != v)
			names[k++] = ((struct vardecl *)locals->v[j])->name;
	for (int j = 0; fn && j < fn->n_params; j++)
		names[k++] = fn->params[j]->name;
	for (size_t j = 0; global && j < E->P->globals.n; j++)
		if (E->P->globals.v[j] != v)
			names[k++] = ((struct vardecl *)E->P->globals.v[j])->name;
	sugg = sem_suggest(v->name, names, k);
	free(names);
	return sugg;
}

static void check_locals(struct elab *E, struct vec *locals, const struct stmt *body,
			 const struct sem_function *fn)
{
	for (size_t i = 0; i < locals->n; i++) {
		struct vardecl *v = locals->v[i];

		if (v->reads == 0 && !E->o->unoptimized)
			v->elided = true;
	}
	if (!E->o->unoptimized)
		sem_elide_dead(E->P, body, locals);
	for (size_t i = 0; i < locals->n; i++) {
		struct vardecl *v = locals->v[i];
		bool mine = elab_user_file(E, v->pos.file);
		char what[300];

		ident_what(what, sizeof(what), v->name);
		/* an elided local goes silently (sem_elide.c warned of
		 * the assignments SystemTap warns of) */
		if (!v->elided && v->writes == 0 && mine) {
			char *sugg = similar_vars(E, v, locals, fn);

			sem_warn(E, &v->pos, what, "never-assigned local variable '%s'%s",
				 v->name, sugg);
			free(sugg);
		}
	}
}


static int fn_cmp(const void *x, const void *y)
{
	const struct sem_function *a = *(struct sem_function *const *)x;
	const struct sem_function *b = *(struct sem_function *const *)y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->n_params != b->n_params)
		return a->n_params - b->n_params;
	if (a->decl->priority != b->decl->priority)
		return a->decl->priority < b->decl->priority ? -1 : 1;
	return a->order - b->order;
}

/* The functions reached again, now only through calls pass 3 emits:
 * those only dropped assignments called (sem_live_calls) leave the
 * program, as SystemTap does not emit them either; they are still
 * type-checked (E->dead_fns). */
static void drop_dead_functions(struct elab *E)
{
	struct program *P = E->P;
	struct vec work = { 0 };
	size_t kept = 0;

	for (size_t i = 0; i < P->functions.n; i++)
		((struct sem_function *)P->functions.v[i])->used = false;
	for (size_t i = 0; i < P->probes.n; i++)
		sem_live_calls(P, ((struct derived_probe *)P->probes.v[i])->body, &work);
	while (work.n) {
		struct sem_function *f = work.v[--work.n];

		if (f->used)
			continue;
		f->used = true;
		sem_live_calls(P, f->decl->body, &work);
	}
	vec_free(&work);
	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		if (f->used)
			P->functions.v[kept++] = f;
		else
			vec_push(&E->dead_fns, f);
	}
	P->functions.n = kept;
}

static void eliminate(struct elab *E)
{
	struct program *P = E->P;
	struct vec work = { 0 }, globals = { 0 };

	/* Functions reachable from the probes, with -u too: SystemTap
	 * neither lists nor emits one nobody calls, nor reports what is
	 * wrong with its target variables (sem_defer.c). */
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		for (size_t j = 0; j < dp->uses.calls.n; j++)
			vec_push(&work, dp->uses.calls.v[j]);
	}
	while (work.n) {
		struct sem_function *f = work.v[--work.n];

		if (f->used)
			continue;
		f->used = true;
		for (size_t j = 0; j < f->uses.calls.n; j++)
			vec_push(&work, f->uses.calls.v[j]);
	}
	vec_free(&work);

	for (size_t i = 0; i < E->fns.n; i++) {
		struct sem_function *f = E->fns.v[i];

		/* an unused function goes silently, as SystemTap's */
		if (f->used) {
			vec_push(&P->functions, f);
			sum_uses(&f->uses);
		}
	}
	if (P->functions.n > 1)
		qsort(P->functions.v, P->functions.n, sizeof(void *), fn_cmp);
	for (size_t i = 0; i < P->probes.n; i++)
		sum_uses(&((struct derived_probe *)P->probes.v[i])->uses);
	if (!E->o->unoptimized)
		sem_elide_statements(E);

	/* Globals: the user's, then the library's, each in the order
	 * resolution first met them (the probes, then the functions), as
	 * SystemTap lists, warns about and displays them: `global a, b`
	 * used as `b = 1; a = 2` is b, a.  One nobody names goes. */
	for (size_t i = 0; i < E->globals.n; i++)
		if (!((struct vardecl *)E->globals.v[i])->listed)
			((struct vardecl *)E->globals.v[i])->elided = true;
	for (size_t i = 0; i < P->globals.n; i++) {
		struct vardecl *v = P->globals.v[i];
		bool init = v->decl && v->decl->init;
		int refs = v->reads + v->writes - (init ? 1 : 0);
		char what[300];

		if (v->library)
			continue;
		ident_what(what, sizeof(what), v->name);
		/* one nobody uses goes with -u too, as SystemTap's */
		if (refs > 0) {
			vec_push(&globals, v);
		} else {
			v->elided = true;	/* silently, as SystemTap */
			continue;
		}
		/* as SystemTap's, x++ and x += 1 are no reads here */
		if (v->reads == v->updates && v->writes > (init ? 1 : 0))
			v->auto_print = true;
		if (v->reads > 0 && v->writes == 0 && !v->sorted) {
			char *sugg = similar_vars(E, v, NULL, NULL);

			sem_warn(E, &v->pos, what, "never-assigned global variable '%s'%s",
				 v->name, sugg);
			free(sugg);
		}
	}
	for (size_t i = 0; i < P->globals.n; i++) {
		struct vardecl *v = P->globals.v[i];

		if (v->library && v->reads + v->writes > (v->decl && v->decl->init ? 1 : 0))
			vec_push(&globals, v);
	}
	vec_free(&P->globals);
	P->globals = globals;

	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		check_locals(E, &f->locals, f->decl->body, f);
	}
	for (size_t i = 0; i < P->probes.n; i++)
	{
		struct derived_probe *dp = P->probes.v[i];

		check_locals(E, &dp->locals, dp->body, NULL);
	}
	if (!E->o->unoptimized) {
		size_t had = P->probes.n;
		bool none_left = sem_elide_probes(E) == had && had;

		drop_dead_functions(E);
		if (none_left)
			diag_error(E->d, NULL, "semantic error", "no probes found");
	}
}

struct program *elaborate(struct script **user, int n_user,
			  struct script **library, int n_library,
			  const struct elab_options *o, struct diag *d)
{
	struct elab E = { .o = o, .d = d, .user = user, .n_user = n_user };
	int errors = d->errors;
	int order = 0;

	E.P = xcalloc(1, sizeof(*E.P));
	E.lib = library;
	E.n_lib = n_library;
	E.lib_used = xcalloc((size_t)n_library + 1, sizeof(bool));
	E.lib_done = xcalloc((size_t)n_library + 1, sizeof(bool));
	for (int i = 0; i < n_user; i++)
		collect(&E, user[i], false, &order);
	for (int i = 0; i < n_library; i++)
		collect(&E, library[i], true, &order);
	for (int i = 0; i < n_user; i++) {
		for (size_t j = 0; j < user[i]->embeds.n; j++)
			vec_push(&E.P->embeds, user[i]->embeds.v[j]);
		for (size_t j = 0; j < user[i]->probes.n; j++)
			derive_probe(&E, user[i]->probes.v[j]);
	}
	if (d->errors == errors && E.P->probes.n == 0)
		diag_error(d, NULL, "semantic error", "no probes found");

	for (size_t i = 0; i < E.P->probes.n; i++)
		resolve_probe(&E, E.P->probes.v[i]);
	for (size_t i = 0; i < E.fns.n; i++) {
		struct sem_function *f = E.fns.v[i];

		/* a context-sensitive one resolves in each caller's context
		 * (ctxfn.c), or where a call has none */
		if (!f->library && !f->resolved && !f->ctx_sensitive) {
			f->resolved = true;
			vec_push(&E.work, f);
		}
		drain_work(&E);
	}
	drain_work(&E);
	for (bool more = true; more && d->errors == errors;) {
		more = false;
		for (int i = 0; i < n_library; i++) {
			size_t first = E.P->probes.n;

			if (!E.lib_used[i] || E.lib_done[i])
				continue;
			E.lib_done[i] = more = true;
			for (size_t j = 0; j < library[i]->probes.n; j++)
				derive_probe(&E, library[i]->probes.v[j]);
			for (size_t j = first; j < E.P->probes.n; j++)
				resolve_probe(&E, E.P->probes.v[j]);
			drain_work(&E);
		}
	}
	if (d->errors == errors && o->check_version)
		sem_version_warn(&E);
	if (d->errors == errors)
		sem_autocast_resolve(&E);
	if (d->errors == errors) {
		eliminate(&E);
		sem_report_deferred(&E);
	}
	if (d->errors == errors)
		sem_check_embedded_globals(&E);
	if (d->errors == errors)
		infer_types(&E);
	if (d->errors == errors)
		sem_check_foreach_calls(E.P, d);
	if (d->errors == errors)
		sem_check_limits(E.P, o, d);
	if (d->errors == errors)
		sem_warn_unreachable_overloads(E.P, d);

	for (size_t i = 0; i < E.aliases.n; i++)
		free(E.aliases.v[i]);
	vec_free(&E.aliases);
	vec_free(&E.fns);
	ctxfn_free(&E);
	vec_free(&E.dead_fns);
	sem_version_free(&E);
	vec_free(&E.globals);
	namemap_free(&E.fn_names);
	namemap_free(&E.global_names);
	vec_free(&E.work);
	for (size_t i = 0; i < E.autocasts.n; i++)
		free(E.autocasts.v[i]);
	vec_free(&E.autocasts);
	for (size_t i = 0; i < E.autocast_guards.n; i++)
		free(E.autocast_guards.v[i]);
	vec_free(&E.autocast_guards);
	sem_drop_deferred(&E);
	free(E.zeroed_warned);
	free(E.lib_used);
	free(E.lib_done);
	if (d->errors != errors) {
		program_free(E.P);
		return NULL;
	}
	return E.P;
}
