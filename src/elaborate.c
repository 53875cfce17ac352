/* Pass 2: probe point derivation, name resolution, type inference and
 * unused-code elimination (see elaborate.h).
 *
 * The order follows SystemTap's semantic pass: derive probes (aliases
 * expanded), resolve symbols in every probe and every user function
 * (pulling in library functions and globals on demand), drop what is not
 * used, then infer types to a fixed point and report what stays
 * unresolved.
 */
#include "elaborate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "lookup.h"
#include "regcomp.h"
#include "sem_foreach.h"
#include "sem_limits.h"
#include "sem_target.h"
#include "util.h"

#define MAX_ALIAS_DEPTH 32

struct alias_ref {
	const struct probe_alias *a;
	const struct srcfile *file;
};

struct elab {
	const struct elab_options *o;
	struct diag *d;
	struct program *P;
	struct script **user;
	int n_user;
	struct vec fns;		/* struct sem_function *: user ones first */
	struct vec globals;	/* struct vardecl *: every declared global */
	struct namemap fn_names;	/* name -> fns of that name, in order */
	struct namemap global_names;	/* name -> globals of that name */
	struct vec aliases;	/* struct alias_ref * */
	struct vec work;	/* functions to resolve */
	/* Library files: once anything of a file is used, its probes join
	 * the program too (as SystemTap pulls in the whole file). */
	struct script **lib;
	int n_lib;
	bool *lib_used, *lib_done;
};

static void use_file(struct elab *E, const struct srcfile *f)
{
	for (int i = 0; i < E->n_lib; i++)
		if (E->lib[i]->file == f)
			E->lib_used[i] = true;
}

/* ---- privilege ----------------------------------------------------- */

/* The --privilege level the script is checked against. */
static unsigned privilege_level(const struct elab *E)
{
	return E->o->privilege ? E->o->privilege : PRIV_STAPDEV;
}

/* --privilege=stapusr: only what SystemTap lets its stapusr members use. */
static bool stapusr_only(const struct elab *E)
{
	return privilege_is_stapusr(privilege_level(E));
}

/* Whether the level allows the points of pattern p of family fam (NULL:
 * the built-in begin, end, error, never and timer.* points, open to all,
 * as in SystemTap). */
static bool pattern_allowed(const struct elab *E, const struct point_family *fam,
			    const struct point_pattern *p)
{
	if (!stapusr_only(E) || !fam)
		return true;
	return fam->unprivileged && fam->unprivileged(p);
}

/* Embedded C that users of the level may run: everything at stapsys and
 * above, at stapusr only code marked unprivileged or myproc-unprivileged
 * (the latter checked at run time to run in the user's own processes). */
static bool embedded_allowed(const struct elab *E, unsigned pragmas)
{
	return !stapusr_only(E) ||
	       (pragmas & (PRAGMA_UNPRIVILEGED | PRAGMA_MYPROC_UNPRIVILEGED));
}

/* ---- pointer map --------------------------------------------------- */

static size_t ptr_hash(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

static struct sem_ref *ptrmap_get(const struct ptrmap *m, const void *k)
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

static struct sem_ref *ptrmap_ref(struct ptrmap *m, const void *k)
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

/* ---- deep copies of statements (each derived probe owns its body) ---- */

static struct stmt *stmt_dup(const struct stmt *s);

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

static struct stmt *stmt_dup(const struct stmt *s)
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

/* ---- diagnostics ----------------------------------------------------- */

/* SystemTap names the token an error is about: "identifier 'x'". */
static char *describe_expr(const struct expr *e)
{
	const char *op;

	switch (e->kind) {
	case E_NUM:
		return xasprintf("number '%" PRId64 "'", e->num);
	case E_STR:
		return xasprintf("string '\"%s\"'", e->str);
	case E_SYM: case E_CALL: case E_PRINT:
		return xasprintf("identifier '%s'", e->name);
	case E_INDEX: case E_IN:
		if (e->a && e->a->kind == E_SYM)
			return xasprintf("identifier '%s'", e->a->name);
		return xstrdup("operator '['");
	case E_TARGET:
		return xasprintf("identifier '%s'", e->name);
	case E_BINARY: case E_ASSIGN: case E_UNARY: case E_PREINC:
	case E_POSTINC:
		op = tok_spelling((enum tok_kind)e->op);
		return xasprintf("operator '%s'", op ? op : "?");
	case E_TERNARY:
		return xstrdup("operator '?'");
	case E_ATOP:
		return xasprintf("operator '%s'", e->name ? e->name : "@");
	case E_STAT: case E_HIST: case E_DEFINED: case E_ENTRY: case E_VAR:
	case E_CAST:
		return xstrdup("operator '@'");
	default:
		return xstrdup("expression");
	}
}

/* "MSG: WHAT at FILE:LINE:COL", the text of a semantic error or warning. */
__attribute__((format(printf, 3, 0)))
static char *sem_message(const struct srcpos *pos, const char *what,
			 const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	if (what && pos && pos->file)
		strbuf_addf(&sb, ": %s at %s:%d:%d", what, pos->file->name,
			    pos->line, pos->col);
	return strbuf_detach(&sb);
}

__attribute__((format(printf, 4, 0)))
static void sem_verror(struct diag *d, const struct srcpos *pos, const char *what,
		       const char *fmt, va_list ap)
{
	char *msg = sem_message(pos, what, fmt, ap);

	diag_error(d, pos, "semantic error", "%s", msg);
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

__attribute__((format(printf, 4, 5)))
static void sem_error(struct elab *E, const struct srcpos *pos, const char *what,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sem_verror(E->d, pos, what, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 4, 5)))
static void sem_warn(struct elab *E, const struct srcpos *pos, const char *what,
		     const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = sem_message(pos, what, fmt, ap);
	va_end(ap);
	diag_warning(E->d, pos, "%s", msg);
	free(msg);
}

static void ident_what(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "identifier '%s'", name);
}

/* ---- declarations ------------------------------------------------------ */

static struct vardecl *var_new(struct elab *E, const char *name,
			       const struct srcpos *pos)
{
	struct vardecl *v = xcalloc(1, sizeof(*v));

	v->name = xstrdup(name);
	v->pos = *pos;
	v->arity = -1;
	vec_push(&E->P->all_vars, v);
	return v;
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
		struct alias_ref *r = xcalloc(1, sizeof(*r));

		r->a = sc->aliases.v[i];
		r->file = sc->file;
		vec_push(&E->aliases, r);
	}
}

static bool visible(bool is_private, const struct srcfile *decl_file,
		    const struct srcfile *from)
{
	return !is_private || decl_file == from;
}

/* ---- probe point derivation ---------------------------------------------- */

/* The concrete probe points of the built-in families. */
#define pattern point_pattern

#define TIMER_PAT(unit, ns) \
	{ DP_TIMER, ns, 0, 2, { { "timer", PA_NONE }, { unit, PA_NUM } } }, \
	{ DP_TIMER, ns, 0, 3, { { "timer", PA_NONE }, { unit, PA_NUM }, \
				{ "randomize", PA_NUM } } }

static const struct pattern patterns[] = {
	{ DP_BEGIN, 0, 0, 1, { { "begin", PA_OPTNUM } } },
	{ DP_END, 0, 0, 1, { { "end", PA_OPTNUM } } },
	{ DP_ERROR, 0, 0, 1, { { "error", PA_OPTNUM } } },
	{ DP_NEVER, 0, 0, 1, { { "never", PA_NONE } } },
	TIMER_PAT("s", 1000000000),
	TIMER_PAT("sec", 1000000000),
	TIMER_PAT("ms", 1000000),
	TIMER_PAT("msec", 1000000),
	TIMER_PAT("us", 1000),
	TIMER_PAT("usec", 1000),
	TIMER_PAT("ns", 1),
	TIMER_PAT("nsec", 1),
	{ DP_JIFFIES, 0, 0, 2, { { "timer", PA_NONE }, { "jiffies", PA_NUM } } },
	{ DP_JIFFIES, 0, 0, 3, { { "timer", PA_NONE }, { "jiffies", PA_NUM },
				 { "randomize", PA_NUM } } },
	{ DP_HZ, 0, 0, 2, { { "timer", PA_NONE }, { "hz", PA_NUM } } },
};
#define N_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))

/* Pattern i of all patterns: the built-in ones, then each kernel event
 * family's (*fam says whose, NULL for built-in); NULL past the end. */
static const struct point_pattern *pattern_nth(size_t i, const struct point_family **fam)
{
	*fam = NULL;
	if (i < N_PATTERNS)
		return &patterns[i];
	i -= N_PATTERNS;
	for (size_t f = 0; point_families[f]; f++) {
		if (i < point_families[f]->n_patterns) {
			*fam = point_families[f];
			return &point_families[f]->patterns[i];
		}
		i -= point_families[f]->n_patterns;
	}
	return NULL;
}

static bool comp_matches(const struct pp_comp *c, const struct pat_comp *p)
{
	if (!sem_wildcard_match(c->name, p->name))
		return false;
	switch (p->arg) {
	case PA_NONE: return !c->arg;
	case PA_NUM: return c->arg && c->arg->kind == E_NUM;
	case PA_OPTNUM: return !c->arg || c->arg->kind == E_NUM;
	case PA_STR: return c->arg && c->arg->kind == E_STR;
	default: return !c->arg || c->arg->kind == E_STR;
	}
}

/* How many leading components of pp match the pattern. */
static int pattern_prefix(const struct probe_point *pp, const struct pattern *p)
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

		if (u->arg || a->arg || !sem_wildcard_match(u->name, a->name))
			break;
		k++;
	}
	return k;
}

/* Expressions in probe point conditions print as SystemTap prints them:
 * every operand of an operator in parentheses. */
