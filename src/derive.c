/* Pass 2: probe derivation.  Each probe point of a user's (or a used
 * tapset's) probe is matched against the aliases and the probe point
 * families; aliases expand recursively, and every concrete point becomes
 * a derived probe with its own copy of the body (see elaborate.h), or
 * with the body of the first point of its expansion when the body cannot
 * tell the points apart (see body_shareable). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callee.h"
#include "astwalk.h"
#include "elab_int.h"
#include "pptext.h"
#include "probewrite.h"
#include "token.h"
#include "probes/family.h"
#include "glob.h"
#include "sem_version.h"
#include "suggest.h"

/* ---- deep copies of statements (each derived probe owns its body) ---- */

static struct foreach_key *key_dup(const struct foreach_key *k)
{
	struct foreach_key *n;

	if (!k)
		return NULL;
	n = xcalloc(1, sizeof(*n));
	n->name = xstrdup(k->name);
	n->pos = k->pos;
	return n;
}

struct stmt *stmt_dup(const struct stmt *s)
{
	struct stmt *n;

	if (!s)
		return NULL;
	n = stmt_new(s->kind, &s->pos);
	n->e1 = expr_dup(s->e1);
	n->e2 = expr_dup(s->e2);
	n->e3 = expr_dup(s->e3);
	n->body = stmt_dup(s->body);
	n->els = stmt_dup(s->els);
	for (size_t i = 0; i < s->stmts.n; i++)
		vec_push(&n->stmts, stmt_dup(s->stmts.v[i]));
	n->name = s->name ? xstrdup(s->name) : NULL;
	n->name_pos = s->name_pos;
	n->value = key_dup(s->value);
	for (size_t i = 0; i < s->keys.n; i++)
		vec_push(&n->keys, key_dup(s->keys.v[i]));
	n->base = expr_dup(s->base);
	for (size_t i = 0; i < s->slice.n; i++)
		vec_push(&n->slice, expr_dup(s->slice.v[i]));
	n->has_slice = s->has_slice;
	n->sort_dir = s->sort_dir;
	n->sort_col = s->sort_col;
	n->sort_aggr = s->sort_aggr;
	n->limit = expr_dup(s->limit);
	return n;
}

/* ---- probe point derivation ---------------------------------------------- */

/* Pattern i of all families' patterns, in the order of probe_families
 * (*fam says whose); NULL past the end. */
static const struct point_pattern *pattern_nth(size_t i, const struct probe_family **fam)
{
	for (size_t f = 0; probe_families[f]; f++) {
		size_t n = family_pattern_count(probe_families[f]);

		if (i < n) {
			*fam = probe_families[f];
			return family_pattern(*fam, i);
		}
		i -= n;
	}
	*fam = NULL;
	return NULL;
}

static bool comp_matches(const struct pp_comp *c, const struct pat_comp *p)
{
	if (!glob_match(c->name, p->name))
		return false;
	switch (p->arg) {
	case PA_NONE: return !c->arg;
	case PA_NUM: return c->arg && c->arg->kind == E_NUM;
	case PA_OPTNUM: return !c->arg || c->arg->kind == E_NUM;
	case PA_STR: return c->arg && c->arg->kind == E_STR;
	case PA_OPTSTR: return !c->arg || c->arg->kind == E_STR;
	case PA_STRNUM: return c->arg && (c->arg->kind == E_STR || c->arg->kind == E_NUM);
	default: return !c->arg || c->arg->kind == E_STR || c->arg->kind == E_NUM;
	}
}

/* How many leading components of pp match the pattern. */
static int pattern_prefix(const struct probe_point *pp, const struct point_pattern *p)
{
	int k = 0;

	while (k < p->n && k < (int)pp->comps.n && comp_matches(pp->comps.v[k], &p->c[k]))
		k++;
	return k;
}

/* How many leading components of pp match the alias name nm: alias names
 * take no arguments. */
static int alias_prefix(const struct probe_point *pp, const struct probe_point *nm)
{
	int k = 0;

	while (k < (int)nm->comps.n && k < (int)pp->comps.n) {
		const struct pp_comp *u = pp->comps.v[k], *a = nm->comps.v[k];

		if (u->arg || a->arg || !glob_match(u->name, a->name))
			break;
		k++;
	}
	return k;
}

static char *points_text(const struct vec *v, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->n; i++) {
		char *t = pp_full_text(v->v[i]);

		strbuf_addf(&sb, "%s%s", i ? sep : "", t);
		free(t);
	}
	return strbuf_detach(&sb);
}

static char *alias_text(const struct probe_alias *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *t;

	for (size_t i = 0; i < a->names.n; i++) {
		t = pp_full_text(a->names.v[i]);
		strbuf_addf(&sb, "%s%s", t, a->epilogue ? " += " : " = ");
		free(t);
	}
	t = points_text(&a->points, ", ");
	strbuf_adds(&sb, t);
	free(t);
	return strbuf_detach(&sb);
}

static struct expr *and_cond(const struct expr *a, const struct expr *b)
{
	struct expr *e;

	if (!a)
		return expr_dup(b);
	if (!b)
		return expr_dup(a);
	e = expr_new(E_BINARY, &a->pos);
	e->op = TK_ANDAND;
	e->a = expr_dup(a);
	e->b = expr_dup(b);
	return e;
}

/* One step of a derivation, innermost first: an alias's text, or at
 * the end the user's probe points (see derived_probe.chain). */
