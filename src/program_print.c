/* -p2: the elaborated program in stap -p2's layout. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elab_int.h"
#include "pptext.h"
#include "probes/family.h"

/* ---- output and cleanup ------------------------------------------------------ */

static void print_var(FILE *out, const struct vardecl *v)
{
	fputs(v->name, out);
	if (v->wrap)		/* global a% */
		fputc('%', out);
	if (v->maxsize > 0)	/* global a[N] */
		fprintf(out, "[%" PRId64 "]", v->maxsize);
	fprintf(out, ":%s", sem_type_name(v->type));
	if (v->arity > 0) {
		fputs(" [", out);
		for (int i = 0; i < v->arity; i++)
			fprintf(out, "%s%s", i ? ", " : "", sem_type_name(v->index_types[i]));
		fputc(']', out);
	}
	fputc('\n', out);
}

/* A global written and never read is printed by an end probe of its own,
 * which stap -p2 lists with the locals its loop over an array needs. */
static void print_auto_print(FILE *out, const struct vardecl *v)
{
	if (!v->auto_print)
		return;
	fputs("end /* <- end */\n", out);
	if (v->arity <= 0)
		return;
	fputs("  # locals\n", out);
	for (int i = 0; i < v->arity; i++)
		fprintf(out, "  __idx%d:%s\n", i, sem_type_name(v->index_types[i]));
	if (v->type != SEM_STATS)
		fprintf(out, "  __val:%s\n", sem_type_name(v->type));
}

static bool any_auto_print(const struct program *p)
{
	for (size_t i = 0; i < p->globals.n; i++)
		if (((const struct vardecl *)p->globals.v[i])->auto_print)
			return true;
	return false;
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

/* Whether a probe condition names a variable: a global, since a
 * condition may name no local. */
static bool cond_names_global(const struct expr *e)
{
	if (!e)
		return false;
	if (e->kind == E_SYM)
		return true;
	if (cond_names_global(e->a) || cond_names_global(e->b) || cond_names_global(e->c))
		return true;
	for (size_t i = 0; i < e->args.n; i++)
		if (cond_names_global(e->args.v[i]))
			return true;
	return false;
}

/* The user's probe points with resolved names, when step is their text
 * (a family may name the step otherwise: .callee's); else NULL. */
static char *user_points_text(const struct derived_probe *dp, const char *step)
{
	struct strbuf plain = STRBUF_INIT, resolved = STRBUF_INIT;

	if (!dp->origin)
		return NULL;
	for (size_t i = 0; i < dp->origin->points.n; i++) {
		char *p = pp_full_text(dp->origin->points.v[i]);
		char *r = pp_resolved_text(dp->origin->points.v[i]);

		strbuf_addf(&plain, "%s%s", i ? "," : "", p);
		strbuf_addf(&resolved, "%s%s", i ? "," : "", r);
		free(p);
		free(r);
	}
	if (strcmp(plain.buf ? plain.buf : "", step)) {
		strbuf_free(&resolved);
		strbuf_free(&plain);
		return NULL;
	}
	strbuf_free(&plain);
	return strbuf_detach(&resolved);
}

/* A probe of a family resolved through DWARF or ELF, as stap -p2 prints
 * it (probe_family.print_point): the registered point, then only the
 * well-formed one as its derivation. */
static void print_resolved_probe(FILE *out, const struct derived_probe *dp, const char *sig)
{
	char *point = NULL, *chain = NULL, *pt, *ch;

	if (dp->family->print_point)
		dp->family->print_point(dp, &point, &chain);
	pt = pp_marked_text(dp->loc, point, "__global_");
	ch = pp_marked_text(dp->loc, chain ? chain : dp->wellformed, "__global_");
	fprintf(out, "%s%s /* <- %s */\n", pt, sig ? sig : "", ch);
	free(pt);
	free(ch);
	free(point);
	free(chain);
}

/* "POINT <- CHAIN" as stap -p2 prints it: the names in a derived probe's
 * condition are its resolved globals ("__global_NAME"), and so are those
 * of the user's probe when no alias came between (the two share one
 * condition there; an alias copies the user's, which keeps its names). */
static void print_probe(FILE *out, const struct derived_probe *dp)
{
	char *t, *sig = dp->family->print_sig ? dp->family->print_sig(dp) : NULL;

	if (dp->wellformed) {
		print_resolved_probe(out, dp, sig);
		free(sig);
		return;
	}
	t = pp_resolved_text(dp->loc);
	fprintf(out, "%s%s /* <- ", t, sig ? sig : "");
	for (size_t i = 0; i < dp->chain.n; i++) {
		const char *step = dp->chain.v[i];
		char *u = dp->chain.n == 1 ? user_points_text(dp, step) : NULL;

		fprintf(out, "%s%s", i ? " <- " : "", u ? u : step);
		free(u);
	}
	fputs(" */\n", out);
	free(sig);
	free(t);
}

void program_print(FILE *out, const struct program *p)
{
	const struct derived_probe *prev = NULL;

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
	if (p->probes.n || any_auto_print(p))
		fputs("# probes\n", out);
	for (size_t i = 0; i < p->probes.n; i++) {
		const struct derived_probe *dp = p->probes.v[i];

		if (!prev || !derived_probe_twins(prev, dp)) {
			print_probe(out, dp);
			print_locals(out, &dp->locals);
		}
		prev = dp;
	}
	/* SystemTap arms conditions on globals with a begin probe of its
	 * own, which -p2 lists before the display probes */
	for (size_t i = 0; i < p->probes.n; i++) {
		if (cond_names_global(((const struct derived_probe *)p->probes.v[i])->loc->cond)) {
			fputs("begin /* <- begin */\n", out);
			break;
		}
	}
	for (size_t i = 0; i < p->globals.n; i++)
		print_auto_print(out, p->globals.v[i]);
}