static void stap_expr(struct strbuf *sb, const struct expr *e)
{
	const char *op;

	if (!e)
		return;
	switch (e->kind) {
	case E_NUM:
		strbuf_addf(sb, "%" PRId64, e->num);
		return;
	case E_STR:
		strbuf_addc(sb, '"');
		strbuf_addn(sb, e->str, e->len);
		strbuf_addc(sb, '"');
		return;
	case E_SYM:
		strbuf_adds(sb, e->name);
		return;
	case E_BINARY: case E_ASSIGN:
		op = tok_spelling((enum tok_kind)e->op);
		strbuf_addc(sb, '(');
		stap_expr(sb, e->a);
		strbuf_addf(sb, ") %s (", op ? op : "?");
		stap_expr(sb, e->b);
		strbuf_addc(sb, ')');
		return;
	case E_UNARY: case E_PREINC:
		op = tok_spelling((enum tok_kind)e->op);
		strbuf_addf(sb, "%s(", op ? op : "?");
		stap_expr(sb, e->a);
		strbuf_addc(sb, ')');
		return;
	case E_POSTINC:
		op = tok_spelling((enum tok_kind)e->op);
		strbuf_addc(sb, '(');
		stap_expr(sb, e->a);
		strbuf_addf(sb, ")%s", op ? op : "?");
		return;
	case E_TERNARY:
		strbuf_addc(sb, '(');
		stap_expr(sb, e->a);
		strbuf_adds(sb, ") ? (");
		stap_expr(sb, e->b);
		strbuf_adds(sb, ") : (");
		stap_expr(sb, e->c);
		strbuf_addc(sb, ')');
		return;
	case E_CALL: case E_INDEX:
		if (e->kind == E_CALL)
			strbuf_adds(sb, e->name);
		else
			stap_expr(sb, e->a);
		strbuf_addc(sb, e->kind == E_CALL ? '(' : '[');
		for (size_t i = 0; i < e->args.n; i++) {
			if (i)
				strbuf_adds(sb, ", ");
			if (e->args.v[i])
				stap_expr(sb, e->args.v[i]);
			else
				strbuf_addc(sb, '*');
		}
		strbuf_addc(sb, e->kind == E_CALL ? ')' : ']');
		return;
	default: {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ast_print_expr(f, e);
		fclose(f);
		strbuf_adds(sb, buf);
		free(buf);
		return;
	}
	}
}

/* probe_point::print: components, then ! or ?, then the condition. */
/* Components [from, to) of pp: "name(arg).name...". */
static void comps_text(struct strbuf *sb, const struct probe_point *pp, size_t from,
		       size_t to)
{
	for (size_t i = from; i < to && i < pp->comps.n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		if (sb->len)
			strbuf_addc(sb, '.');
		strbuf_adds(sb, c->name);
		if (c->arg) {
			strbuf_addc(sb, '(');
			stap_expr(sb, c->arg);
			strbuf_addc(sb, ')');
		}
	}
}

static char *point_text(const struct probe_point *pp)
{
	struct strbuf sb = STRBUF_INIT;

	comps_text(&sb, pp, 0, pp->comps.n);
	if (pp->sufficient)
		strbuf_addc(&sb, '!');
	else if (pp->optional)
		strbuf_addc(&sb, '?');
	if (pp->cond) {
		strbuf_adds(&sb, " if (");
		stap_expr(&sb, pp->cond);
		strbuf_addc(&sb, ')');
	}
	return strbuf_detach(&sb);
}