struct chain_link {
	char *text;
	const struct probe_alias *alias;	/* the alias's step, or NULL */
	const struct chain_link *next;
};

struct derive {
	const struct probe *origin;
	const struct probe_point *user_point;	/* the one being derived */
	bool failed;
	/* The aliases being expanded, outermost first (recursion check). */
	const struct probe_alias *stack[MAX_ALIAS_DEPTH];
	int depth;
	/* The first failure below a user's probe point, reported after the
	 * "while resolving" line for that point. */
	bool deferred;
	bool deferred_unplaced;		/* printed without a place (no match) */
	struct srcpos deferred_pos;
	char *deferred_msg;
	const char *deferred_kind;	/* its kind, for similar-error suppression */
	/* The points whose derivation failed, innermost first: an alias's
	 * location, the point naming that alias ... the user's point.  As
	 * SystemTap, each is named in a "while resolving" line of its own.
	 * Their first components' places and names (a point may be a
	 * temporary one). */
	struct failed_level {
		struct srcpos pos;
		char *name;
	} levels[MAX_ALIAS_DEPTH + 2];
	int nlevels;
	/* -l/-L: the name the user's point resolved to at the top level:
	 * the alias's name and the user's suffix, while that alias is
	 * being expanded; else NULL and the concrete point names itself. */
	char *list_name;
	/* -l/-L: the user's suffix to an alias has a wildcard component
	 * ("scheduler.tick.*"): as SystemTap, each point it resolved to
	 * names itself (kernel.function("F@FILE:N").call, also for pn()),
	 * not the alias. */
	bool list_concrete;
};

static int derive_point(struct elab *E, struct derive *D,
			const struct probe_point *pp, const struct stmt *body,
			const struct chain_link *chain, bool parent_optional);

static void defer_error(struct derive *D, const struct srcpos *pos, const char *kind,
			char *msg)
{
	D->failed = true;
	if (D->deferred) {
		free(msg);
		return;
	}
	D->deferred = true;
	D->deferred_pos = *pos;
	D->deferred_msg = msg;
	D->deferred_kind = kind;
}

/*
 * pp names an alias whole, but the alias's points are all optional and
 * none resolved: SystemTap's plain "no match" (no place, no source line),
 * where a name that matches nothing is a mismatch.
 */
static void alias_no_match(struct derive *D, const struct probe_point *pp)
{
	bool first = !D->deferred;

	defer_error(D, &pp->pos, "no match", xstrdup("no match"));
	if (first)
		D->deferred_unplaced = true;
}

/* pp failed to derive: one more level out from the first failure. */
static void note_level(struct derive *D, const struct probe_point *pp)
{
	const struct pp_comp *first = pp->comps.v[0];
	struct failed_level *l;

	if (!D->deferred || D->nlevels == MAX_ALIAS_DEPTH + 2)
		return;
	l = &D->levels[D->nlevels++];
	l->pos = first->pos;
	l->name = xstrdup(first->name);
}

/* Undo a failed attempt: D again as saved before it. */
static void restore_derive(struct derive *D, const struct derive *saved)
{
	if (D->deferred && !saved->deferred)
		free(D->deferred_msg);
	for (int i = saved->nlevels; i < D->nlevels; i++)
		free(D->levels[i].name);
	*D = *saved;
}

/* --check-version: the probe's derivation, innermost alias first, for
 * sem_version_warn. */
static void note_version(struct elab *E, const struct derive *D,
			 const struct derived_probe *dp, const struct chain_link *chain)
{
	for (const struct chain_link *l = chain; l; l = l->next)
		if (l->alias && l->alias->version_dependent)
			sem_version_note(E, dp, "alias", &l->alias->pos);
	if (D->origin && D->origin->version_dependent)
		sem_version_note(E, dp, "probe", &D->origin->pos);
}

/* ---- bodies shared by the points of one expansion ---------------------- */

struct share_check {
	bool optimized;		/* not -u: statements may be elided */
	bool ok;
};

/* Expressions whose meaning depends on the probe they are in: its target
 * variables, its entry, its DWARF context (@var, @cast, autocasts), its
 * perf counters or registers, and embedded C (guarded by the probe's
 * privilege and pragmas). */
static void share_expr(void *ctx, const struct expr *e)
{
	struct share_check *c = ctx;

	switch (e->kind) {
	case E_TARGET: case E_VAR: case E_CAST: case E_AUTOCAST: case E_DEFINED:
	case E_ENTRY: case E_ATOP: case E_EMBEDDED:
		c->ok = false;
		break;
	default:
		break;
	}
}

/* Unless -u, sem_elide.c rewrites side-effect-free statements in place
 * and warns once per probe: a shared body keeps only statements it
 * leaves alone, output, assignments and increments (of globals: a body
 * with locals is unshared in resolve_probe). */
static void share_stmt(void *ctx, const struct stmt *s)
{
	struct share_check *c = ctx;
	const struct expr *e = s->e1;

	if (!c->optimized || s->kind != S_EXPR)
		return;
	if (e->kind == E_PRINT && !(e->op & PF_STRING) && !e->a)
		return;
	if (e->kind == E_ASSIGN || e->kind == E_PREINC || e->kind == E_POSTINC)
		return;
	c->ok = false;
}

