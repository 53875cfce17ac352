/*
 * --check-version.  SystemTap marks a declaration parsed while a
 * %( systemtap_v ... %) condition was evaluated (parser.y: the decl's
 * version_dependent) and, once pass 2 has resolved what the script uses,
 * warns of each such global, then function, then probe and alias: the
 * globals in the order resolution met them, the functions by name, then
 * for each probe the aliases it came through, innermost first ("This
 * alias uses ..."), and the user's probe ("This probe uses ...").  As
 * every SystemTap warning, one text is printed once and the others are
 * counted as similar (-v shows them).
 */
#include "sem_version.h"

#include <stdlib.h>
#include <string.h>

#include "elab_int.h"

static const char *const version_msg =
	"This %s uses tapset constructs that are dependent on systemtap version";

/* One warning of a probe's derivation: "alias" or "probe", and where. */
struct version_note {
	const struct derived_probe *dp;
	const char *kind;
	const struct srcpos *pos;
};

void sem_version_note(struct elab *E, const struct derived_probe *dp, const char *kind,
		      const struct srcpos *pos)
{
	struct version_note *n = xmalloc(sizeof(*n));

	n->dp = dp;
	n->kind = kind;
	n->pos = pos;
	vec_push(&E->version_probes, n);
}

void sem_version_free(struct elab *E)
{
	for (size_t i = 0; i < E->version_probes.n; i++)
		free(E->version_probes.v[i]);
	vec_free(&E->version_probes);
}

static int fn_name_cmp(const void *a, const void *b)
{
	const struct sem_function *x = *(const struct sem_function *const *)a;
	const struct sem_function *y = *(const struct sem_function *const *)b;

	return strcmp(x->name, y->name);
}

static void warn_functions(struct elab *E)
{
	struct vec fns = { 0 };
	char what[300];

	for (size_t i = 0; i < E->fns.n; i++) {
		struct sem_function *f = E->fns.v[i];

		if (f->resolved && f->decl && f->decl->version_dependent)
			vec_push(&fns, f);
	}
	if (fns.n > 1)
		qsort(fns.v, fns.n, sizeof(void *), fn_name_cmp);
	for (size_t i = 0; i < fns.n; i++) {
		const struct sem_function *f = fns.v[i];

		ident_what(what, sizeof(what), f->name);
		sem_warn(E, &f->decl->pos, what, version_msg, "function");
	}
	vec_free(&fns);
}

/* The twins of one SystemTap probe (a system call's numbers) are one
 * probe to warn about. */
static void warn_probes(struct elab *E)
{
	const struct derived_probe *last = NULL;
	bool twin = false;

	for (size_t i = 0; i < E->version_probes.n; i++) {
		const struct version_note *n = E->version_probes.v[i];

		if (n->dp != last) {
			twin = last && derived_probe_twins(last, n->dp);
			last = n->dp;
		}
		if (!twin)
			sem_warn(E, n->pos, "keyword", version_msg, n->kind);
	}
}

void sem_version_warn(struct elab *E)
{
	const struct program *P = E->P;
	char what[300];

	for (size_t i = 0; i < P->globals.n; i++) {
		const struct vardecl *v = P->globals.v[i];

		if (!v->decl || !v->decl->version_dependent)
			continue;
		ident_what(what, sizeof(what), v->name);
		sem_warn(E, &v->decl->pos, what, version_msg, "global");
	}
	warn_functions(E);
	warn_probes(E);
}