static char *points_text(const struct vec *v, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->n; i++) {
		char *t = point_text(v->v[i]);

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
		t = point_text(a->names.v[i]);
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

struct derive {
	const struct probe *origin;
	bool failed;
	/* The aliases being expanded, outermost first (recursion check). */
	const struct probe_alias *stack[MAX_ALIAS_DEPTH];
	int depth;
	/* The first failure below a user's probe point, reported after the
	 * "while resolving" line for that point. */
	bool deferred;
	struct srcpos deferred_pos;
	char *deferred_msg;
	/* -l/-L: the name the user's point resolved to at the top level:
	 * the alias's name and the user's suffix, while that alias is
	 * being expanded; else NULL and the concrete point names itself. */
	char *list_name;
};

static int derive_point(struct elab *E, struct derive *D,
			const struct probe_point *pp, const struct stmt *body,
			const char *chain, bool parent_optional);

static void defer_error(struct derive *D, const struct srcpos *pos, char *msg)
{
	D->failed = true;
	if (D->deferred) {
		free(msg);
		return;
	}
	D->deferred = true;
	D->deferred_pos = *pos;
	D->deferred_msg = msg;
}

/*
 * SystemTap's bounds for timers, checked where it checks them (its timer
 * tapset): timer.s/ms/us/ns periods run from 100 us to one day, in
 * nanoseconds; timer.hz(N) is a period of ceil(1e9 / N) ns under the same
 * bounds; timer.jiffies(N) takes 1 to 1000000 jiffies; a randomize is at
 * most the period.
 */
#define TIMER_MIN_NS	INT64_C(100000)
#define TIMER_MAX_NS	(INT64_C(86400) * 1000000000)
#define JIFFIES_MAX	INT64_C(1000000)

/* The failure of a timer argument, reported after "while resolving
 * probe point" as SystemTap chains it. */
static void timer_arg_error(struct derive *D, const struct pp_comp *c, char *msg)
{
	defer_error(D, &c->arg->pos, xasprintf("%s: number '%" PRId64 "' at %s:%d:%d",
					       msg, c->arg->num, c->arg->pos.file->name,
					       c->arg->pos.line, c->arg->pos.col));
	free(msg);
}

/* SystemTap's complaint about a period of N units of ns_per_unit ns
 * (its bounds in that unit), or NULL when N is within them. */
static char *timer_range_error(int64_t n, int64_t ns_per_unit)
{
	int64_t max = TIMER_MAX_NS / ns_per_unit;

	if (n >= 1 && n <= max && n * ns_per_unit >= TIMER_MIN_NS)
		return NULL;
	return xasprintf("interval value out of range (%" PRId64 ", %" PRId64 ")",
			 ns_per_unit < TIMER_MIN_NS ? TIMER_MIN_NS / ns_per_unit : 1, max);
}

/* SystemTap's complaint about the interval of dp, or NULL. */
static char *timer_interval_error(const struct derived_probe *dp)
{
	const int64_t second = 1000000000;

	switch (dp->kind) {
	case DP_JIFFIES:
		if (dp->interval < 1 || dp->interval > JIFFIES_MAX)
			return xstrdup("invalid interval for jiffies timer");
		return NULL;
	case DP_HZ:
		if (dp->interval < 1)
			return xstrdup("frequency must be greater than 0");
		/* the period in ns, rounded up */
		return timer_range_error(second / dp->interval +
					 (second % dp->interval != 0), 1);
	default:
		return timer_range_error(dp->interval, dp->ns_per_unit);
	}
}

static bool timer_args_ok(struct derive *D, const struct probe_point *pp,
			  struct derived_probe *dp)
{
	const struct pp_comp *c1 = pp->comps.v[1];
	const struct pp_comp *c2 = pp->comps.n == 3 ? pp->comps.v[2] : NULL;
	char *msg;

	dp->interval = c1->arg->num;
	dp->randomize = c2 ? c2->arg->num : 0;
	msg = timer_interval_error(dp);
	if (msg) {
		timer_arg_error(D, c1, msg);
		return false;
	}
	if (c2 && (dp->randomize < 0 || dp->randomize > dp->interval)) {
		timer_arg_error(D, c2, xstrdup(dp->kind == DP_JIFFIES ?
					       "invalid randomize for jiffies timer" :
					       "randomization value out of range"));
		return false;
	}
	return true;
}

/* What -l prints for dp (see struct derive). */
static char *list_name(const struct derive *D, const struct derived_probe *dp)
{
	struct strbuf sb = STRBUF_INIT;

	if (D->list_name)
		return xstrdup(D->list_name);
	comps_text(&sb, dp->loc, 0, dp->loc->comps.n);
	return strbuf_detach(&sb);
}

/* Give dp (its kind and loc set) the user's body and condition, and add it
 * to the program. */
static void add_probe(struct elab *E, const struct derive *D, struct derived_probe *dp,
		      const struct probe_point *pp, const struct stmt *body,
		      const char *chain)
{
	dp->chain = xasprintf(" /* <- %s */", chain);
	dp->list_name = list_name(D, dp);
	dp->body = stmt_dup(body);
	dp->cond = expr_dup(pp->cond);
	dp->origin = D->origin;
	vec_push(&E->P->probes, dp);
}

/* A concrete point matched pattern p: make the derived probe. */
static int derive_leaf(struct elab *E, struct derive *D, const struct pattern *p,
		       const struct probe_point *pp, const struct stmt *body,
		       const char *chain)
{
	struct derived_probe *dp = xcalloc(1, sizeof(*dp));
	struct probe_point *loc = probe_point_new(&pp->pos);
	const struct pp_comp *c0 = pp->comps.v[0];

	for (int i = 0; i < p->n; i++) {
		const struct pp_comp *c = pp->comps.v[i];

		vec_push(&loc->comps, pp_comp_new(xstrdup(p->c[i].name),
						  expr_dup(c->arg), &c->pos));
	}
	loc->optional = pp->optional;
	loc->sufficient = pp->sufficient;
	loc->cond = expr_dup(pp->cond);
	dp->kind = p->kind;
	dp->loc = loc;
	dp->ns_per_unit = p->ns_per_unit;
	if ((p->kind == DP_BEGIN || p->kind == DP_END || p->kind == DP_ERROR) && c0->arg)
		dp->seq = c0->arg->num;
	if ((p->kind == DP_TIMER || p->kind == DP_JIFFIES || p->kind == DP_HZ) &&
	    !timer_args_ok(D, pp, dp)) {
		probe_point_free(loc);
		free(dp);
		return -1;
	}
	add_probe(E, D, dp, pp, body, chain);
	return 1;
}

void family_point_free(struct family_point *fp)
{
	if (!fp)
		return;
	free(fp->target);
	free(fp->module);
	free(fp);
}

/* The concrete point of a family: pp's components as the pattern names
 * them, with the family's match in place of a glob. */
static struct probe_point *family_loc(const struct point_pattern *p,
				      const struct probe_point *pp,
				      const struct family_point *fp)
{
	struct probe_point *loc = probe_point_new(&pp->pos);

	for (int i = 0; i < p->n; i++) {
		const struct pp_comp *c = pp->comps.v[i];
		struct expr *arg = expr_dup(c->arg);

		if (i == fp->target_comp && fp->target && arg && arg->kind == E_STR) {
			free(arg->str);
			arg->str = xstrdup(fp->target);
			arg->len = strlen(fp->target);
		}
		vec_push(&loc->comps, pp_comp_new(xstrdup(p->c[i].name), arg, &c->pos));
	}
	loc->optional = pp->optional;
	loc->sufficient = pp->sufficient;
	loc->cond = expr_dup(pp->cond);
	return loc;
}

/* Give dp the point its family names it by (see derived_point), after
 * add_probe() took -l's name from the matched one. */
static void rename_point(struct derived_probe *dp, struct probe_point *named)
{
	if (!named)
		return;
	named->optional = dp->loc->optional;
	named->sufficient = dp->loc->sufficient;
	named->cond = dp->loc->cond;
	dp->loc->cond = NULL;
	probe_point_free(dp->loc);
	dp->loc = named;
}

/* A point matched pattern p of a kernel event family: one derived probe
 * for each concrete point the family finds. */
static int derive_family(struct elab *E, struct derive *D, const struct point_family *fam,
			 const struct point_pattern *p, const struct probe_point *pp,
			 const struct stmt *body, const char *chain)
{
	struct vec points = { 0 };
	struct family_error err = { 0 };
	int n = fam->expand(p, pp, &points, &err);

	(void)E;
	free(err.what);
	if (n < 0) {
		defer_error(D, &err.pos, err.msg ? err.msg : xstrdup("no match"));
		for (size_t i = 0; i < points.n; i++)
			family_point_free(points.v[i]);
		vec_free(&points);
		return -1;
	}
	for (size_t i = 0; i < points.n; i++) {
		struct family_point *fp = points.v[i];
		struct derived_probe *dp = xcalloc(1, sizeof(*dp));

		dp->kind = DP_FAMILY;
		dp->family = fam;
		dp->variant = p->variant;
		dp->fp = *fp;
		free(fp);
		dp->loc = family_loc(p, pp, &dp->fp);
		add_probe(E, D, dp, pp, body, chain);
		if (fam->derived_point)
			rename_point(dp, fam->derived_point(dp));
	}
	n = (int)points.n;
	vec_free(&points);
	return n;
}

/* Expand pp through alias a, whose name matched pp's first k
 * components; the rest of pp is a suffix for each alias location. */
static int expand_alias(struct elab *E, struct derive *D, const struct alias_ref *r,
			int k, const struct probe_point *pp, const struct stmt *body,
			const char *chain, bool parent_optional)
{
	const struct probe_alias *a = r->a;
	struct stmt *blk;
	char *sig, *newchain;
	int total = 0;

	for (int i = 0; i < D->depth; i++)
		if (D->stack[i] == a || D->depth >= MAX_ALIAS_DEPTH) {
			const struct pp_comp *c = pp->comps.v[0];
			char *t = point_text(pp);

			defer_error(D, &c->pos, xasprintf(
				"recursive loop in alias expansion of %s at %s:%d:%d",
				t, c->pos.file->name, c->pos.line, c->pos.col));
			free(t);
			return -1;
		}
	D->stack[D->depth++] = a;

	/* "=" runs the alias body first, "+=" after the user's body;
	 * "= POINTS { prologue }, { epilogue }" does both. */
	blk = stmt_new(S_BLOCK, &body->pos);
	if (!a->epilogue)
		vec_push(&blk->stmts, stmt_dup(a->body));
	vec_push(&blk->stmts, stmt_dup(body));
	if (a->epilogue)
		vec_push(&blk->stmts, stmt_dup(a->body));
	if (a->epi_body)
		vec_push(&blk->stmts, stmt_dup(a->epi_body));
	sig = alias_text(a);
	newchain = xasprintf("%s <- %s", sig, chain);

	for (size_t i = 0; i < a->points.n && !D->failed; i++) {
		const struct probe_point *loc = a->points.v[i];
		struct probe_point *np = probe_point_dup(loc);
		int n;

		expr_free(np->cond);
		np->cond = and_cond(loc->cond, pp->cond);
		for (size_t j = (size_t)k; j < pp->comps.n; j++)
			vec_push(&np->comps, pp_comp_dup(pp->comps.v[j]));
		n = derive_point(E, D, np, blk, newchain, parent_optional || pp->optional);
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
	free(sig);
	free(newchain);
	return D->failed ? -1 : total;
}

static void point_mismatch(struct elab *E, struct derive *D,
			   const struct probe_point *pp, int depth_ok)
{
	int idx = depth_ok < (int)pp->comps.n ? depth_ok : (int)pp->comps.n - 1;
	const struct pp_comp *bad = pp->comps.v[idx];
	const char *star = strchr(bad->name, '*');
	char *functor = xstrdup(bad->name);
	struct vec names = { 0 };
	char *sugg;

	/* Names that would have fitted at the failing component; a
	 * wildcard is compared by what precedes its first '*'. */
	const struct point_pattern *pat;
	const struct point_family *fam;

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
	if (star && star != bad->name)
		functor[star - bad->name] = '\0';
	sugg = sem_suggest(functor, (const char *const *)names.v, (int)names.n);
	defer_error(D, &bad->pos, xasprintf(
		"probe point mismatch%s%s: identifier '%s' at %s:%d:%d",
		star ? ": didn't find any wildcard matches" : "", sugg, bad->name,
		bad->pos.file->name, bad->pos.line, bad->pos.col));
	free(sugg);
	free(functor);
	vec_free(&names);
}

/* A point the --privilege level does not allow: SystemTap's error, at the
 * point's last component (for an alias, in the alias's own points). */
static void refuse_point(struct elab *E, struct derive *D, const struct probe_point *pp)
{
	const struct pp_comp *last = pp->comps.v[pp->comps.n - 1];

	defer_error(D, &last->pos, xasprintf(
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

static int derive_point(struct elab *E, struct derive *D,
			const struct probe_point *pp, const struct stmt *body,
			const char *chain, bool parent_optional)
{
	bool optional = pp->optional || parent_optional;
	int total = 0, best = 0;

	for (size_t i = 0; i < E->aliases.n && !D->failed; i++) {
		const struct alias_ref *r = E->aliases.v[i];

		for (size_t j = 0; j < r->a->names.n; j++) {
			const struct probe_point *nm = r->a->names.v[j];
			int k = alias_prefix(pp, nm);
			int n;

			if (k > best)
				best = k;
			if (k != (int)nm->comps.n || shadowed_alias(E, pp, nm))
				continue;
			if (D->depth == 0) {
				struct strbuf sb = STRBUF_INIT;

				comps_text(&sb, nm, 0, nm->comps.n);
				comps_text(&sb, pp, (size_t)k, pp->comps.n);
				free(D->list_name);
				D->list_name = strbuf_detach(&sb);
			}
			if (has_wildcard(pp, k)) {
				/* As SystemTap does, a wildcard skips the
				 * matches whose expansion fails. */
				struct derive saved = *D;

				n = expand_alias(E, D, r, k, pp, body, chain, parent_optional);
				if (D->failed) {
					if (D->deferred && !saved.deferred)
						free(D->deferred_msg);
					*D = saved;
					n = 0;
				}
			} else {
				n = expand_alias(E, D, r, k, pp, body, chain, parent_optional);
			}
			if (D->depth == 0) {
				free(D->list_name);
				D->list_name = NULL;
			}
			if (n > 0)
				total += n;
			break;
		}
	}
	const struct point_family *fam;
	const struct point_pattern *p;

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
		n = fam ? derive_family(E, D, fam, p, pp, body, chain)
			: derive_leaf(E, D, p, pp, body, chain);
		if (n > 0)
			total += n;
	}
	if (D->failed)
		return -1;
	if (total == 0 && !optional) {
		point_mismatch(E, D, pp, best);
		return -1;
	}
	return total;
}

static void derive_probe(struct elab *E, const struct probe *p)
{
	struct derive D = { .origin = p };
	char *chain = points_text(&p->points, ",");

	for (size_t i = 0; i < p->points.n; i++) {
		const struct probe_point *pp = p->points.v[i];
		int n = derive_point(E, &D, pp, p->body, chain, false);

		if (D.deferred) {
			const struct pp_comp *first = pp->comps.v[0];
			char what[300];

			ident_what(what, sizeof(what), first->name);
			sem_error(E, &first->pos, what, "while resolving probe point");
			diag_error(E->d, &D.deferred_pos, "semantic error", "%s",
				   D.deferred_msg);
			free(D.deferred_msg);
		}
		if (D.failed)
			break;
		if (n > 0 && pp->sufficient)
			break;
	}
	free(chain);
}

/* ---- symbol resolution ----------------------------------------------------- */

struct rctx {
	struct elab *E;
	struct sem_function *fn;	/* NULL in a probe */
	const struct derived_probe *dp;	/* NULL in a function */
	struct vec *locals;		/* NULL in a probe condition */
	struct namemap names;		/* the locals and parameters by name */
	struct sem_body *uses;
	struct vardecl *iterating[32];	/* arrays of the enclosing foreach loops */
	int n_iterating;
};

static void res_expr(struct rctx *R, struct expr *e);
static void res_stmt(struct rctx *R, struct stmt *s);
static bool res_target(struct rctx *R, struct expr *e, bool write);

static void set_arity(struct elab *E, struct vardecl *v, int arity,
		      const struct srcpos *pos)
{
	char what[300];

	if (arity == 0 && v->maxsize > 0) {
		ident_what(what, sizeof(what), v->name);
		sem_error(E, pos, what, "inconsistent arity");
		return;
	}
	if (v->arity < 0) {
		v->arity = arity;
		v->arity_pos = *pos;
		if (arity > 0) {
			v->index_types = xcalloc((size_t)arity, sizeof(*v->index_types));
			v->index_pos = xcalloc((size_t)arity, sizeof(*v->index_pos));
		}
		return;
	}
	if (v->arity == arity)
		return;
	ident_what(what, sizeof(what), v->name);
	sem_error(E, pos, what, "inconsistent arity (%d vs %d)", v->arity, arity);
	sem_error(E, &v->arity_pos, what, "arity %d first inferred here", v->arity);
}

static struct vardecl *find_global(struct elab *E, const char *name,
				   const struct srcfile *from)
{
	const struct vec *named = namemap_get(&E->global_names, name);

	for (size_t i = 0; named && i < named->n; i++) {
		struct vardecl *v = named->v[i];

		if (!strcmp(v->name, name) && visible(v->is_private, v->pos.file, from)) {
			if (!v->listed) {
				v->listed = true;
				vec_push(&E->P->globals, v);
				if (v->library)
					use_file(E, v->pos.file);
			}
			return v;
		}
	}
	return NULL;
}

/* A body's context: its locals and parameters in R->names. */
static void rctx_init(struct rctx *R)
{
	for (size_t i = 0; R->locals && i < R->locals->n; i++) {
		struct vardecl *v = R->locals->v[i];

		namemap_add(&R->names, v->name, v);
	}
	for (int i = 0; R->fn && i < R->fn->n_params; i++)
		namemap_add(&R->names, R->fn->params[i]->name, R->fn->params[i]);
}

/* The local or parameter of this name (locals were added first). */
static struct vardecl *local_named(struct rctx *R, const char *name)
{
	const struct vec *named = namemap_get(&R->names, name);

	return named ? named->v[0] : NULL;
}

/* A name: local, parameter, global, or (when locals are allowed) a new
 * local. NULL when it cannot be resolved (reported). */
static struct vardecl *lookup_var(struct rctx *R, const char *name,
				  const struct srcpos *pos)
{
	struct vardecl *v;
	char what[300];

	v = R->locals ? local_named(R, name) : NULL;
	if (v)
		return v;
	v = find_global(R->E, name, pos->file);
	if (v)
		return v;
	if (!R->locals) {
		ident_what(what, sizeof(what), name);
		sem_error(R->E, pos, what, "probe condition must not reference undeclared global");
		return NULL;
	}
	v = var_new(R->E, name, pos);
	vec_push(R->locals, v);
	namemap_add(&R->names, v->name, v);
	return v;
}

/* A name used with n keys: it must be a global array. */
static struct vardecl *lookup_array(struct rctx *R, const char *name, int n,
				    const struct srcpos *pos)
{
	struct vardecl *v = NULL;
	char what[300];
	bool local = false;

	if (R->locals)
		local = local_named(R, name) != NULL;
	if (!local)
		v = find_global(R->E, name, pos->file);
	if (!v) {
		ident_what(what, sizeof(what), name);
		sem_error(R->E, pos, what,
			  "unresolved arity-%d global array %s, missing global declaration?",
			  n, name);
		return NULL;
	}
	set_arity(R->E, v, n, pos);
	return v;
}

static void note_use(struct rctx *R, struct vardecl *v, bool read, bool write)
{
	if (read)
		vec_push(&R->uses->reads, v);
	if (write)
		vec_push(&R->uses->writes, v);
}

static void bind(struct rctx *R, const void *node, struct vardecl *v)
{
	ptrmap_ref(&R->E->P->refs, node)->var = v;
}

static void check_iterating(struct rctx *R, struct vardecl *v, const struct srcpos *pos)
{
	char what[300];

	for (int i = 0; i < R->n_iterating; i++)
		if (R->iterating[i] == v) {
			ident_what(what, sizeof(what), v->name);
			sem_error(R->E, pos, what,
				  "variable '%s' modified during 'foreach' iteration", v->name);
			return;
		}
}

/* A symbol as a whole variable (not indexed). */
static struct vardecl *res_sym(struct rctx *R, struct expr *e, bool read,
			       bool write, bool any_arity)
{
	struct vardecl *v = lookup_var(R, e->name, &e->pos);

	if (!v)
		return NULL;
	bind(R, e, v);
	if (!any_arity)
		set_arity(R->E, v, 0, &e->pos);
	note_use(R, v, read, write);
	return v;
}

/* base[args] or [args] in base, base an array name or a histogram. */
static void res_indexed(struct rctx *R, struct expr *e, bool read, bool write)
{
	for (size_t i = 0; i < e->args.n; i++)
		if (e->args.v[i])
			res_expr(R, e->args.v[i]);
	if (e->a->kind == E_SYM) {
		struct vardecl *v = lookup_array(R, e->a->name, (int)e->args.n, &e->a->pos);

		if (v) {
			bind(R, e->a, v);
			bind(R, e, v);
			note_use(R, v, read, write);
			if (write)
				check_iterating(R, v, &e->a->pos);
		}
	} else {
		res_expr(R, e->a);
	}
}

static void res_lvalue(struct rctx *R, struct expr *e, bool read)
{
	struct vardecl *v;

	switch (e->kind) {
	case E_SYM:
		v = res_sym(R, e, read, true, false);
		if (v)
			check_iterating(R, v, &e->pos);
		break;
	case E_INDEX:
		res_indexed(R, e, read, true);
		break;
	case E_TARGET:
		if (!res_target(R, e, true))
			res_expr(R, e);
		break;
	default:
		res_expr(R, e);
		break;
	}
}

/* Overloads of name with n arguments visible from a file. */
static int find_group(struct elab *E, const char *name, int n,
		      const struct srcfile *from, struct sem_function ***out,
		      struct sem_function **any_arity)
{
	struct sem_function **g = NULL;
	int k = 0;

	const struct vec *named = namemap_get(&E->fn_names, name);

	*any_arity = NULL;
	for (int tier = 0; tier < 2 && !k && named; tier++) {
		for (size_t i = 0; i < named->n; i++) {
			struct sem_function *f = named->v[i];

			if (f->library != (tier == 1) ||
			    !visible(f->decl->is_private, f->file, from))
				continue;
			if (!*any_arity)
				*any_arity = f;
			if (f->n_params != n)
				continue;
			g = xrealloc(g, sizeof(*g) * (size_t)(k + 1));
			g[k++] = f;
		}
	}
	/* Priority order (stable: declaration order breaks ties). */
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && g[j - 1]->decl->priority > g[j]->decl->priority; j--) {
			struct sem_function *t = g[j];

			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	*out = g;
	return k;
}

static void res_call(struct rctx *R, struct expr *e)
{
	struct elab *E = R->E;
	struct sem_function **g, *any, *head;
	int k;
	char what[300];

	if (!R->locals) {
		ident_what(what, sizeof(what), e->name);
		sem_error(E, &e->pos, what, "probe condition must not reference function");
		return;
	}
	for (size_t i = 0; i < e->args.n; i++)
		res_expr(R, e->args.v[i]);
	k = find_group(E, e->name, (int)e->args.n, e->pos.file, &g, &any);
	ident_what(what, sizeof(what), e->name);
	if (!k) {
		free(g);
		if (any) {
			sem_error(E, &e->pos, what,
				  "arity mismatch found (function '%s' takes %d args)",
				  e->name, any->n_params);
		} else {
			const char **names = xcalloc(E->fns.n + 1, sizeof(*names));
			int n = 0;
			char *sugg;

			for (size_t i = 0; i < E->fns.n; i++) {
				struct sem_function *f = E->fns.v[i];

				if (visible(f->decl->is_private, f->file, e->pos.file))
					names[n++] = f->name;
			}
			sugg = sem_suggest(e->name, names, n);
			sem_error(E, &e->pos, what, "unresolved function%s", sugg);
			free(sugg);
			free(names);
		}
		return;
	}
	head = g[0];
	if (!head->group) {
		head->group = g;
		head->n_group = k;
	} else {
		free(g);
	}
	ptrmap_ref(&E->P->refs, e)->fn = head;
	for (int i = 0; i < head->n_group; i++) {
		struct sem_function *f = head->group[i];

		/* tapset C marked slash-star "guru" star-slash needs -g */
		if ((f->decl->pragmas & PRAGMA_GURU) && !E->o->guru) {
			char *w = describe_expr(e);

			sem_error(E, &e->pos, w,
				  "function may not be used unless -g is specified");
			free(w);
		} else if (f->decl->embedded && !embedded_allowed(E, f->decl->pragmas)) {
			/* tapset C not marked for the --privilege level */
			char *w = describe_expr(e);

			sem_error(E, &e->pos, w,
				  "function may not be used when --privilege=%s is specified",
				  privilege_name(privilege_level(E)));
			free(w);
		}
		vec_push(&R->uses->calls, f);
		if (!f->resolved) {
			f->resolved = true;
			vec_push(&E->work, f);
			if (f->library)
				use_file(E, f->file);
		}
	}
}

static bool privileged_pos(struct elab *E, const struct srcpos *pos)
{
	return E->o->guru || (pos->file && pos->file->privileged);
}

/* Whether the family of the probe being resolved has a target-variable
 * hook for e; if so, its verdict is reported here (true either way). */
static bool res_target(struct rctx *R, struct expr *e, bool write)
{
	const struct point_family *fam = R->dp ? R->dp->family : NULL;
	struct family_error err = { 0 };

	if (!fam || !fam->target_type)
		return false;
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *t = e->comps.v[i];

		if (t->kind == TC_INDEX)
			res_expr(R, t->index);
	}
	if (sem_target_check(R->dp, e, write, &err) == SEM_UNKNOWN) {
		char *w = err.what ? NULL : describe_expr(e);

		sem_error(R->E, err.msg ? &err.pos : &e->pos, err.what ? err.what : w, "%s",
			  err.msg ? err.msg : "unresolved target-symbol expression");
		free(w);
	}
	free(err.msg);
	free(err.what);
	return true;
}

static void res_expr(struct rctx *R, struct expr *e)
{
	char what[300];

	if (!e)
		return;
	switch (e->kind) {
	case E_NUM: case E_STR:
		return;
	case E_SYM:
		res_sym(R, e, true, false, false);
		return;
	case E_TERNARY: {
		int known = sem_static_cond(R->dp, e->a);

		res_expr(R, e->a);
		if (known != 0)
			res_expr(R, e->b);
		if (known != 1)
			res_expr(R, e->c);
		return;
	}
	case E_BINARY:
		res_expr(R, e->a);
		if ((e->op != TK_ANDAND && e->op != TK_OROR) ||
		    sem_static_cond(R->dp, e->a) != (e->op == TK_OROR))
			res_expr(R, e->b);
		return;
	case E_INDEX:
	case E_IN:
		res_indexed(R, e, true, false);
		return;
	case E_CALL:
		res_call(R, e);
		return;
	case E_ASSIGN:
		res_expr(R, e->b);
		if (e->op == TK_AGG) {
			/* s <<< v, m[k] <<< v: adds, no read; the variable is
			 * the last write noted (the keys come first) */
			size_t n0 = R->uses->writes.n;

			res_lvalue(R, e->a, false);
			if (R->uses->writes.n > n0)
				vec_push(&R->uses->aggs,
					 R->uses->writes.v[R->uses->writes.n - 1]);
		} else {
			/* m[k] <<< v adds to the element: no read */
			res_lvalue(R, e->a, e->op != TK_ASSIGN && e->op != TK_AGG);
		}
		return;
	case E_PREINC: case E_POSTINC:
		res_lvalue(R, e->a, true);
		return;
	case E_STAT:
	case E_HIST:
		if (e->a->kind == E_SYM)
			res_sym(R, e->a, true, false, false);
		else
			res_expr(R, e->a);
		for (size_t i = 0; i < e->args.n; i++)
			res_expr(R, e->args.v[i]);
		return;
	case E_TARGET:
		if (res_target(R, e, false))
			return;
		/* fall through */
	case E_VAR: case E_CAST: case E_AUTOCAST: {
		char *w = describe_expr(e);

		sem_error(R->E, &e->pos, w, "unresolved target-symbol expression");
		free(w);
		return;
	}
	case E_ENTRY:
		sem_error(R->E, &e->pos, "operator '@entry'",
			  "@entry is allowed only in .return probes");
		return;
	case E_ATOP:
		snprintf(what, sizeof(what), "operator '%s'", e->name);
		sem_error(R->E, &e->pos, what, "%s is not available in this probe context",
			  e->name);
		return;
	case E_DEFINED:
		/* Whether its operand resolves is the answer, not an error
		 * (sem_defined). */
		return;
	case E_EMBEDDED:
		if (!privileged_pos(R->E, &e->pos))
			sem_error(R->E, &e->pos, "embedded-code",
				  "embedded code in unprivileged script; need stap -g");
		else if (!embedded_allowed(R->E, embedded_pragmas(e->str)))
			sem_error(R->E, &e->pos, "embedded-code",
				  "embedded expression may not be used when --privilege=%s is specified",
				  privilege_name(privilege_level(R->E)));
		return;
	default:
		res_expr(R, e->a);
		res_expr(R, e->b);
		res_expr(R, e->c);
		for (size_t i = 0; i < e->args.n; i++)
			res_expr(R, e->args.v[i]);
		return;
	}
}

static struct vardecl *res_name(struct rctx *R, const void *node, const char *name,
				const struct srcpos *pos)
{
	struct vardecl *v = lookup_var(R, name, pos);

	if (!v)
		return NULL;
	ptrmap_ref(&R->E->P->refs, node)->var = v;
	set_arity(R->E, v, 0, pos);
	note_use(R, v, true, true);
	return v;
}

bool sem_defined(const struct derived_probe *dp, const struct expr *e)
{
	const struct point_family *fam = dp ? dp->family : NULL;
	struct family_error err = { 0 };
	bool ok;

	if (!e->a || e->a->kind != E_TARGET || !fam || !fam->target_type)
		return false;
	ok = sem_target_check(dp, e->a, false, &err) != SEM_UNKNOWN;
	free(err.msg);
	free(err.what);
	return ok;
}

static int static_cond(const struct derived_probe *dp, const struct expr *e, bool *saw)
{
	int a, b;

	if (!e)
		return -1;
	switch (e->kind) {
	case E_NUM:
		return e->num != 0;
	case E_DEFINED:
		*saw = true;
		return sem_defined(dp, e);
	case E_UNARY:
		a = e->op == TK_NOT ? static_cond(dp, e->a, saw) : -1;
		return a < 0 ? -1 : !a;
	case E_BINARY:
		if (e->op != TK_ANDAND && e->op != TK_OROR)
			return -1;
		a = static_cond(dp, e->a, saw);
		if (a == (e->op == TK_OROR))
			return a;	/* decided by the left side alone */
		b = static_cond(dp, e->b, saw);
		return a < 0 || b < 0 ? -1 : b;
	default:
		return -1;
	}
}

/* Only conditions with @defined in them: SystemTap checks both arms of
 * 1 ? 2 : "a" all the same. */
int sem_static_cond(const struct derived_probe *dp, const struct expr *e)
{
	bool saw = false;
	int v = static_cond(dp, e, &saw);

	return saw ? v : -1;
}

/* delete a, delete a[k], delete x: nothing else has a place to delete
 * from (SystemTap refuses the rest when it translates). */
static void res_delete(struct rctx *R, struct expr *e)
{
	struct vardecl *v;
	char *what;

	if (e->kind == E_SYM) {
		v = res_sym(R, e, false, true, true);
		if (v)
			check_iterating(R, v, &e->pos);
		return;
	}
	if (e->kind == E_INDEX && e->a->kind == E_SYM) {
		res_lvalue(R, e, false);
		return;
	}
	what = describe_expr(e);
	if (e->kind == E_INDEX)
		sem_error(R->E, &e->pos, what, "cannot delete histogram bucket entries");
	else
		sem_error(R->E, &e->pos, what, "invalid operand of delete expression");
	free(what);
	res_expr(R, e);
}

static void res_stmt(struct rctx *R, struct stmt *s)
{
	if (!s)
		return;
	switch (s->kind) {
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			res_stmt(R, s->stmts.v[i]);
		return;
	case S_FOREACH: {
		struct vardecl *arr = NULL;
		int nkeys = (int)s->keys.n;

		for (size_t i = 0; i < s->slice.n; i++)
			res_expr(R, s->slice.v[i]);
		if (s->base->kind == E_SYM) {
			arr = lookup_array(R, s->base->name, nkeys, &s->base->pos);
			if (arr) {
				bind(R, s->base, arr);
				note_use(R, arr, true, false);
			}
		} else {
			res_expr(R, s->base);
		}
		for (size_t i = 0; i < s->keys.n; i++) {
			struct foreach_key *k = s->keys.v[i];

			res_name(R, k, k->name, &k->pos);
		}
		if (s->value)
			res_name(R, s->value, s->value->name, &s->value->pos);
		res_expr(R, s->limit);
		if (arr && R->n_iterating < 32)
			R->iterating[R->n_iterating++] = arr;
		res_stmt(R, s->body);
		if (arr && R->n_iterating > 0 && R->iterating[R->n_iterating - 1] == arr)
			R->n_iterating--;
		return;
	}
	case S_DELETE:
		res_delete(R, s->e1);
		return;
	case S_TRY:
		res_stmt(R, s->body);
		if (s->name)
			res_name(R, s, s->name, &s->name_pos);
		res_stmt(R, s->els);
		return;
	case S_IF: {
		int known = sem_static_cond(R->dp, s->e1);

		res_expr(R, s->e1);
		if (known != 0)
			res_stmt(R, s->body);
		if (known != 1)
			res_stmt(R, s->els);
		return;
	}
	default:
		res_expr(R, s->e1);
		res_expr(R, s->e2);
		res_expr(R, s->e3);
		res_stmt(R, s->body);
		res_stmt(R, s->els);
		return;
	}
}

static void resolve_function(struct elab *E, struct sem_function *f)
{
	struct rctx R = { .E = E, .fn = f, .locals = &f->locals, .uses = &f->uses };

	f->resolved = true;
	if (f->decl->embedded) {
		if (!privileged_pos(E, &f->decl->pos))
			sem_error(E, &f->decl->embedded_pos, "embedded-code",
				  "embedded code in unprivileged script; need stap -g");
		return;
	}
	rctx_init(&R);
	res_stmt(&R, f->decl->body);
	namemap_free(&R.names);
}

static void resolve_probe(struct elab *E, struct derived_probe *dp)
{
	struct rctx R = { .E = E, .dp = dp, .locals = &dp->locals, .uses = &dp->uses };

	sem_targets_resolve(dp);
	rctx_init(&R);
	res_stmt(&R, dp->body);
	R.locals = NULL;
	res_expr(&R, dp->cond);
	namemap_free(&R.names);
}

static void drain_work(struct elab *E)
{
	while (E->work.n) {
		struct sem_function *f = E->work.v[--E->work.n];

		resolve_function(E, f);
	}
}

/* ---- type inference ----------------------------------------------------------- */

struct tctx {
	struct elab *E;
	struct sem_function *fn;
	const struct derived_probe *dp;	/* the probe being typed, or NULL */
	bool report;		/* the final pass: report what is wrong */
	int changed;
	struct vec pend;	/* struct pending *: mismatches of the final pass */
};

/* A type error found by the final pass. As SystemTap does, only the most
 * specific kind of mismatch found anywhere is reported: 3 for a use that
 * disagrees with a declaration, 2 for an expression that disagrees with
 * its context, 1 for the two sides of an operator; 0 (an invalid type) is
 * always reported. */
struct pending {
	int cls;
	struct srcpos pos;
	char *msg;
	bool chained;
	struct srcpos chain_pos;
	char *chain_msg;
};

static struct sem_ref *ref_of(struct tctx *T, const void *node)
{
	return ptrmap_ref(&T->E->P->refs, node);
}

static bool same_pos(const struct srcpos *a, const struct srcpos *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col;
}

/* Takes msg and chain_msg. */
static void pend(struct tctx *T, int cls, const struct srcpos *pos, char *msg,
		 const struct srcpos *chain_pos, char *chain_msg)
{
	struct pending *p;

	for (size_t i = 0; i < T->pend.n; i++) {
		p = T->pend.v[i];
		if (same_pos(&p->pos, pos) && !strcmp(p->msg, msg)) {
			free(msg);
			free(chain_msg);
			return;
		}
	}
	p = xcalloc(1, sizeof(*p));
	p->cls = cls;
	p->pos = *pos;
	p->msg = msg;
	if (chain_pos && chain_pos->file) {
		p->chained = true;
		p->chain_pos = *chain_pos;
		p->chain_msg = chain_msg;
	} else {
		free(chain_msg);
	}
	vec_push(&T->pend, p);
}

/* Report the most specific kind of mismatch; true if there was any. */
static bool flush_pending(struct tctx *T)
{
	int max = 0;

	for (size_t i = 0; i < T->pend.n; i++)
		if (((struct pending *)T->pend.v[i])->cls > max)
			max = ((struct pending *)T->pend.v[i])->cls;
	for (size_t i = 0; i < T->pend.n; i++) {
		struct pending *p = T->pend.v[i];

		if (p->cls == 0 || (max > 0 && p->cls == max) ||
		    (max == 0 && p->cls < 0)) {
			diag_error(T->E->d, &p->pos, "semantic error", "%s", p->msg);
			if (p->chained)
				diag_error(T->E->d, &p->chain_pos, "semantic error", "%s",
					   p->chain_msg);
		}
		free(p->msg);
		free(p->chain_msg);
		free(p);
	}
	vec_free(&T->pend);
	return max > 0;
}

/* "MSG: WHAT at FILE:LINE:COL"; takes msg. */
static char *with_what_at(const struct srcpos *pos, const char *what, char *msg)
{
	char *s = xasprintf("%s: %s at %s:%d:%d", msg, what,
			    pos->file ? pos->file->name : "", pos->line, pos->col);

	free(msg);
	return s;
}

static char *with_what(const struct expr *e, char *msg)
{
	char *what = describe_expr(e);
	char *s = with_what_at(&e->pos, what, msg);

	free(what);
	return s;
}

/* An "unresolved type" report: shown only when no mismatch was found. */
static void unresolved_at(struct tctx *T, const struct srcpos *pos, const char *what)
{
	if (T->report)
		pend(T, -1, pos, with_what_at(pos, what, xstrdup("unresolved type ")),
		     NULL, NULL);
}

static void unresolved_expr(struct tctx *T, const struct expr *e)
{
	char *what = describe_expr(e);

	unresolved_at(T, &e->pos, what);
	free(what);
}

/* e has type got where its context wants want. */
static void tok_mismatch(struct tctx *T, const struct expr *e, enum sem_type want,
			 enum sem_type got)
{
	char *msg;

	if (!T->report)
		return;
	if (got != SEM_UNKNOWN)
		msg = xasprintf("type mismatch: expected %s but found %s",
				sem_type_name(want), sem_type_name(got));
	else
		msg = xasprintf("type mismatch: expected %s", sem_type_name(want));
	pend(T, 2, &e->pos, with_what(e, msg), NULL, NULL);
}

/* e (of type got) disagrees with a declaration of type decl whose type
 * was first inferred at origin (NULL when it was written in the source);
 * index >= 0 for an array key or a function argument. */
static void decl_mismatch_at(struct tctx *T, const struct srcpos *pos,
			     const char *what, int index, enum sem_type got,
			     enum sem_type decl, const struct srcpos *origin)
{
	char *msg, *chain;

	if (!T->report)
		return;
	if (!origin || !origin->file) {
		msg = xasprintf("type mismatch: expected %s but found %s",
				sem_type_name(got), sem_type_name(decl));
		pend(T, 3, pos, with_what_at(pos, what, msg), NULL, NULL);
		return;
	}
	if (index >= 0) {
		msg = xasprintf("index %d type mismatch (%s)", index, sem_type_name(got));
		chain = xasprintf("type of index %d was first inferred here (%s)",
				  index, sem_type_name(decl));
	} else {
		msg = xasprintf("type mismatch (%s)", sem_type_name(got));
		chain = xasprintf("type was first inferred here (%s)", sem_type_name(decl));
	}
	pend(T, 3, pos, with_what_at(pos, what, msg), origin, chain);
}

static void decl_mismatch(struct tctx *T, const struct expr *e, int index,
			  enum sem_type got, enum sem_type decl,
			  const struct srcpos *origin)
{
	char *what = describe_expr(e);

	decl_mismatch_at(T, &e->pos, what, index, got, decl, origin);
	free(what);
}

static void bin_mismatch(struct tctx *T, const struct expr *op, enum sem_type l,
			 enum sem_type r)
{
	if (!T->report)
		return;
	pend(T, 1, &op->pos, with_what(op, xasprintf(
		"type mismatch: left and right sides don't agree (%s vs %s)",
		sem_type_name(l), sem_type_name(r))), NULL, NULL);
}

/* Give a declaration (variable, function, key) a type. */
static void infer(struct tctx *T, enum sem_type *slot, struct srcpos *slot_pos,
		  enum sem_type t, const struct srcpos *pos)
{
	if (t == SEM_UNKNOWN || *slot != SEM_UNKNOWN)
		return;
	*slot = t;
	*slot_pos = *pos;
	T->changed++;
}

/* Record e's type and check it against what its context wants. */
static enum sem_type settle(struct tctx *T, struct expr *e, enum sem_type t,
			    enum sem_type want, const struct srcpos *want_pos)
{
	struct sem_ref *r = ref_of(T, e);

	(void)want_pos;
	if (t != SEM_UNKNOWN && r->type == SEM_UNKNOWN) {
		r->type = t;
		T->changed++;
	}
	if (t != SEM_UNKNOWN && want != SEM_UNKNOWN && t != want)
		tok_mismatch(T, e, want, t);
	return t;
}

static enum sem_type ttarget(struct tctx *T, struct expr *e, enum sem_type want,
			     const struct srcpos *want_pos);
static enum sem_type texpr(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos);

/* A reference to a declaration's value: the declaration decides, or
 * learns from the context. */
static enum sem_type tdecl(struct tctx *T, struct expr *e, enum sem_type *slot,
			   struct srcpos *slot_pos, bool declared, enum sem_type want)
{
	if (*slot == SEM_UNKNOWN && want != SEM_UNKNOWN)
		infer(T, slot, slot_pos, want, &e->pos);
	if (*slot != SEM_UNKNOWN && want != SEM_UNKNOWN && *slot != want)
		decl_mismatch(T, e, -1, want, *slot, declared ? NULL : slot_pos);
	return settle(T, e, *slot, SEM_UNKNOWN, NULL);
}

static bool is_operator(const struct expr *e)
{
	switch (e->kind) {
	case E_BINARY: case E_ASSIGN: case E_UNARY: case E_PREINC:
	case E_POSTINC: case E_TERNARY: case E_IN:
		return true;
	default:
		return false;
	}
}

static void invalid_type(struct tctx *T, const struct expr *e, enum sem_type t)
{
	if (!T->report)
		return;
	pend(T, 0, &e->pos, with_what(e, is_operator(e) ? xstrdup("invalid operator") :
				       xasprintf("invalid type %s", sem_type_name(t))),
	     NULL, NULL);
}

/* Keys of an indexed array, foreach or "in". */
static void tkeys(struct tctx *T, struct vardecl *v, struct vec *args)
{
	if (!v || v->arity != (int)args->n)
		return;
	for (size_t i = 0; i < args->n; i++) {
		struct expr *k = args->v[i];
		enum sem_type t;

		if (!k)
			continue;
		t = texpr(T, k, v->index_types[i], &v->index_pos[i]);
		if (t == SEM_STATS)
			invalid_type(T, k, t);
		else
			infer(T, &v->index_types[i], &v->index_pos[i], t, &k->pos);
		if (t != SEM_UNKNOWN && v->index_types[i] != SEM_UNKNOWN &&
		    t != v->index_types[i])
			decl_mismatch(T, k, (int)i, t, v->index_types[i], &v->index_pos[i]);
	}
}

/* Where the type of e came from: its declaration's first inference for
 * variables and calls, else e itself. */
static const struct srcpos *type_origin(struct tctx *T, const struct expr *e)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, e);

	if (r && r->var && r->var->type_pos.file &&
	    (e->kind == E_SYM || e->kind == E_INDEX))
		return &r->var->type_pos;
	if (r && r->fn && r->fn->type_pos.file && e->kind == E_CALL)
		return &r->fn->type_pos;
	return &e->pos;
}

/* Two operands that must agree (comparison, ternary, assignment): op is
 * the whole expression. */
static enum sem_type tpair(struct tctx *T, const struct expr *op, struct expr *a,
			   struct expr *b, enum sem_type want,
			   const struct srcpos *want_pos)
{
	enum sem_type ta = texpr(T, a, want, want_pos);
	enum sem_type tb = texpr(T, b, ta != SEM_UNKNOWN ? ta : want,
				 ta != SEM_UNKNOWN ? type_origin(T, a) : want_pos);

	if (ta == SEM_UNKNOWN && tb != SEM_UNKNOWN)
		ta = texpr(T, a, tb, type_origin(T, b));
	if (ta != SEM_UNKNOWN && tb != SEM_UNKNOWN && ta != tb)
		bin_mismatch(T, op, ta, tb);
	return ta != SEM_UNKNOWN ? ta : tb;
}

/* A bad pattern literal of =~ is a pass-2 error at the literal, as in
 * SystemTap (pass 3 compiles the good ones). */
static void check_regex(struct tctx *T, const struct expr *pat)
{
	char err[256];
	char *what;

	if (!T->report || pat->kind != E_STR || regex_check(pat->str, err, sizeof(err)))
		return;
	what = describe_expr(pat);
	sem_error(T->E, &pat->pos, what, "%s", err);
	free(what);
}

static bool is_sprint(const char *name)
{
	return !strncmp(name, "sprint", 6);
}

static void tprint(struct tctx *T, struct expr *e)
{
	bool unresolved = false;
	bool formatted = !strcmp(e->name, "printf") || !strcmp(e->name, "sprintf");

	if (!strcmp(e->name, "print_char")) {
		/* print_char(c): one number, printed as a character */
		if ((e->a || e->args.n != 1) && T->report) {
			char *what = describe_expr(e);

			sem_error(T->E, &e->pos, what, "print_char takes one numeric argument");
			free(what);
		}
		if (e->a)
			texpr(T, e->a, SEM_UNKNOWN, NULL);
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_LONG, NULL);
		return;
	}
	if (e->a) {
		texpr(T, e->a, SEM_UNKNOWN, NULL);
		return;
	}
	if (formatted && e->str) {
		enum tap_arg_kind kinds[64];
		const char *err = NULL;
		int off = 0;
		int n = tap_format_check(e->str, kinds, 64, &err, &off);

		if (n < 0) {
			if (T->report) {
				char *what = describe_expr(e);

				sem_error(T->E, &e->pos, what, "%s", err);
				free(what);
			}
		} else if (n != (int)e->args.n) {
			if (T->report) {
				char *what = describe_expr(e);

				sem_error(T->E, &e->pos, what, "%s", TAP_FMT_ERR_NARGS);
				free(what);
			}
		} else {
			for (int i = 0; i < n; i++) {
				enum sem_type w = i < 64 ? (kinds[i] == TAP_ARG_STRING ?
							    SEM_STRING : SEM_LONG) : SEM_UNKNOWN;

				texpr(T, e->args.v[i], w, NULL);
			}
			return;
		}
	}
	for (size_t i = 0; i < e->args.n; i++) {
		struct expr *a = e->args.v[i];
		enum sem_type t = texpr(T, a, SEM_UNKNOWN, NULL);

		if (t == SEM_STATS)
			invalid_type(T, a, t);
		else if (t == SEM_UNKNOWN)
			unresolved = true, unresolved_expr(T, a);
	}
	if (unresolved)
		unresolved_expr(T, e);
}

