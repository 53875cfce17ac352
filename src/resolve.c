/* Pass 2: name resolution.  Every name in a derived probe or a function
 * is bound to a local, parameter, global or function (library ones pulled
 * in on demand), and target expressions are handed to their family. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "astwalk.h"
#include "atconst.h"
#include "ctxfn.h"
#include "elab_int.h"
#include "probes/family.h"
#include "sem_atvar.h"
#include "sem_autocast.h"
#include "sem_cast.h"
#include "sem_defer.h"
#include "sem_perf.h"
#include "sem_target.h"
#include "suggest.h"
#include "upath.h"

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
	/* The probe's values saved at entry (a .return probe's body, not
	 * its condition), or NULL where @entry is not allowed. */
	struct vec *entry_exprs;
	bool in_entry;			/* within an @entry operand */
	const struct expr *assign;	/* the assignment whose target is being
					 * resolved, if any */
	const struct expr *updating;	/* the ++, -- or x op= v whose target
					 * is being resolved, if any */
	const struct expr *discarded;	/* an expression statement's (or a for
					 * loop's init or step) whose value
					 * nobody uses */
};

static void res_expr(struct rctx *R, struct expr *e);
static void res_stmt(struct rctx *R, struct stmt *s);
static bool res_target(struct rctx *R, struct expr *e, bool write, bool *resolved);
static void res_index_exprs(struct rctx *R, struct expr *e);
static void res_atvar(struct rctx *R, struct expr *e);
static bool privileged_pos(struct elab *E, const struct srcpos *pos);

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
	struct vardecl *v = NULL, *local = R->locals ? local_named(R, name) : NULL;
	char what[300];

	if (local && !local->param && local->arity == 0) {
		/* a scalar local used with keys: SystemTap's "inconsistent
		 * arity (0 vs N)", and where arity 0 came from */
		set_arity(R->E, local, n, pos);
		return NULL;
	}
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

static bool listed(const struct vec *vars, const struct vardecl *v)
{
	for (size_t i = 0; i < vars->n; i++)
		if (vars->v[i] == v)
			return true;
	return false;
}

/* The globals embedded code names in its pragma:read: and pragma:write:
 * comments, as SystemTap's embedded C reaches them (STAP_GLOBAL_GET_NAME,
 * STAP_GLOBAL_SET_NAME): read or written by the body, and listed on the
 * code's node for pass 3. */
static void res_embedded_globals(struct rctx *R, const void *node, const char *code,
				 const struct srcpos *pos)
{
	const char *at = code, *name;
	size_t len;
	bool write;

	while (embedded_global_pragma(&at, &name, &len, &write)) {
		char *n = xstrndup(name, len);
		struct vardecl *v = find_global(R->E, n, pos->file);
		struct vec *list;

		if (!v) {
			sem_error(R->E, pos, "embedded-code", "unresolved pragma:%s global %s",
				  write ? "write" : "read", n);
		} else {
			note_use(R, v, !write, write);
			R->E->c_globals = true;
			list = write ? &ptrmap_ref(&R->E->P->refs, node)->c_writes :
				       &ptrmap_ref(&R->E->P->refs, node)->c_reads;
			if (!listed(list, v))
				vec_push(list, v);
		}
		free(n);
	}
}

static void add_aggs(struct vec *aggs, const struct sem_body *u)
{
	for (size_t i = 0; i < u->aggs.n; i++)
		if (!listed(aggs, u->aggs.v[i]))
			vec_push(aggs, u->aggs.v[i]);
}

/* SystemTap's embedded C reaches no statistics: the globals some kept
 * body adds to with "<<<". */