/*
 * Whether the points of one expansion may share one copy of body: when
 * nothing in it depends on the point, every pass reads and rewrites each
 * probe's copy alike, so one tree does for all (a glob over the kernel's
 * functions derives 287,000 probes).  Resolution still walks the shared
 * body once per probe, so that their uses, errors and warnings are what
 * they were with copies; the ptrmap of resolutions, keyed by node, then
 * holds one entry per node instead of one per copy.
 */
static bool body_shareable(const struct elab *E, const struct stmt *body)
{
	struct share_check c = { .optimized = !E->o->unoptimized, .ok = true };
	struct ast_visitor v = { .ctx = &c, .expr = share_expr, .stmt = share_stmt };

	ast_walk_stmt(body, &v);
	return c.ok;
}

static void cast_module_expr(void *ctx, const struct expr *e)
{
	/* dp's own copy: a body with @cast is never shared (share_expr) */
	struct expr *cast = (struct expr *)e;

	if (e->kind == E_CAST && (!e->module || !*e->module)) {
		free(cast->module);
		cast->module = xstrdup(ctx);
	}
}

/* An @cast of dp's body without a module reads its type from what dp
 * probes, as SystemTap's DWARF probes fill it in (family cast_module). */
static void default_cast_modules(struct derived_probe *dp)
{
	const char *module = dp->family->cast_module ? dp->family->cast_module(dp) : NULL;
	struct ast_visitor v = { .ctx = (void *)module, .expr = cast_module_expr };

	if (module && !dp->body_owner)
		ast_walk_stmt(dp->body, &v);
}

/* Give dp (its family and loc set) the user's body, or owner's copy of it
 * (NULL: a copy of its own), and condition, and add it to the program. */
static void add_probe(struct elab *E, const struct derive *D, struct derived_probe *dp,
		      const struct probe_point *pp, const struct stmt *body,
		      const struct chain_link *chain, const struct derived_probe *owner)
{
	for (const struct chain_link *l = chain; l; l = l->next)
		vec_push(&dp->chain, (void *)program_text(E->P, l->text));
	if (E->o->check_version)
		note_version(E, D, dp, chain);
	/* what -l prints (see struct derive); NULL: the text of dp->loc */
	dp->list_name = D->list_name ? xstrdup(D->list_name) : NULL;
	dp->body = owner ? owner->body : stmt_dup(body);
	dp->body_owner = owner;
	default_cast_modules(dp);
	dp->cond = expr_dup(pp->cond);
	dp->origin = D->origin;
	/* an alias's probe is named by the user's point that asked for it */
	if (D->depth > 0)
		dp->user_point = D->user_point;
	vec_push(&E->P->probes, dp);
}

void family_point_free(const struct probe_family *fam, struct family_point *fp)
{
	if (!fp)
		return;
	free(fp->target);
	free(fp->module);
	free(fp->label);
	free(fp->callee);
	callee_callers_free(fp->callers);
	family_free_data(fam, fp->data);
	free(fp);
}

/* The concrete point of a family: pp's components as the pattern names
 * them, with the family's match in place of a glob: its target in
 * component target_comp, its module in a module("...") component
 * (module("9p*") names each probe by the module it is in) and in a
 * process("...") one (a user binary's resolved path: process("python3")
 * names its probes process("/usr/bin/python3.11")), and a label's in a
 * label("...") one.  all: keep the components the concrete point leaves
 * out (PC_RESOLVED), as the well-formed point has them. */
static struct probe_point *family_loc(const struct point_pattern *p,
				      const struct probe_point *pp,
				      const struct family_point *fp, bool all)
{
	struct probe_point *loc = probe_point_new(&pp->pos);

	for (int i = 0; i < p->n; i++) {
		const struct pp_comp *c = pp->comps.v[i];
		struct expr *arg = expr_dup(c->arg);

		const char *match = i == fp->target_comp ? fp->target
				    : !strcmp(p->c[i].name, "module") ||
				      !strcmp(p->c[i].name, "process") ? fp->module
				    : !strcmp(p->c[i].name, "label") ? fp->label : NULL;

		if ((p->c[i].flags & PC_RESOLVED) && !all) {
			expr_free(arg);
			continue;
		}
		/* .callees[(N)] names each callee as .callee("CALLEE") */
		if (fp->callee && !strcmp(p->c[i].name, "callees")) {
			expr_free(arg);
			arg = expr_new(E_STR, &c->pos);
			arg->str = xstrdup(fp->callee);
			arg->len = strlen(fp->callee);
			vec_push(&loc->comps, pp_comp_new(xstrdup("callee"), arg, &c->pos));
			continue;
		}
		if (!strcmp(p->c[i].name, "callee"))
			match = fp->callee;
		if (match && arg && arg->kind == E_STR) {
			free(arg->str);
			arg->str = xstrdup(match);
			arg->len = strlen(match);
		}
		vec_push(&loc->comps, pp_comp_new(xstrdup(p->c[i].name), arg, &c->pos));
	}
	loc->optional = pp->optional;
	loc->optional_inherited = pp->optional_inherited;
	loc->sufficient = pp->sufficient;
	loc->cond = expr_dup(pp->cond);
	return loc;
}

/* Give dp the point its family names it by (see derived_point); -l
 * keeps the name of the matched one. */
/* dp's point becomes named, with the condition (and, with marks, the
 * '?' and '!') of the one it replaces. */
static void replace_point(struct derived_probe *dp, struct probe_point *named, bool marks)
{
	if (marks) {
		named->optional = dp->loc->optional;
		named->optional_inherited = dp->loc->optional_inherited;
		named->sufficient = dp->loc->sufficient;
	}
	named->cond = dp->loc->cond;
	dp->loc->cond = NULL;
	probe_point_free(dp->loc);
	dp->loc = named;
}