static enum sem_type tcall(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos)
{
	struct sem_ref *r = ref_of(T, e);
	struct sem_function *head = r->fn;
	enum sem_type t = SEM_UNKNOWN;

	(void)want_pos;

	if (!head || !head->group) {
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_UNKNOWN, NULL);
		return SEM_UNKNOWN;
	}
	for (int g = 0; g < head->n_group; g++) {
		struct sem_function *f = head->group[g];

		t = tdecl(T, e, &f->type, &f->type_pos, f->type_declared, want);
		if (t == SEM_STATS)
			invalid_type(T, e, t);
		for (size_t i = 0; i < e->args.n && (int)i < f->n_params; i++) {
			struct vardecl *p = f->params[i];
			struct expr *a = e->args.v[i];
			enum sem_type at = texpr(T, a, p->type, &p->type_pos);

			if (at == SEM_STATS)
				invalid_type(T, a, at);
			else
				infer(T, &p->type, &p->type_pos, at, &a->pos);
			if (at != SEM_UNKNOWN && p->type != SEM_UNKNOWN && at != p->type)
				decl_mismatch(T, a, (int)i, at, p->type,
					      p->type_declared ? NULL : &p->type_pos);
		}
	}
	return t;
}

static enum sem_type texpr(struct tctx *T, struct expr *e, enum sem_type want,
			   const struct srcpos *want_pos)
{
	struct sem_ref *r;
	struct vardecl *v;
	enum sem_type t;

	if (!e)
		return SEM_UNKNOWN;
	switch (e->kind) {
	case E_NUM:
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_STR:
		return settle(T, e, SEM_STRING, want, want_pos);
	case E_EMBEDDED:
		return settle(T, e, strstr(e->str, "/* string */") ? SEM_STRING : SEM_LONG,
			      want, want_pos);
	case E_SYM:
		r = ref_of(T, e);
		v = r->var;
		if (!v || v->arity > 0)
			return SEM_UNKNOWN;
		return tdecl(T, e, &v->type, &v->type_pos, v->type_declared, want);
	case E_INDEX:
		if (e->a->kind == E_HIST) {
			texpr(T, e->a, SEM_UNKNOWN, NULL);
			for (size_t i = 0; i < e->args.n; i++)
				texpr(T, e->args.v[i], SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		}
		v = ref_of(T, e)->var;
		if (!v)
			return SEM_UNKNOWN;
		tkeys(T, v, &e->args);
		return tdecl(T, e, &v->type, &v->type_pos, v->type_declared, want);
	case E_IN:
		if (e->a->kind == E_SYM) {
			tkeys(T, ref_of(T, e)->var, &e->args);
		} else {
			texpr(T, e->a, SEM_UNKNOWN, NULL);
			for (size_t i = 0; i < e->args.n; i++)
				texpr(T, e->args.v[i], SEM_LONG, NULL);
		}
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_CALL:
		return tcall(T, e, want, want_pos);
	case E_PRINT:
		tprint(T, e);
		return settle(T, e, is_sprint(e->name) ? SEM_STRING : SEM_LONG,
			      want, want_pos);
	case E_UNARY:
		texpr(T, e->a, SEM_LONG, NULL);
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_PREINC: case E_POSTINC:
		texpr(T, e->a, SEM_LONG, NULL);
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_BINARY:
		switch (e->op) {
		case TK_DOT:
			texpr(T, e->a, SEM_STRING, NULL);
			texpr(T, e->b, SEM_STRING, NULL);
			return settle(T, e, SEM_STRING, want, want_pos);
		case TK_LT: case TK_GT: case TK_LE: case TK_GE: case TK_EQ: case TK_NE:
			t = tpair(T, e, e->a, e->b, SEM_UNKNOWN, NULL);
			if (t == SEM_STATS)
				invalid_type(T, e, t);
			return settle(T, e, SEM_LONG, want, want_pos);
		case TK_MATCH: case TK_NMATCH:
			texpr(T, e->a, SEM_STRING, NULL);
			texpr(T, e->b, SEM_STRING, NULL);
			check_regex(T, e->b);
			return settle(T, e, SEM_LONG, want, want_pos);
		default:
			texpr(T, e->a, SEM_LONG, NULL);
			if ((e->op != TK_ANDAND && e->op != TK_OROR) ||
			    sem_static_cond(T->dp, e->a) != (e->op == TK_OROR))
				texpr(T, e->b, SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		}
	case E_TERNARY: {
		int known = sem_static_cond(T->dp, e->a);

		texpr(T, e->a, SEM_LONG, NULL);
		if (known >= 0)		/* the other arm does not exist here */
			return settle(T, e, texpr(T, known ? e->b : e->c, want, want_pos),
				      SEM_UNKNOWN, NULL);
		t = tpair(T, e, e->b, e->c, want, want_pos);
		return settle(T, e, t, SEM_UNKNOWN, NULL);
	}
	case E_ASSIGN:
		if (e->a->kind == E_SYM && e->op != TK_AGG) {
			/* An assignment to a local elided as unused is
			 * only its right-hand side. */
			r = ptrmap_get(&T->E->P->refs, e->a);
			if (r && r->var && r->var->elided)
				return settle(T, e, texpr(T, e->b, want, want_pos),
					      SEM_UNKNOWN, NULL);
		}
		switch (e->op) {
		case TK_ASSIGN:
			t = tpair(T, e, e->a, e->b, want, want_pos);
			if (t == SEM_STATS && ref_of(T, e->b)->type == SEM_STATS)
				invalid_type(T, e, t);
			return settle(T, e, t, SEM_UNKNOWN, NULL);
		case TK_AGG:
			texpr(T, e->a, SEM_STATS, NULL);
			texpr(T, e->b, SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		case TK_CAT_ASSIGN:
			texpr(T, e->a, SEM_STRING, NULL);
			texpr(T, e->b, SEM_STRING, NULL);
			return settle(T, e, SEM_STRING, want, want_pos);
		default:
			texpr(T, e->a, SEM_LONG, NULL);
			texpr(T, e->b, SEM_LONG, NULL);
			return settle(T, e, SEM_LONG, want, want_pos);
		}
	case E_STAT:
		texpr(T, e->a, SEM_STATS, NULL);
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_LONG, NULL);
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_HIST:
		texpr(T, e->a, SEM_STATS, NULL);
		for (size_t i = 0; i < e->args.n; i++)
			texpr(T, e->args.v[i], SEM_LONG, NULL);
		return SEM_UNKNOWN;
	case E_DEFINED:
		return settle(T, e, SEM_LONG, want, want_pos);
	case E_TARGET:
		return ttarget(T, e, want, want_pos);
	default:
		return SEM_UNKNOWN;
	}
}

/* A target expression of a kernel event probe: typed by its family
 * (errors were reported by resolution). */
static enum sem_type ttarget(struct tctx *T, struct expr *e, enum sem_type want,
			     const struct srcpos *want_pos)
{
	const struct point_family *fam = T->dp ? T->dp->family : NULL;
	struct family_error err = { 0 };
	enum sem_type t;

	if (!fam || !fam->target_type)
		return SEM_UNKNOWN;
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *c = e->comps.v[i];

		if (c->kind == TC_INDEX)
			texpr(T, c->index, SEM_LONG, NULL);
	}
	t = sem_target_check(T->dp, e, false, &err);
	free(err.msg);
	free(err.what);
	if (t == SEM_UNKNOWN)
		return SEM_UNKNOWN;
	return settle(T, e, t, want, want_pos);
}

static void tname(struct tctx *T, const void *node, enum sem_type t,
		  const struct srcpos *pos)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, node);
	struct vardecl *v = r ? r->var : NULL;
	char what[300];

	if (!v || t == SEM_UNKNOWN)
		return;
	if (v->type == SEM_UNKNOWN) {
		infer(T, &v->type, &v->type_pos, t, pos);
	} else if (v->type != t) {
		ident_what(what, sizeof(what), v->name);
		decl_mismatch_at(T, pos, what, -1, t, v->type,
				 v->type_declared ? NULL : &v->type_pos);
	}
	if (r->type == SEM_UNKNOWN && v->type != SEM_UNKNOWN)
		r->type = v->type;
}

