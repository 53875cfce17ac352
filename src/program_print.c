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
	if (p->probes.n || any_auto_print(p))
		fputs("# probes\n", out);
	for (size_t i = 0; i < p->probes.n; i++) {
		const struct derived_probe *dp = p->probes.v[i];

		char *t = pp_full_text(dp->loc);
		char *sig = dp->family->print_sig ? dp->family->print_sig(dp) : NULL;
		char *chain = derivation_text(dp, " <- ");

		fprintf(out, "%s%s /* <- %s */\n", t, sig ? sig : "", chain);
		free(chain);
		free(sig);
		free(t);
		print_locals(out, &dp->locals);
	}
	for (size_t i = 0; i < p->globals.n; i++)
		print_auto_print(out, p->globals.v[i]);
}