static void rename_point(struct derived_probe *dp, struct probe_point *named)
{
	if (!named)
		return;
	if (!dp->list_name)
		dp->list_name = derived_list_name(dp);
	replace_point(dp, named, !dp->family->internal_points);
}

/* SystemTap's warning for a callee its caller calls last, by a jump:
 * when it runs, the stack no longer holds the caller's call. */
static void warn_tail_call(struct elab *E, const struct derived_probe *dp)
{
	const char *caller = "?";
	const struct srcpos *pos = &dp->loc->pos;

	for (size_t i = 0; i < dp->loc->comps.n; i++) {
		const struct pp_comp *c = dp->loc->comps.v[i];

		if (!strcmp(c->name, "function") && c->arg && c->arg->kind == E_STR)
			caller = c->arg->str;
		else if (!strcmp(c->name, "callee"))
			pos = &c->pos;
	}
	diag_warning(E->d, pos, "Callee \"%.*s\" in function \"%.*s\" is a tail call: .callee "
		     "probe may not fire. Try placing the probe directly on the callee "
		     "function instead.", (int)strcspn(dp->fp.callee, "@"), dp->fp.callee,
		     (int)strcspn(caller, "@"), caller);
}

/*
 * A .callee probe, as SystemTap derives it: from its caller's point
 * (FUNC.callee("CALLEE"), which -l lists and pn() and the derivation
 * chain name), a probe on the callee's function, which pp() names:
 * kernel.function("CALLEE") with the point's .call or .return.
 */
static void rename_callee(struct elab *E, struct derived_probe *dp, bool alias)
{
	struct probe_point *named = probe_point_new(&dp->loc->pos);
	char *full = pp_full_text(dp->loc);

	if (dp->fp.callers && dp->fp.callers->tail_call)
		warn_tail_call(E, dp);

	dp->chain.n = 0;
	vec_push(&dp->chain, (void *)program_text(E->P, full));
	free(full);
	if (!alias) {
		free(dp->list_name);
		dp->list_name = pp_text(dp->loc);
	}
	for (size_t i = 0; i < dp->loc->comps.n; i++) {
		const struct pp_comp *c = dp->loc->comps.v[i];
		struct expr *arg;

		if (!strcmp(c->name, "callee"))
			continue;
		arg = expr_dup(c->arg);
		if (!strcmp(c->name, "function") && arg && arg->kind == E_STR) {
			free(arg->str);
			arg->str = xstrdup(dp->fp.callee);
			arg->len = strlen(dp->fp.callee);
		}
		vec_push(&named->comps, pp_comp_new(xstrdup(c->name), arg, &c->pos));
	}
	replace_point(dp, named, true);
}

/* dp's well-formed point (derived_probe.wellformed): its point with the
 * components it leaves out (PC_RESOLVED), as its family names it (the
 * files it found in place of the user's paths and globs).  -l and pn()
 * name the probe so unless an alias does (alias). */
static void set_wellformed(struct derived_probe *dp, const struct point_pattern *p,
			   const struct probe_point *pp, bool alias)
{
	struct probe_point *all = family_loc(p, pp, &dp->fp, true), *loc = dp->loc, *named = NULL;

	dp->loc = all;
	if (dp->family->listed_point)
		named = dp->family->listed_point(dp);
	if (!named && dp->family->derived_point && !dp->family->chain_is_matched)
		named = dp->family->derived_point(dp);
	dp->loc = loc;
	if (named) {
		probe_point_free(all);
		all = named;
	}
	dp->wellformed = pp_text(all);
	if (!alias) {
		free(dp->list_name);
		dp->list_name = NULL;
		dp->list_wellformed = true;
	}
	probe_point_free(all);
}

/* A point matched pattern p of family fam: one derived probe
 * for each concrete point the family finds.  wild: a wildcard among
 * pp's components matched the pattern; as in SystemTap, finding nothing
 * there is no error (kernel.function("f").* of a function never inlined
 * has no .inline), only when no match of the wildcard finds anything. */
static const char *no_match_kind(const struct family_error *err)
{
	if (!err->msg)
		return "no match";
	if (err->kind != FAMILY_ERR_NO_MATCH)
		return NULL;
	return strcmp(err->msg, "no match") ? "no match (similar)" : "no match";
}