static enum sem_type tname_get(struct tctx *T, const void *node)
{
	struct sem_ref *r = ptrmap_get(&T->E->P->refs, node);

	return r && r->var ? r->var->type : SEM_UNKNOWN;
}

static void tstmt(struct tctx *T, struct stmt *s)
{
	if (!s)
		return;
	switch (s->kind) {
	case S_BLOCK:
		for (size_t i = 0; i < s->stmts.n; i++)
			tstmt(T, s->stmts.v[i]);
		return;
	case S_EXPR:
		texpr(T, s->e1, SEM_UNKNOWN, NULL);
		return;
	case S_IF: case S_WHILE: {
		int known = s->kind == S_IF ? sem_static_cond(T->dp, s->e1) : -1;

		texpr(T, s->e1, SEM_LONG, NULL);
		if (known != 0)
			tstmt(T, s->body);
		if (known != 1)
			tstmt(T, s->els);
		return;
	}
	case S_FOR:
		texpr(T, s->e1, SEM_UNKNOWN, NULL);
		texpr(T, s->e2, SEM_LONG, NULL);
		texpr(T, s->e3, SEM_UNKNOWN, NULL);
		tstmt(T, s->body);
		return;
	case S_FOREACH: {
		struct sem_ref *br = ptrmap_get(&T->E->P->refs, s->base);
		struct vardecl *arr = br ? br->var : NULL;

		if (s->base->kind == E_HIST) {
			texpr(T, s->base, SEM_UNKNOWN, NULL);
			for (size_t i = 0; i < s->keys.n; i++)
				tname(T, s->keys.v[i], SEM_LONG,
				      &((struct foreach_key *)s->keys.v[i])->pos);
			if (s->value)
				tname(T, s->value, SEM_LONG, &s->value->pos);
		} else if (arr && arr->arity == (int)s->keys.n) {
			for (size_t i = 0; i < s->keys.n; i++) {
				struct foreach_key *k = s->keys.v[i];
				enum sem_type kt = tname_get(T, k);

				if (arr->index_types[i] == SEM_UNKNOWN)
					infer(T, &arr->index_types[i], &arr->index_pos[i],
					      kt, &k->pos);
				tname(T, k, arr->index_types[i], &k->pos);
			}
			if (s->value) {
				enum sem_type vt = arr->type == SEM_STATS ? SEM_LONG : arr->type;

				if (arr->type == SEM_UNKNOWN)
					infer(T, &arr->type, &arr->type_pos,
					      tname_get(T, s->value), &s->value->pos);
				tname(T, s->value, vt, &s->value->pos);
			}
			if (arr->arity == (int)s->slice.n)
				tkeys(T, arr, &s->slice);
		}
		texpr(T, s->limit, SEM_LONG, NULL);
		tstmt(T, s->body);
		return;
	}
	case S_RETURN:
		if (s->e1 && T->fn) {
			struct sem_function *f = T->fn;
			enum sem_type t = texpr(T, s->e1, f->type, &f->type_pos);

			if (t == SEM_STATS)
				invalid_type(T, s->e1, t);
			else
				infer(T, &f->type, &f->type_pos, t, &s->e1->pos);
			if (t != SEM_UNKNOWN && f->type != SEM_UNKNOWN && t != f->type)
				decl_mismatch(T, s->e1, -1, t, f->type,
					      f->type_declared ? NULL : &f->type_pos);
		}
		return;
	case S_DELETE:
		if (s->e1->kind == E_INDEX)
			texpr(T, s->e1, SEM_UNKNOWN, NULL);
		return;
	case S_TRY:
		tstmt(T, s->body);
		if (s->name)
			tname(T, s, SEM_STRING, &s->name_pos);
		tstmt(T, s->els);
		return;
	default:
		return;
	}
}