void sem_check_embedded_globals(struct elab *E)
{
	const struct ptrmap *refs = &E->P->refs;
	struct vec seen = { 0 }, aggs = { 0 };
	char what[300];

	if (!E->c_globals)
		return;
	for (size_t i = 0; i < E->P->probes.n; i++)
		add_aggs(&aggs, &((const struct derived_probe *)E->P->probes.v[i])->uses);
	for (size_t i = 0; i < E->P->functions.n; i++)
		add_aggs(&aggs, &((const struct sem_function *)E->P->functions.v[i])->uses);

	for (size_t i = 0; i < refs->cap; i++) {
		const struct sem_ref *r = refs->vals[i];

		for (int w = 0; r && w < 2; w++) {
			const struct vec *list = w ? &r->c_writes : &r->c_reads;

			for (size_t j = 0; j < list->n; j++) {
				struct vardecl *v = list->v[j];

				if (!listed(&aggs, v) || listed(&seen, v))
					continue;
				vec_push(&seen, v);
				ident_what(what, sizeof(what), v->name);
				sem_error(E, &v->pos, what, "Aggregates not available in embedded-C");
			}
		}
	}
	vec_free(&seen);
	vec_free(&aggs);
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

/* A store into kernel memory or registers ($var = ..., @var(...) = ...,
 * the DWARF families'; a family that writes its own targets, procfs's
 * $value, has a target_assign_c hook) needs guru mode, as in SystemTap,
 * and is a plain '=' (pass 3 stores the value assigned). */
static void check_target_write(struct rctx *R, struct expr *e, bool read)
{
	const struct probe_family *fam = R->dp ? R->dp->family : NULL;
	char *w;

	if (e->kind == E_TARGET && fam && fam->target_assign_c)
		return;
	w = describe_expr(e);
	if (!privileged_pos(R->E, &e->pos) && e->kind == E_VAR)
		sem_error(R->E, &e->pos, w, "write to @var variable not permitted; need stap -g");
	else if (!privileged_pos(R->E, &e->pos))
		sem_error(R->E, &e->pos, w, "write to target variable not permitted; need stap -g");
	else if (read) {
		/* x += v, x++: SystemTap's words, at the operator */
		const struct expr *op = R->updating ? R->updating : e;

		free(w);
		w = describe_expr(op);
		sem_error(R->E, op->op_pos.file ? &op->op_pos : &op->pos, w,
			  "Only the following assign operator is implemented on target "
			  "variables:  =");
	}
	free(w);
}

/* $var$, ->member$$: a pretty printing. */
static bool pretty_tail(const struct expr *e)
{
	const struct tcomp *last = e->comps.n ? e->comps.v[e->comps.n - 1] : NULL;

	return last && last->kind == TC_PPRINT;
}

/* Whether a guru-mode write to a @cast or autocast member e may go on,
 * else SystemTap's error, at "at" (its operator): not to a pretty
 * printing or a member's address, and only with "=". */
static bool member_write_ok(struct rctx *R, struct expr *e, const struct srcpos *at,
			    const char *what, bool read)
{
	if (pretty_tail(e)) {
		sem_error(R->E, at, what, "cannot write to pretty-printed variable");
		return false;
	}
	if (e->addressof) {
		sem_error(R->E, at, what, "cannot write to member address");
		return false;
	}
	if (read) {
		check_target_write(R, e, read);
		return false;
	}
	return true;
}

/* A member written must be an integer (a bit field too) or a pointer, in
 * memory. */
static void check_member_writable(struct rctx *R, const struct expr *e,
				  const struct tvar *access)
{
	if (access && !tvar_writable(access))
		sem_error(R->E, &e->pos, "operator '@cast'",
			  "cannot write to this member: it is not an integer or pointer held in memory");
}

/* What an assignment, <<< or ++/-- stores into must be a variable, an
 * array element or a target.  Anything else is SystemTap's "Expecting
 * lvalue for assignment" at an assignment's operator, and "Expecting
 * lvalue expression" at the operand of ++/--.  A '.' there is most
 * likely a member access written C's way ($p->a.b), which SystemTap
 * points out. */
static void not_lvalue(struct rctx *R, const struct expr *e)
{
	const struct expr *a = R->assign && R->assign->a == e ? R->assign : NULL;
	const char *hint = e->kind == E_BINARY && e->op == TK_DOT ? ", try -> instead" : "";
	char *what = describe_expr(a ? a : e);

	if (a)
		sem_error(R->E, a->op_pos.file ? &a->op_pos : &a->pos, what,
			  "Expecting lvalue for assignment%s", hint);
	else
		sem_error(R->E, &e->pos, what, "Expecting lvalue expression%s", hint);
	free(what);
}

/* A probe condition is evaluated wherever its globals change, so it
 * must not change anything itself (SystemTap's wording). */
static void cond_writes(struct rctx *R, const struct expr *e)
{
	char *what = describe_expr(e);
	const struct srcpos *at = e->op_pos.file ? &e->op_pos : &e->pos;

	sem_error(R->E, at, what, "probe condition must not modify any variables");
	free(what);
}

/*
 * x++ or x += v whose value nobody uses reads x only to update it:
 * SystemTap still prints at the end a global read no other way.
 */
static void note_update(struct rctx *R, const struct expr *op, struct vardecl *v)
{
	if (v && op == R->discarded)
		vec_push(&R->uses->updates, v);
}

static void res_lvalue(struct rctx *R, struct expr *e, bool read)
{
	const struct expr *op = R->updating;
	struct vardecl *v;

	switch (e->kind) {
	case E_SYM:
		v = res_sym(R, e, read, true, false);
		if (v)
			check_iterating(R, v, &e->pos);
		if (read)
			note_update(R, op, v);
		break;
	case E_INDEX:
		res_indexed(R, e, read, true);
		if (e->a->kind != E_SYM)	/* a histogram's bucket */
			not_lvalue(R, e);
		else if (read && program_ref(R->E->P, e))
			note_update(R, op, program_ref(R->E->P, e)->var);
		break;
	case E_TARGET: {
		bool resolved = false;
		char *w;

		if (privileged_pos(R->E, &e->pos) && (e->addressof || pretty_tail(e))) {
			w = describe_expr(e);
			sem_error(R->E, &e->pos, w, e->addressof ? "cannot write to member address" :
				  "cannot write to pretty-printed variable");
			free(w);
			break;
		}
		if (!res_target(R, e, true, &resolved))
			res_expr(R, e);
		else if (resolved)	/* else its family's refusal said why */
			check_target_write(R, e, read);
		break;
	}
	case E_VAR:
		res_atvar(R, e);
		check_target_write(R, e, read);
		if (sem_atvar_of(e)->access && !tvar_writable(sem_atvar_of(e)->access))
			sem_error(R->E, &e->pos, "operator '@var'",
				  "cannot write to this @var: it is not an integer or pointer");
		break;
	case E_CAST:
		res_expr(R, e);
		if (!privileged_pos(R->E, &e->pos))
			sem_error(R->E, &e->pos, "operator '@cast'",
				  "write to @cast context variable not permitted; need stap -g");
		else if (member_write_ok(R, e, &e->pos, "operator '@cast'", read))
			check_member_writable(R, e, sem_cast_of(e)->access);
		break;
	case E_AUTOCAST: {
		const struct tcomp *first = e->comps.n ? e->comps.v[0] : NULL;

		res_expr(R, e);
		if (!first)
			break;	/* "& value": its autocast's own error */
		if (!privileged_pos(R->E, &e->pos))
			sem_error(R->E, &first->pos, "operator '->'",
				  "write not permitted; need stap -g");
		else if (member_write_ok(R, e, &first->pos, "operator '->'", read))
			sem_autocast_written(R->E, e);	/* checked once typed */
		break;
	}
	default:
		res_expr(R, e);
		not_lvalue(R, e);
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
			/* SystemTap names the last overload of the first
			 * tier (the script's, else the library's) that has one */
			if (!*any_arity || (*any_arity)->library == f->library)
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
			const struct srcpos *decl = &any->decl->pos;

			/* as stap: the function's own place follows */
			diag_chain_begin(E->d);
			sem_error(E, &e->pos, what,
				  "arity mismatch found (function '%s' takes %d args)",
				  e->name, any->n_params);
			if (decl->file)
				diag_related(E->d, decl, "%s at %s:%d:%d", what,
					     decl->file->name, decl->line, decl->col);
			diag_chain_end(E->d);
		} else {
			const char **names = xcalloc(E->fns.n + 1, sizeof(*names));
			int n = 0;
			char *sugg;

			/* as SystemTap's: the tapsets' functions, and of the
			 * script's those a call resolved so far */
			for (size_t i = 0; i < E->fns.n; i++) {
				struct sem_function *f = E->fns.v[i];

				if ((f->library || f->resolved) &&
				    visible(f->decl->is_private, f->file, e->pos.file))
					names[n++] = f->name;
			}
			sugg = sem_suggest(e->name, names, n);
			E->d->library_named = true;
			sem_error(E, &e->pos, what, "unresolved function %s%s", e->name, sugg);
			free(sugg);
			free(names);
		}
		return;
	}
	head = g[0];
	/* a context-sensitive function called from a probe with target
	 * variables runs as that probe's copy (ctxfn.c) */
	if (k == 1 && head->ctx_sensitive && !head->ctx_dp && R->dp && R->dp->family &&
	    R->dp->family->target_type) {
		head = ctxfn_clone(E, head, R->dp);
		g[0] = head;
	}
	if (!head->group) {
		head->group = g;
		head->n_group = k;
	} else {
		free(g);
	}
	ptrmap_ref(&E->P->refs, e)->fn = head;
	for (int i = 0; i < head->n_group; i++) {
		struct sem_function *f = head->group[i];

		/* tapset C marked slash-star "guru" star-slash needs -g when
		 * a script calls it; a tapset's own functions may call it, as
		 * SystemTap's set_int_arg() calls set_kernel_int() */
		if ((f->decl->pragmas & PRAGMA_GURU) && !privileged_pos(E, &e->pos)) {
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

static void find_sym(void *ctx, const struct expr *e)
{
	if (e->kind == E_SYM && !*(const struct expr **)ctx)
		*(const struct expr **)ctx = e;
}

/* Whether e, to be saved by the probe's entry half, can be evaluated
 * there: in a context-sensitive function's copy it may name none of the
 * function's variables (the entry half has no frame of the function's,
 * nor its arguments yet); else an error. */
static bool entry_operand_ok(struct rctx *R, const struct expr *e)
{
	const struct expr *sym = NULL;
	struct ast_visitor v = { .ctx = &sym, .expr = find_sym };
	char *w;

	if (!R->fn)
		return true;
	ast_walk_expr(e, &v);
	if (!sym)
		return true;
	w = describe_expr(sym);
	sem_error(R->E, &sym->pos, w, "a value a function saves at the probe's entry may not "
		  "use variables: it is evaluated before the function is called");
	free(w);
	return false;
}

/* @entry(EXPR): EXPR is evaluated when the function is entered, by the
 * probe's entry half, and its value read at the return. */
static void res_entry(struct rctx *R, struct expr *e)
{
	if (!R->entry_exprs || !R->locals) {
		/* an error only if elision keeps it (sem_defer.c); the
		 * operand is resolved all the same, for elision to judge */
		sem_defer_error(R->E, e, &e->pos, "operator '@entry'",
				"@entry is only valid in .return probes");
		if (!R->in_entry) {
			R->in_entry = true;
			res_expr(R, e->a);
			R->in_entry = false;
		}
		return;
	}
	if (R->in_entry) {
		sem_error(R->E, &e->pos, "operator '@entry'", "@entry may not be nested");
		return;
	}
	R->in_entry = true;
	res_expr(R, e->a);
	R->in_entry = false;
	if (entry_operand_ok(R, e->a))
		vec_push(R->entry_exprs, e->a);
}

static bool privileged_pos(struct elab *E, const struct srcpos *pos)
{
	return E->o->guru || (pos->file && pos->file->privileged);
}

/* Whether a target at pos was warned of (zeroed, or read at entry)
 * before; then it is remembered. */
static bool zeroed_warned_before(struct elab *E, const struct srcpos *pos);

/* The @entry(...) text of SystemTap's warning for e: e as written, but a
 * closing pretty-print as a member ($path$ is "$path->$"), as stap says. */
static char *entry_text(const struct expr *e)
{
	const struct tcomp *last = e->comps.n ? e->comps.v[e->comps.n - 1] : NULL;
	char *buf = NULL, *text;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ast_print_expr(f, e);
	fclose(f);
	if (!last || last->kind != TC_PPRINT || len < strlen(last->name))
		return buf;
	len -= strlen(last->name);
	text = xasprintf("%.*s->%s", (int)len, buf, last->name);
	free(buf);
	return text;
}

/* SystemTap's warning for a .return probe's read of a parameter, which
 * gets its value at entry: once per place, however many probes share it. */
static void warn_read_at_entry(struct rctx *R, const struct expr *e)
{
	char *w, *text;

	if (zeroed_warned_before(R->E, &e->pos))
		return;
	w = describe_expr(e);
	text = entry_text(e);
	sem_warn(R->E, &e->pos, w, "confusing usage, value is captured as @entry(%s) in "
		 ".return probe [man stapprobes] RETURN PROBES", text);
	free(text);
	free(w);
}

/* A target its family reads at entry (a .return probe's parameter) is
 * saved by the entry half, as an @entry operand is (unless it is part of
 * one already). */
static void entry_target(struct rctx *R, struct expr *e)
{
	const struct sem_target *st = sem_target_of(R->dp, e);

	if (!st || !st->access || !st->access->at_entry || R->in_entry)
		return;
	if (!R->entry_exprs || !R->locals) {
		char *w = describe_expr(e);

		sem_error(R->E, &e->pos, w,
			  "target variables read at entry are allowed only in the probe's body");
		free(w);
		return;
	}
	for (size_t i = 0; i < R->entry_exprs->n; i++)
		if (R->entry_exprs->v[i] == e)
			return;
	warn_read_at_entry(R, e);
	if (entry_operand_ok(R, e))
		vec_push(R->entry_exprs, e);
}

static bool zeroed_warned_before(struct elab *E, const struct srcpos *pos)
{
	for (size_t i = 0; i < E->n_zeroed_warned; i++) {
		const struct srcpos *p = &E->zeroed_warned[i];

		if (p->file == pos->file && p->line == pos->line && p->col == pos->col)
			return true;
	}
	E->zeroed_warned = xrealloc(E->zeroed_warned,
				    (E->n_zeroed_warned + 1) * sizeof(*E->zeroed_warned));
	E->zeroed_warned[E->n_zeroed_warned++] = *pos;
	return false;
}

/* --skip-badvars: a target that did not resolve reads as 0; SystemTap's
 * warning (its indexes are still resolved). */
static void zeroed_target(struct rctx *R, struct expr *e)
{
	char *w = describe_expr(e);

	res_index_exprs(R, e);
	if (!zeroed_warned_before(R->E, &e->pos))
		sem_warn(R->E, &e->pos, w, "Bad $context variable being substituted with literal 0");
	free(w);
}

/* A target expression of the probe's family: false when the family has
 * none; *resolved (if given) says whether it resolved (or was zeroed by
 * --skip-badvars). */
static bool res_target(struct rctx *R, struct expr *e, bool write, bool *resolved)
{
	const struct probe_family *fam = R->dp ? R->dp->family : NULL;
	const struct sem_target *st = sem_target_of(R->dp, e);
	struct family_error err = { 0 };

	if (st && st->zeroed && !write) {
		zeroed_target(R, e);
		if (resolved)
			*resolved = true;
		return true;
	}
	if (!fam || !fam->target_type)
		return false;
	res_index_exprs(R, e);
	if (sem_target_check(R->dp, e, write, &err) == SEM_UNKNOWN) {
		/* -l/-L list the probe all the same, as SystemTap does */
		if (!R->E->o->listing) {
			char *w = err.what ? NULL : describe_expr(e);

			sem_defer_error(R->E, e, err.msg ? &err.pos : &e->pos,
					err.what ? err.what : w,
					err.msg ? err.msg : "unresolved target-symbol expression");
			free(w);
		}
	} else {
		entry_target(R, e);
		if (resolved)
			*resolved = true;
	}
	free(err.msg);
	free(err.what);
	return true;
}

/* A target its family resolved, used as op says (0: read, else the
 * assignment or ++/-- token): the family may refuse the use. */
static void check_target_use(struct rctx *R, const struct expr *e, int op)
{
	const struct probe_family *fam = R->dp ? R->dp->family : NULL;
	const struct sem_target *st;
	const char *msg;
	char *w;

	if (!fam || !fam->target_use || e->kind != E_TARGET)
		return;
	st = sem_target_of(R->dp, e);
	if (!st || st->type == SEM_UNKNOWN)
		return;
	msg = fam->target_use(R->dp, e, op);
	if (!msg)
		return;
	w = describe_expr(e);
	sem_error(R->E, &e->pos, w, "%s", msg);
	free(w);
}

/* The steps' index expressions of a target expression or @cast. */
static void res_index_exprs(struct rctx *R, struct expr *e)
{
	for (size_t i = 0; i < e->comps.n; i++) {
		struct tcomp *t = e->comps.v[i];

		if (t->kind == TC_INDEX)
			res_expr(R, t->index);
	}
}

/* @var("name") without a module, in a module probe: that module's, as
 * SystemTap's (each derived probe has its own copy of the body). */
static void atvar_default_module(const struct derived_probe *dp, struct expr *e)
{
	const char *mod;

	if (!e->module && dp && dp->family->debug_module &&
	    (mod = dp->family->debug_module(dp)))
		e->module = xstrdup(mod);
}

/* @var("name") without a module in a probe that has no DWARF context
 * (a family without a debug_module hook: begin, timer, kernel.trace ...):
 * SystemTap leaves it unresolved, as no module is there to look in. */
static bool atvar_without_context(const struct derived_probe *dp, const struct expr *e)
{
	return !e->module && dp && !dp->family->debug_module;
}

/* Whether dp probes the code of the user binary at path (the same file,
 * however named). */
static bool probes_binary(const struct derived_probe *dp, const char *path)
{
	const char *mine = dp && dp->family->debug_module ? dp->family->debug_module(dp) : NULL;
	char *why = NULL, *p = mine ? upath_program(path, &why) : NULL;
	struct stat a, b;
	bool same = p && stat(p, &a) == 0 && stat(mine, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino;

	free(p);
	free(why);
	return same;
}

/* @var("name@file", "module")...: its indexes and its variable
 * (sem_atvar.h). */
static void res_atvar(struct rctx *R, struct expr *e)
{
	const struct sem_atvar *sa;

	if (atvar_without_context(R->dp, e)) {
		res_index_exprs(R, e);
		sem_error(R->E, &e->pos, "operator '@var'", "unresolved @var() expression");
		return;
	}
	atvar_default_module(R->dp, e);
	res_index_exprs(R, e);
	sa = sem_atvar_of(e);
	if (sa->type == SEM_UNKNOWN)
		sem_error(R->E, &sa->err.pos, sa->err.what ? sa->err.what : "operator '@var'",
			  "%s", sa->err.msg);
	else if (sa->access->user && !probes_binary(R->dp, e->module))
		sem_error(R->E, &e->pos, "operator '@var'",
			  "a static of %s is read only in the process(...).function and "
			  ".statement probes of that binary (where its load address is known)",
			  e->module);
}

/* @cast(ptr, "type", "module")...: its pointer, its indexes and its type
 * (sem_cast.h). */
static void res_cast(struct rctx *R, struct expr *e)
{
	const struct sem_cast *sc;

	res_expr(R, e->a);
	res_index_exprs(R, e);
	/* A tapset's &@cast(p, "type") is p typed for autocast
	 * (task_current()'s &@task(...)): its type is looked up only when
	 * an autocast asks (sem_autocast.c), so that a script that does not
	 * pays nothing for it. */
	if (sem_cast_typing_only(e) && !elab_user_file(R->E, e->pos.file))
		return;
	sc = sem_cast_of(e);
	/* an error only if elision keeps the expression, as SystemTap's
	 * (an arm a decided @defined rules out goes: sem_defer.c) */
	if (sc->type == SEM_UNKNOWN)
		sem_defer_error(R->E, e, &sc->err.pos,
				sc->err.what ? sc->err.what : "operator '@cast'", sc->err.msg);
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

		if (known < 0 && sem_autocast_undecided_cond(e->a))
			sem_autocast_guard(R->E, R->dp, e->a, e->b, e->c, false);
		res_expr(R, e->a);
		if (known != 0)
			res_expr(R, e->b);
		if (known != 1)
			res_expr(R, e->c);
		return;
	}
	case E_BINARY:
		if ((e->op == TK_ANDAND || e->op == TK_OROR) && sem_autocast_undecided_cond(e->a))
			sem_autocast_guard(R->E, R->dp, e->a, e->op == TK_ANDAND ? e->b : NULL,
					   e->op == TK_OROR ? e->b : NULL, false);
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
		if (!R->locals) {
			cond_writes(R, e);
			return;
		}
		/* the target first, then the value: SystemTap's order, which
		 * is the order new locals are declared in (-p2, -L) */
		if (e->op == TK_AGG) {
			/* s <<< v, m[k] <<< v: adds, no read; the variable is
			 * the last write noted (the keys come first) */
			size_t n0 = R->uses->writes.n;
			const struct expr *outer = R->assign;

			R->assign = e;
			res_lvalue(R, e->a, false);
			R->assign = outer;
			if (R->uses->writes.n > n0)
				vec_push(&R->uses->aggs,
					 R->uses->writes.v[R->uses->writes.n - 1]);
		} else {
			/* m[k] <<< v adds to the element: no read */
			const struct expr *outer = R->assign, *outer_op = R->updating;

			R->assign = e;
			R->updating = e;
			res_lvalue(R, e->a, e->op != TK_ASSIGN && e->op != TK_AGG);
			R->assign = outer;
			R->updating = outer_op;
		}
		res_expr(R, e->b);
		check_target_use(R, e->a, e->op);
		return;
	case E_PREINC: case E_POSTINC: {
		const struct expr *outer = R->updating;

		if (!R->locals) {
			cond_writes(R, e);
			return;
		}
		R->updating = e;
		res_lvalue(R, e->a, true);
		R->updating = outer;
		check_target_use(R, e->a, e->op);
		return;
	}
	case E_STAT:
	case E_HIST:
		if (e->a->kind == E_SYM)
			res_sym(R, e->a, true, false, false);
		else
			res_expr(R, e->a);
		for (size_t i = 0; i < e->args.n; i++)
			res_expr(R, e->args.v[i]);
		return;
	case E_VAR:
		res_atvar(R, e);
		return;
	case E_TARGET:
		if (res_target(R, e, false, NULL)) {
			check_target_use(R, e, 0);
			return;
		} else {
			char *w = describe_expr(e);

			sem_defer_error(R->E, e, &e->pos, w, "unresolved target-symbol expression");
			free(w);
			return;
		}
	case E_AUTOCAST:
		/* typed once every name is bound (sem_autocast.c) */
		res_expr(R, e->a);
		res_index_exprs(R, e);
		sem_autocast_note(R->E, e, R->dp, false);
		return;
	case E_CAST:
		res_cast(R, e);
		return;
	case E_ENTRY:
		res_entry(R, e);
		return;
	case E_ATOP:
		snprintf(what, sizeof(what), "operator '%s'", e->name);
		if (is_atconst(e)) {
			if (!atconst_allowed(atconst_name(e), R->E->o->guru))
				sem_error(R->E, &e->pos, what, R->E->o->guru ?
					  "@const(\"%s\") is no C identifier" :
					  "@const(\"%s\") names no constant of tapc's runtime (with -g, any of the kernel's)",
					  atconst_name(e));
			return;
		}
		if (is_atperf(e)) {
			sem_perf_resolve(R->E, R->dp, R->locals, e);
			return;
		}
		/* an alias's prologue or epilogue has none left (probewrite.c) */
		if (!strcmp(e->name, "@probewrite")) {
			sem_error(R->E, &e->pos, what, "unexpected @probewrite");
			return;
		}
		sem_error(R->E, &e->pos, what, "%s is not available in this probe context",
			  e->name);
		return;
	case E_DEFINED:
		/* Whether its operand resolves is the answer, not an error
		 * (sem_defined); an autocast's is known once it is typed. */
		if (e->a && e->a->kind == E_AUTOCAST) {
			res_expr(R, e->a->a);
			res_index_exprs(R, e->a);
			sem_autocast_note(R->E, e->a, R->dp, true);
		}
		return;
	case E_EMBEDDED:
		if (!privileged_pos(R->E, &e->pos))
			sem_error(R->E, &e->pos, "embedded-code",
				  "embedded code in unprivileged script; need stap -g");
		else if (!embedded_allowed(R->E, embedded_pragmas(e->str)))
			sem_error(R->E, &e->pos, "embedded-code",
				  "embedded expression may not be used when --privilege=%s is specified",
				  privilege_name(privilege_level(R->E)));
		else
			res_embedded_globals(R, e, e->str, &e->pos);
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
	const struct probe_family *fam = dp ? dp->family : NULL;
	struct family_error err = { 0 };
	struct expr operand;
	bool ok;

	/* @defined(@entry(X)) asks about X: the entry half saves what is
	 * defined there (SystemTap's tcp.sendmsg.return scripts test
	 * @entry($sk) against an older kernel's @entry($sock->sk)). */
	if (e->a && e->a->kind == E_ENTRY) {
		if (!e->a->a || !fam || !fam->saves_entry || !fam->saves_entry(dp))
			return false;	/* @entry is not allowed here */
		operand = *e;
		operand.a = e->a->a;
		e = &operand;
	}
	if (e->a && e->a->kind == E_CAST)
		return sem_cast_of(e->a)->type != SEM_UNKNOWN;
	if (e->a && e->a->kind == E_AUTOCAST)
		return sem_autocast_decided(e->a) && sem_cast_of(e->a)->type != SEM_UNKNOWN;
	if (e->a && e->a->kind == E_VAR) {
		if (atvar_without_context(dp, e->a))
			return false;
		atvar_default_module(dp, e->a);
		return sem_atvar_of(e->a)->type != SEM_UNKNOWN;
	}
	if (!e->a || e->a->kind != E_TARGET || !fam || !fam->target_type)
		return false;
	/* a target --skip-badvars zeroed is still not defined */
	if (sem_target_of(dp, e->a) && sem_target_of(dp, e->a)->zeroed)
		return false;
	ok = sem_target_check(dp, e->a, false, &err) != SEM_UNKNOWN;
	free(err.msg);
	free(err.what);
	/* the operand is asked as read: a target that cannot be read
	 * there (procfs's $value in a read probe) is not defined */
	if (ok && fam->target_use && fam->target_use(dp, e->a, 0))
		ok = false;
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
		if (e->a && e->a->kind == E_AUTOCAST && !sem_autocast_decided(e->a))
			return -1;	/* known once typed: both ways resolved */
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
		/* SystemTap resolves in source order and delete declares
		 * nothing: the name must already be a local or a global. */
		if (!(R->locals && local_named(R, e->name)) &&
		    !find_global(R->E, e->name, e->pos.file)) {
			what = describe_expr(e);
			sem_error(R->E, &e->pos, what,
				  "unresolved array in delete statement");
			free(what);
			return;
		}
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

/* foreach ([a, b] in x[1, *, *]): a slice names one key per loop key;
 * SystemTap reports another count as the slice's own arity. */
static void slice_arity(struct rctx *R, const struct stmt *s)
{
	char what[300];

	ident_what(what, sizeof(what), s->base->name);
	sem_error(R->E, &s->base->pos, what,
		  "unresolved arity-%zu global array %s, missing global declaration?",
		  s->slice.n, s->base->name);
}

/*
 * An empty try block cannot fail, so its catch never runs: as SystemTap's
 * (PR30570), the statement goes, and what its catch names counts for
 * nothing (`global e = 10` then `try { } catch (e) { }` assigns no string
 * to e).  The catch is still resolved, for its errors.
 */
static bool idle_try(struct rctx *R, struct stmt *s)
{
	struct sem_body *uses = R->uses, scratch = { 0 };

	if (R->E->o->unoptimized || !stmt_empty(s->body))
		return false;
	R->uses = &scratch;
	res_stmt(R, s->els);
	R->uses = uses;
	sem_body_free(&scratch);
	/* kept to the end: the names of the catch map its nodes */
	vec_push(&R->E->P->elided_stmts, s->els);
	vec_push(&R->E->P->elided_stmts, s->body);
	s->body = s->els = NULL;
	s->kind = S_NULL;
	return true;
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
				/* SystemTap's "never-assigned" check counts a
				 * sorted foreach as a write of the array */
				if (s->sort_dir)
					arr->sorted = true;
			}
			if (arr && s->has_slice && (int)s->slice.n != nkeys)
				slice_arity(R, s);
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
		if (idle_try(R, s))
			return;
		res_stmt(R, s->body);
		if (s->name)
			res_name(R, s, s->name, &s->name_pos);
		res_stmt(R, s->els);
		return;
	case S_IF: {
		int known = sem_static_cond(R->dp, s->e1);

		if (known < 0 && sem_autocast_undecided_cond(s->e1))
			sem_autocast_guard(R->E, R->dp, s->e1, s->body, s->els, true);
		res_expr(R, s->e1);
		if (known != 0)
			res_stmt(R, s->body);
		if (known != 1)
			res_stmt(R, s->els);
		return;
	}
	default:
		if (s->kind == S_EXPR || s->kind == S_FOR)
			R->discarded = s->e1;
		res_expr(R, s->e1);
		res_expr(R, s->e2);
		if (s->kind == S_FOR)
			R->discarded = s->e3;
		res_expr(R, s->e3);
		R->discarded = NULL;
		res_stmt(R, s->body);
		res_stmt(R, s->els);
		return;
	}
}

static void resolve_function(struct elab *E, struct sem_function *f)
{
	struct rctx R = { .E = E, .fn = f, .dp = f->ctx_dp, .locals = &f->locals,
			  .uses = &f->uses };

	f->resolved = true;
	if (f->decl->embedded) {
		if (!privileged_pos(E, &f->decl->pos))
			sem_error(E, &f->decl->embedded_pos, "embedded-code",
				  "embedded code in unprivileged script; need stap -g");
		else
			res_embedded_globals(&R, f->decl, f->decl->embedded,
					     &f->decl->embedded_pos);
		return;
	}
	/* the copy's targets join its probe's table, which pass 2 is still
	 * filling (the probe is elaboration's own, held const elsewhere),
	 * and so do the values it reads at entry: the probe's entry half
	 * saves them, the copy reads them from the probe's saved data */
	if (f->ctx_dp) {
		struct derived_probe *dp = (struct derived_probe *)f->ctx_dp;

		sem_targets_resolve_in(dp, f->decl->body, E->o->skip_badvars);
		if (dp->family->saves_entry && dp->family->saves_entry(dp))
			R.entry_exprs = &dp->entry_exprs;
	}
	rctx_init(&R);
	res_stmt(&R, f->decl->body);
	namemap_free(&R.names);
}

void resolve_probe(struct elab *E, struct derived_probe *dp)
{
	struct rctx R = { .E = E, .dp = dp, .locals = &dp->locals, .uses = &dp->uses };

	/* Locals are each probe's own, and so are the resolutions of their
	 * names (by node): a body shared (derive.c) with one that has locals
	 * becomes a copy of its own again, as yet unchanged by any pass. */
	if (dp->body_owner && (dp->body_owner->locals.n || ctxfn_called(E, dp->body))) {
		dp->body = stmt_dup(dp->body);
		dp->body_owner = NULL;
	}
	if (dp->family->saves_entry && dp->family->saves_entry(dp))
		R.entry_exprs = &dp->entry_exprs;
	sem_targets_resolve(dp, E->o->skip_badvars);
	rctx_init(&R);
	res_stmt(&R, dp->body);
	R.locals = NULL;
	res_expr(&R, dp->cond);
	namemap_free(&R.names);
}

void drain_work(struct elab *E)
{
	while (E->work.n) {
		struct sem_function *f = E->work.v[--E->work.n];

		resolve_function(E, f);
	}
}