static int derive_family(struct elab *E, struct derive *D, const struct probe_family *fam,
			 const struct point_pattern *p, const struct probe_point *pp,
			 const struct stmt *body, const struct chain_link *chain, bool wild)
{
	struct vec points = { 0 };
	struct family_error err = { .guru = E->o->guru };
	int n = fam->expand(p, pp, &points, &err);
	const struct derived_probe *owner = NULL;
	bool share;

	for (size_t i = 0; i < err.warnings.n; i++) {
		sem_warn(E, &D->origin->pos, "keyword", "%s", (char *)err.warnings.v[i]);
		free(err.warnings.v[i]);
	}
	vec_free(&err.warnings);
	for (size_t i = 0; i < err.plain_warnings.n; i++) {
		diag_warning(E->d, NULL, "%s", (char *)err.plain_warnings.v[i]);
		free(err.plain_warnings.v[i]);
	}
	vec_free(&err.plain_warnings);
	free(err.what);
	/* no message: the family had nothing more to say than "no match" */
	if (n < 0 && wild && (!err.msg || err.kind == FAMILY_ERR_NO_MATCH)) {
		free(err.msg);
		for (size_t i = 0; i < points.n; i++)
			family_point_free(fam, points.v[i]);
		vec_free(&points);
		return 0;
	}
	if (n < 0) {
		/* "no match (similar functions: ...)" is one kind whatever
		 * its suggestions, and a plain "no match" another (stap
		 * raises them in different places); another family error is
		 * its own kind */
		defer_error(D, &err.pos, no_match_kind(&err),
			    err.msg ? err.msg : xstrdup("no match"));
		for (size_t i = 0; i < points.n; i++)
			family_point_free(fam, points.v[i]);
		vec_free(&points);
		return -1;
	}
	share = points.n > 1 && body_shareable(E, body);
	for (size_t i = 0; i < points.n; i++) {
		struct family_point *fp = points.v[i];
		struct derived_probe *dp = xcalloc(1, sizeof(*dp));
		bool concrete;

		dp->family = fam;
		dp->runs = !fam->never_runs;
		dp->variant = p->variant;
		dp->fp = *fp;
		free(fp);
		dp->loc = family_loc(p, pp, &dp->fp, false);
		add_probe(E, D, dp, pp, body, chain, owner);
		if (share && !owner)
			owner = dp;
		/* named as if the user had written the point itself (an
		 * internal family's, __syscall(N), and never keep the
		 * alias's name) */
		concrete = D->list_concrete && !fam->internal_points && !fam->never_runs;
		if (concrete) {
			free(dp->list_name);
			dp->list_name = NULL;
		}
		if (fam->print_point || fam->chain_is_matched)
			set_wellformed(dp, p, pp, D->list_name != NULL && !concrete);
		if (fam->derived_point)
			rename_point(dp, fam->derived_point(dp));
		if (dp->fp.callee)
			rename_callee(E, dp, D->list_name != NULL && !concrete);
		dp->list_by_point = !D->list_name || concrete;
	}
	n = (int)points.n;
	vec_free(&points);
	return n;
}

static void recursion_error(struct derive *D, const struct probe_point *pp)
{
	const struct pp_comp *c = pp->comps.v[0];
	char *t = pp_full_text(pp);

	defer_error(D, &c->pos, "recursive loop", xasprintf(
		"recursive loop in alias expansion of %s at %s:%d:%d",
		t, c->pos.file->name, c->pos.line, c->pos.col));
	free(t);
}

/* A copy of an alias's prologue or epilogue for one expansion around
 * body, with its @probewrite(v) decided for body. */
static struct stmt *alias_part(const struct stmt *part, const struct stmt *body)
{
	struct stmt *copy = stmt_dup(part);

	probewrite_fold(copy, body);
	return copy;
}

/* Expand pp through alias a, whose name matched pp's first k
 * components; the rest of pp is a suffix for each alias location. */
static int expand_alias(struct elab *E, struct derive *D, const struct alias_ref *r,
			int k, const struct probe_point *pp, const struct stmt *body,
			const struct chain_link *chain, bool parent_optional)
{
	const struct probe_alias *a = r->a;
	struct stmt *blk;
	struct chain_link link = { .next = chain, .alias = r->a };
	int total = 0;
	bool again = false;

	if (D->depth >= MAX_ALIAS_DEPTH) {
		recursion_error(D, pp);
		return -1;
	}
	/* As SystemTap, an alias is expanded again inside itself, and it
	 * is a location of that second expansion that is named: stap
	 * checks the alias of the probe a location belongs to against the
	 * aliases that derived it. */
	for (int i = 0; i < D->depth; i++)
		if (D->stack[i] == a)
			again = true;
	D->stack[D->depth++] = a;

	/* "=" runs the alias body first, "+=" after the user's body;
	 * "= POINTS { prologue }, { epilogue }" does both. */
	blk = stmt_new(S_BLOCK, &body->pos);
	if (!a->epilogue)
		vec_push(&blk->stmts, alias_part(a->body, body));
	vec_push(&blk->stmts, stmt_dup(body));
	if (a->epilogue)
		vec_push(&blk->stmts, alias_part(a->body, body));
	if (a->epi_body)
		vec_push(&blk->stmts, alias_part(a->epi_body, body));
	link.text = alias_text(a);

	for (size_t i = 0; i < a->points.n && !D->failed; i++) {
		const struct probe_point *loc = a->points.v[i];
		struct probe_point *np = probe_point_dup(loc);
		int n;

		expr_free(np->cond);
		np->cond = and_cond(loc->cond, pp->cond);
		/* As in SystemTap, a "?" on the point naming the alias (or
		 * on any alias above it) makes each of its locations
		 * optional: one its kernel lacks resolves to nothing.  Its
		 * -p2 text keeps only the marks the alias wrote. */
		if (!np->optional && (parent_optional || pp->optional)) {
			np->optional = true;
			np->optional_inherited = true;
		}
		for (size_t j = (size_t)k; j < pp->comps.n; j++)
			vec_push(&np->comps, pp_comp_dup(pp->comps.v[j]));
		if (again) {
			recursion_error(D, np);
			note_level(D, np);
			probe_point_free(np);
			break;
		}
		n = derive_point(E, D, np, blk, &link, parent_optional || pp->optional);
		probe_point_free(np);
		if (n > 0) {
			total += n;
			use_file(E, r->file);
		}
		if (n > 0 && loc->sufficient)
			break;
	}
	D->depth--;
	stmt_free(blk);
	free(link.text);
	return D->failed ? -1 : total;
}