static void type_body(struct tctx *T, struct stmt *body, struct expr *cond,
		      struct sem_function *fn, const struct derived_probe *dp)
{
	T->fn = fn;
	T->dp = dp;
	tstmt(T, body);
	if (cond)
		texpr(T, cond, SEM_LONG, NULL);
}

/* ---- the driver -------------------------------------------------------------- */

static void sum_uses(struct sem_body *b)
{
	for (size_t i = 0; i < b->reads.n; i++)
		((struct vardecl *)b->reads.v[i])->reads++;
	for (size_t i = 0; i < b->writes.n; i++)
		((struct vardecl *)b->writes.v[i])->writes++;
}

static bool user_file(struct elab *E, const struct srcfile *f)
{
	for (int i = 0; i < E->n_user; i++)
		if (E->user[i]->file == f)
			return true;
	return false;
}

/* Locals: drop the ones only ever written, warn about the ones never
 * written. */
/* SystemTap suggests other names in scope: locals, parameters, globals. */
static char *similar_vars(struct elab *E, const struct vardecl *v,
			  const struct vec *locals, const struct sem_function *fn)
{
	size_t n = (locals ? locals->n : 0) + E->P->globals.n +
		   (fn ? (size_t)fn->n_params : 0);
	const char **names = xcalloc(n + 1, sizeof(*names));
	char *sugg;
	int k = 0;

	for (size_t j = 0; locals && j < locals->n; j++)
		if (locals->v[j] != v)
			names[k++] = ((struct vardecl *)locals->v[j])->name;
	for (int j = 0; fn && j < fn->n_params; j++)
		names[k++] = fn->params[j]->name;
	for (size_t j = 0; j < E->P->globals.n; j++)
		if (E->P->globals.v[j] != v)
			names[k++] = ((struct vardecl *)E->P->globals.v[j])->name;
	sugg = sem_suggest(v->name, names, k);
	free(names);
	return sugg;
}