/* Whether pp's first k components are a whole point of a family or an
 * alias: what follows them is then a bad suffix, not a mismatch. */
static bool whole_point_prefix(struct elab *E, const struct probe_point *pp, int k)
{
	const struct point_pattern *pat;
	const struct probe_family *fam;

	for (size_t i = 0; (pat = pattern_nth(i, &fam)); i++)
		if (pat->n == k && pattern_prefix(pp, pat) >= k)
			return true;
	for (size_t i = 0; i < E->aliases.n; i++) {
		const struct alias_ref *r = E->aliases.v[i];

		for (size_t j = 0; j < r->a->names.n; j++) {
			const struct probe_point *nm = r->a->names.v[j];

			if ((int)nm->comps.n == k && alias_prefix(pp, nm) >= k)
				return true;
		}
	}
	return false;
}

/* The names that would have fitted at component idx of pp (a wildcard
 * compared by what precedes its first '*'), as stap's " (similar: ...)":
 * past the first component the family table and the tapsets the first
 * one loaded hold every candidate, so the nearest five are named
 * whatever their distance, as stap does; the first component's
 * candidates are only those of the tapsets loaded, so only close ones. */
static char *point_suggestion(struct elab *E, const struct probe_point *pp, int idx,
			      const char *functor)
{
	const struct point_pattern *pat;
	const struct probe_family *fam;
	struct vec names = { 0 };
	struct nearest nr;
	char *sugg;

	for (size_t i = 0; (pat = pattern_nth(i, &fam)); i++)
		if (pat->n > idx && pattern_prefix(pp, pat) >= idx)
			vec_push(&names, (void *)pat->c[idx].name);
	for (size_t i = 0; i < E->aliases.n; i++) {
		const struct alias_ref *r = E->aliases.v[i];

		for (size_t j = 0; j < r->a->names.n; j++) {
			const struct probe_point *nm = r->a->names.v[j];

			if ((int)nm->comps.n > idx && alias_prefix(pp, nm) >= idx)
				vec_push(&names, ((struct pp_comp *)nm->comps.v[idx])->name);
		}
	}
	if (idx == 0) {
		sugg = sem_suggest(functor, (const char *const *)names.v, (int)names.n);
	} else {
		nearest_init(&nr, functor);
		for (size_t i = 0; i < names.n; i++)
			nearest_offer(&nr, names.v[i]);
		sugg = nearest_similar(&nr);
	}
	vec_free(&names);
	return sugg;
}

static void point_mismatch(struct elab *E, struct derive *D,
			   const struct probe_point *pp, int depth_ok)
{
	int idx = depth_ok < (int)pp->comps.n ? depth_ok : (int)pp->comps.n - 1;
	const struct pp_comp *bad = pp->comps.v[idx];
	const char *star = strchr(bad->name, '*');
	char *functor, *sugg;

	if (idx > 0 && !star && whole_point_prefix(E, pp, idx)) {
		char what[300];

		if (tok_is_keyword(bad->name))
			snprintf(what, sizeof(what), "keyword");
		else
			snprintf(what, sizeof(what), "identifier '%s'", bad->name);
		defer_error(D, &bad->pos, "invalid suffix", xasprintf(
			"invalid suffix for probe: %s at %s:%d:%d",
			what, bad->pos.file->name, bad->pos.line, bad->pos.col));
		return;
	}
	functor = xstrdup(bad->name);
	if (star && star != bad->name)
		functor[star - bad->name] = '\0';
	sugg = point_suggestion(E, pp, idx, functor);
	E->d->library_named = true;
	defer_error(D, &bad->pos, "probe point mismatch", xasprintf(
		"probe point mismatch%s%s: identifier '%s' at %s:%d:%d",
		star ? ": didn't find any wildcard matches" : "", sugg, bad->name,
		bad->pos.file->name, bad->pos.line, bad->pos.col));
	free(sugg);
	free(functor);
}

/* A point the --privilege level does not allow: SystemTap's error, at the
 * point's last component (for an alias, in the alias's own points). */
static void refuse_point(struct elab *E, struct derive *D, const struct probe_point *pp)
{
	const struct pp_comp *last = pp->comps.v[pp->comps.n - 1];

	defer_error(D, &last->pos, "not allowed", xasprintf(
		"probe point is not allowed for --privilege=%s: identifier '%s' at %s:%d:%d",
		privilege_name(privilege_level(E)), last->name,
		last->pos.file->name, last->pos.line, last->pos.col));
}

static bool has_wildcard(const struct probe_point *pp, int k)
{
	for (int i = 0; i < k; i++)
		if (strchr(((struct pp_comp *)pp->comps.v[i])->name, '*'))
			return true;
	return false;
}

/* Whether a component of pp from the k'th on has a wildcard in its name
 * (not in its argument: "ALIAS.callee("f*")" is still listed by the
 * alias's name, as by stap). */
static bool suffix_has_wildcard(const struct probe_point *pp, int k)
{
	for (size_t i = (size_t)k; i < pp->comps.n; i++)
		if (strchr(((struct pp_comp *)pp->comps.v[i])->name, '*'))
			return true;
	return false;
}

/*
 * Whether alias name nm, which matched the first components of pp, gives
 * way to a longer alias name that matches more of pp along the same path
 * (syscall.read.return over syscall.read plus the suffix .return): as in
 * SystemTap, a suffix is tried only where no longer name matches.
 */
static bool shadowed_alias(struct elab *E, const struct probe_point *pp,
			   const struct probe_point *nm)
{
	size_t k = nm->comps.n;

	if (pp->comps.n <= k)
		return false;	/* nothing longer can match all of pp */
	for (size_t i = 0; i < E->aliases.n; i++) {
		const struct alias_ref *r = E->aliases.v[i];

		for (size_t j = 0; j < r->a->names.n; j++) {
			const struct probe_point *longer = r->a->names.v[j];
			size_t m = 0;

			if (longer->comps.n <= k ||
			    alias_prefix(pp, longer) != (int)longer->comps.n)
				continue;
			while (m < k && !strcmp(((struct pp_comp *)longer->comps.v[m])->name,
						((struct pp_comp *)nm->comps.v[m])->name))
				m++;
			if (m == k)
				return true;
		}
	}
	return false;
}

/* The index of pp's first component with a "**" in its name, or -1. */
static int dglob_comp(const struct probe_point *pp)
{
	for (size_t i = 0; i < pp->comps.n; i++)
		if (strstr(((struct pp_comp *)pp->comps.v[i])->name, "**"))
			return (int)i;
	return -1;
}

/* The most components any alias name or family pattern has: how many
 * whole components a "**" may stand for. */
static int longest_point(const struct elab *E)
{
	const struct point_pattern *p;
	const struct probe_family *fam;
	int most = 1;

	for (size_t i = 0; (p = pattern_nth(i, &fam)); i++)
		if (p->n > most)
			most = p->n;
	for (size_t i = 0; i < E->aliases.n; i++) {
		const struct alias_ref *r = E->aliases.v[i];

		for (size_t j = 0; j < r->a->names.n; j++) {
			const struct probe_point *nm = r->a->names.v[j];

			if ((int)nm->comps.n > most)
				most = (int)nm->comps.n;
		}
	}
	return most;
}

/* pp with its component i, "X**Y", as run components: "X*Y" for one,
 * else "X*", run - 2 times "*", and "*Y" with the component's argument. */
static struct probe_point *dglob_point(const struct probe_point *pp, int i, int run)
{
	const struct pp_comp *c = pp->comps.v[i];
	const char *dd = strstr(c->name, "**");
	int xlen = (int)(dd - c->name);
	struct probe_point *np = probe_point_new(&pp->pos);

	for (int j = 0; j < i; j++)
		vec_push(&np->comps, pp_comp_dup(pp->comps.v[j]));
	if (run == 1) {
		vec_push(&np->comps, pp_comp_new(xasprintf("%.*s*%s", xlen, c->name, dd + 2),
						 expr_dup(c->arg), &c->pos));
	} else {
		vec_push(&np->comps, pp_comp_new(xasprintf("%.*s*", xlen, c->name), NULL,
						 &c->pos));
		for (int j = 0; j < run - 2; j++)
			vec_push(&np->comps, pp_comp_new(xstrdup("*"), NULL, &c->pos));
		vec_push(&np->comps, pp_comp_new(xasprintf("*%s", dd + 2), expr_dup(c->arg),
						 &c->pos));
	}
	for (size_t j = (size_t)i + 1; j < pp->comps.n; j++)
		vec_push(&np->comps, pp_comp_dup(pp->comps.v[j]));
	np->optional = pp->optional;
	np->optional_inherited = pp->optional_inherited;
	np->sufficient = pp->sufficient;
	np->cond = expr_dup(pp->cond);
	return np;
}

static int derive_point_q(struct elab *E, struct derive *D,
			  const struct probe_point *pp, const struct stmt *body,
			  const struct chain_link *chain, bool parent_optional, bool quiet);

/*
 * SystemTap's "**": a component "X**Y" matches a run of whole components
 * (sys**open is syscall.open, nd_syscall.mq_open ...).  Each length of
 * run is derived as a point of its own; those that match nothing drop
 * out, and only when none matches is pp a mismatch.
 */
static int derive_dglob(struct elab *E, struct derive *D, const struct probe_point *pp,
			int i, const struct stmt *body, const struct chain_link *chain,
			bool parent_optional)
{
	int most = longest_point(E), total = 0;

	for (int run = 1; run <= most; run++) {
		struct probe_point *np = dglob_point(pp, i, run);
		int n = derive_point_q(E, D, np, body, chain, parent_optional, true);

		probe_point_free(np);
		if (D->failed)
			return -1;
		total += n;
	}
	if (total == 0 && !pp->optional && !parent_optional) {
		point_mismatch(E, D, pp, i);
		return -1;
	}
	return total;
}

static int derive_point(struct elab *E, struct derive *D,
			const struct probe_point *pp, const struct stmt *body,
			const struct chain_link *chain, bool parent_optional)
{
	return derive_point_q(E, D, pp, body, chain, parent_optional, false);
}