static void check_locals(struct elab *E, struct vec *locals,
			 const struct sem_function *fn)
{
	for (size_t i = 0; i < locals->n; i++) {
		struct vardecl *v = locals->v[i];
		bool mine = user_file(E, v->pos.file);
		char what[300];

		ident_what(what, sizeof(what), v->name);
		if (v->reads == 0 && !E->o->unoptimized) {
			v->elided = true;
			if (mine)
				sem_warn(E, &v->pos, what, "Eliding unused variable '%s'", v->name);
		} else if (v->writes == 0 && mine) {
			char *sugg = similar_vars(E, v, locals, fn);

			sem_warn(E, &v->pos, what, "never-assigned local variable '%s'%s",
				 v->name, sugg);
			free(sugg);
		}
	}
}

static void report_unresolved_var(struct tctx *T, struct vardecl *v)
{
	char what[300];

	ident_what(what, sizeof(what), v->name);
	if (!v->global && !v->param && v->type == SEM_STATS) {
		pend(T, 0, &v->pos, with_what_at(&v->pos, what, xstrdup(
			"stat locals not supported, missing global declaration? ")),
		     NULL, NULL);
		return;
	}
	if (v->type == SEM_UNKNOWN) {
		unresolved_at(T, &v->pos, what);
		return;
	}
	for (int i = 0; i < v->arity; i++)
		if (v->index_types[i] == SEM_UNKNOWN) {
			unresolved_at(T, &v->pos, what);
			break;
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

static void eliminate(struct elab *E)
{
	struct program *P = E->P;
	struct vec work = { 0 }, globals = { 0 };

	/* Functions reachable from the probes (all user ones with -u). */
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		for (size_t j = 0; j < dp->uses.calls.n; j++)
			vec_push(&work, dp->uses.calls.v[j]);
	}
	for (size_t i = 0; i < E->fns.n; i++) {
		struct sem_function *f = E->fns.v[i];

		if (!f->library && E->o->unoptimized)
			vec_push(&work, f);
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
		char what[300];

		if (f->used) {
			vec_push(&P->functions, f);
			sum_uses(&f->uses);
		} else if (!f->library) {
			ident_what(what, sizeof(what), f->name);
			sem_warn(E, &f->decl->pos, what, "Eliding unused function '%s'",
				 f->name);
		}
	}
	if (P->functions.n > 1)
		qsort(P->functions.v, P->functions.n, sizeof(void *), fn_cmp);
	for (size_t i = 0; i < P->probes.n; i++)
		sum_uses(&((struct derived_probe *)P->probes.v[i])->uses);

	/* Globals: user ones in declaration order, then the library's in
	 * the order they were pulled in. */
	for (size_t i = 0; i < E->globals.n; i++) {
		struct vardecl *v = E->globals.v[i];
		bool init = v->decl && v->decl->init;
		int refs = v->reads + v->writes - (init ? 1 : 0);
		char what[300];

		if (v->library)
			continue;
		ident_what(what, sizeof(what), v->name);
		if (refs > 0 || E->o->unoptimized) {
			vec_push(&globals, v);
		} else {
			v->elided = true;
			sem_warn(E, &v->pos, what, "Eliding unused variable '%s'", v->name);
			continue;
		}
		if (v->reads == 0 && v->writes > (init ? 1 : 0))
			v->auto_print = true;
		if (v->reads > 0 && v->writes == 0) {
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

		check_locals(E, &f->locals, f);
	}
	for (size_t i = 0; i < P->probes.n; i++)
		check_locals(E, &((struct derived_probe *)P->probes.v[i])->locals, NULL);
}

static void infer_types(struct elab *E)
{
	struct program *P = E->P;
	struct tctx T = { .E = E };

	for (int round = 0; round < 2 * 1000; round++) {
		T.changed = 0;
		for (size_t i = 0; i < P->functions.n; i++) {
			struct sem_function *f = P->functions.v[i];

			if (f->decl->body)
				type_body(&T, f->decl->body, NULL, f, NULL);
		}
		for (size_t i = 0; i < P->probes.n; i++) {
			struct derived_probe *dp = P->probes.v[i];

			type_body(&T, dp->body, dp->cond, NULL, dp);
		}
		if (!T.changed)
			break;
	}
	T.report = true;
	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		if (f->decl->body)
			type_body(&T, f->decl->body, NULL, f, NULL);
	}
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		type_body(&T, dp->body, dp->cond, NULL, dp);
	}

	/* What is still unknown. */
	for (size_t i = 0; i < P->globals.n; i++)
		report_unresolved_var(&T, P->globals.v[i]);
	for (size_t i = 0; i < P->functions.n; i++) {
		struct sem_function *f = P->functions.v[i];

		for (int j = 0; j < f->n_params; j++)
			report_unresolved_var(&T, f->params[j]);
		for (size_t j = 0; j < f->locals.n; j++)
			if (!((struct vardecl *)f->locals.v[j])->elided)
				report_unresolved_var(&T, f->locals.v[j]);
	}
	for (size_t i = 0; i < P->probes.n; i++) {
		struct derived_probe *dp = P->probes.v[i];

		for (size_t j = 0; j < dp->locals.n; j++)
			if (!((struct vardecl *)dp->locals.v[j])->elided)
				report_unresolved_var(&T, dp->locals.v[j]);
	}
	flush_pending(&T);
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

		if (!f->library && !f->resolved) {
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
	if (d->errors == errors) {
		eliminate(&E);
		infer_types(&E);
	}
	if (d->errors == errors)
		sem_check_foreach_calls(E.P, d);
	if (d->errors == errors)
		sem_check_limits(E.P, o, d);

	for (size_t i = 0; i < E.aliases.n; i++)
		free(E.aliases.v[i]);
	vec_free(&E.aliases);
	vec_free(&E.fns);
	vec_free(&E.globals);
	namemap_free(&E.fn_names);
	namemap_free(&E.global_names);
	vec_free(&E.work);
	free(E.lib_used);
	free(E.lib_done);
	if (d->errors != errors) {
		program_free(E.P);
		return NULL;
	}
	return E.P;
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

/* ---- output and cleanup ------------------------------------------------------ */

static void print_var(FILE *out, const struct vardecl *v)
{
	fprintf(out, "%s:%s", v->name, sem_type_name(v->type));
	if (v->arity > 0) {
		fputs(" [", out);
		for (int i = 0; i < v->arity; i++)
			fprintf(out, "%s%s", i ? ", " : "", sem_type_name(v->index_types[i]));
		fputc(']', out);
	}
	fputc('\n', out);
}

static void print_locals(FILE *out, const struct vec *locals)
{
	bool any = false;

	for (size_t i = 0; i < locals->n; i++) {
		const struct vardecl *v = locals->v[i];

		if (v->elided)
			continue;
		if (!any)
			fputs("  # locals\n", out);
		any = true;
		fputs("  ", out);
		print_var(out, v);
	}
}

void program_print(FILE *out, const struct program *p)
{
	if (p->embeds.n)
		fputs("# global embedded code\n", out);
	for (size_t i = 0; i < p->embeds.n; i++)
		fprintf(out, "%%{%s%%}\n", ((const struct embedded *)p->embeds.v[i])->code);
	if (p->globals.n)
		fputs("# globals\n", out);
	for (size_t i = 0; i < p->globals.n; i++)
		print_var(out, p->globals.v[i]);
	if (p->functions.n)
		fputs("# functions\n", out);
	for (size_t i = 0; i < p->functions.n; i++) {
		const struct sem_function *f = p->functions.v[i];

		fprintf(out, "%s:%s (", f->name, sem_type_name(f->type));
		for (int j = 0; j < f->n_params; j++)
			fprintf(out, "%s%s:%s", j ? ", " : "", f->params[j]->name,
				sem_type_name(f->params[j]->type));
		fputs(")\n", out);
		print_locals(out, &f->locals);
	}
	if (p->probes.n)
		fputs("# probes\n", out);
	for (size_t i = 0; i < p->probes.n; i++) {
		const struct derived_probe *dp = p->probes.v[i];

		char *t = point_text(dp->loc);
		char *sig = dp->family && dp->family->print_sig ? dp->family->print_sig(dp) : NULL;

		fprintf(out, "%s%s%s\n", t, sig ? sig : "", dp->chain);
		free(sig);
		free(t);
		print_locals(out, &dp->locals);
	}
}

static void body_free(struct sem_body *b)
{
	vec_free(&b->reads);
	vec_free(&b->writes);
	vec_free(&b->aggs);
	vec_free(&b->calls);
}

void program_free(struct program *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->probes.n; i++) {
		struct derived_probe *dp = p->probes.v[i];

		probe_point_free(dp->loc);
		free(dp->list_name);
		free(dp->fp.target);
		free(dp->fp.module);
		free(dp->chain);
		stmt_free(dp->body);
		expr_free(dp->cond);
		vec_free(&dp->locals);
		body_free(&dp->uses);
		sem_targets_free(dp->targets);
		free(dp);
	}
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
	vec_free(&p->functions);
	vec_free(&p->globals);
	vec_free(&p->embeds);
	vec_free(&p->all_fns);
	vec_free(&p->all_vars);
	ptrmap_free(&p->refs);
	free(p);
}