/* quiet: a point that matches nothing is no error (one of a "**"'s runs). */
static int derive_point_q(struct elab *E, struct derive *D,
			  const struct probe_point *pp, const struct stmt *body,
			  const struct chain_link *chain, bool parent_optional, bool quiet)
{
	bool optional = pp->optional || parent_optional;
	int total = 0, best = 0;
	bool alias_named = false;	/* an alias named whole: no suffix, no wildcard */
	int dg = dglob_comp(pp);

	if (dg >= 0)
		return derive_dglob(E, D, pp, dg, body, chain, parent_optional);

	for (size_t i = 0; i < E->aliases.n && !D->failed; i++) {
		const struct alias_ref *r = E->aliases.v[i];

		for (size_t j = 0; j < r->a->names.n; j++) {
			const struct probe_point *nm = r->a->names.v[j];
			int k = alias_prefix(pp, nm);
			char *outer_name;
			bool outer_concrete, renamed;
			int n;

			if (k > best)
				best = k;
			if (k != (int)nm->comps.n || shadowed_alias(E, pp, nm))
				continue;
			/* named as SystemTap names a derivation: by its
			 * outermost well-formed point, so an outer alias
			 * whose suffix has a wildcard gives way to this one */
			outer_name = D->list_name;
			outer_concrete = D->list_concrete;
			renamed = !outer_name || outer_concrete;
			if (renamed) {
				struct strbuf sb = STRBUF_INIT;

				pp_comps_text(&sb, nm, 0, nm->comps.n);
				pp_comps_text(&sb, pp, (size_t)k, pp->comps.n);
				D->list_name = strbuf_detach(&sb);
				D->list_concrete = suffix_has_wildcard(pp, k);
			}
			if (has_wildcard(pp, k)) {
				/* As SystemTap does, a wildcard skips the
				 * matches whose expansion fails. */
				struct derive saved = *D;

				n = expand_alias(E, D, r, k, pp, body, chain, parent_optional);
				if (D->failed) {
					restore_derive(D, &saved);
					n = 0;
				}
			} else {
				n = expand_alias(E, D, r, k, pp, body, chain, parent_optional);
				alias_named = k == (int)pp->comps.n;
			}
			if (renamed) {
				free(D->list_name);
				D->list_name = outer_name;
				D->list_concrete = outer_concrete;
			}
			if (n > 0)
				total += n;
			break;
		}
	}
	const struct probe_family *fam, *failed_fam = NULL;
	const struct point_pattern *p, *failed_p = NULL;

	for (size_t i = 0; (p = pattern_nth(i, &fam)) && !D->failed; i++) {
		int k = pattern_prefix(pp, p);
		int n;

		if (k > best)
			best = k;
		if (k != p->n || p->n != (int)pp->comps.n)
			continue;
		if (!pattern_allowed(E, fam, p)) {
			refuse_point(E, D, pp);
			break;
		}
		if (optional || has_wildcard(pp, p->n)) {
			/* SystemTap's '?': a point that fails to resolve,
			 * missing debuginfo included, is skipped.  So is one
			 * a wildcard named (process.plt without a target
			 * under process.*) while others resolve; when none
			 * does, the first failure is the error (below). */
			struct derive saved = *D;

			n = derive_family(E, D, fam, p, pp, body, chain, !optional);
			if (D->failed) {
				restore_derive(D, &saved);
				n = 0;
				if (!failed_p) {
					failed_p = p;
					failed_fam = fam;
				}
			}
		} else {
			n = derive_family(E, D, fam, p, pp, body, chain, false);
		}
		if (n > 0)
			total += n;
	}
	if (!D->failed && total == 0 && failed_p && !optional && !quiet)
		derive_family(E, D, failed_fam, failed_p, pp, body, chain, true);
	if (!D->failed && total == 0 && !optional && !quiet) {
		if (alias_named)
			alias_no_match(D, pp);
		else
			point_mismatch(E, D, pp, best);
	}
	if (D->failed) {
		note_level(D, pp);
		return -1;
	}
	return total;
}

/*
 * D's failure below the user's point pp, as SystemTap reports it: the
 * innermost point that failed with the error, then each point out to pp
 * with a plain "no match" (all but the first of those held back as
 * similar).  A bad suffix is pp's own: the points it was appended to are
 * not named.
 */
static void report_failure(struct elab *E, struct derive *D, const struct probe_point *pp)
{
	const struct pp_comp *first = pp->comps.v[0];
	int from = 0, n = D->nlevels;
	char what[300];

	if (n == 0 || (D->deferred_kind && !strcmp(D->deferred_kind, "invalid suffix")))
		from = n > 0 ? n - 1 : 0;
	for (int i = from; i < n || i == from; i++) {
		const struct srcpos *pos = i < n ? &D->levels[i].pos : &first->pos;

		ident_what(what, sizeof(what), i < n ? D->levels[i].name : first->name);
		diag_chain_begin(E->d);
		sem_error(E, pos, what, "while resolving probe point");
		if (i == from)
			diag_error_keyed(E->d, D->deferred_unplaced ? NULL : &D->deferred_pos,
					 "semantic error",
					 D->deferred_kind, "%s", D->deferred_msg);
		else
			diag_error_keyed(E->d, NULL, "semantic error", "no match", "no match");
		diag_chain_end(E->d);
	}
	free(D->deferred_msg);
	for (int i = 0; i < n; i++)
		free(D->levels[i].name);
	D->nlevels = 0;
}

void derive_probe(struct elab *E, const struct probe *p)
{
	struct derive D = { .origin = p };
	struct chain_link user = { .text = points_text(&p->points, ",") };

	for (size_t i = 0; i < p->points.n; i++) {
		const struct probe_point *pp = p->points.v[i];
		int n;

		D.user_point = pp;
		n = derive_point(E, &D, pp, p->body, &user, false);

		if (D.deferred)
			report_failure(E, &D, pp);
		if (D.failed)
			break;
		if (n > 0 && pp->sufficient)
			break;
	}
	free(user.text);
}

