/* -l / -L output (see listing.h). */
#include "listing.h"

#include <stdlib.h>
#include <string.h>

#include "probes/family.h"
#include "types.h"
#include "util.h"

/* A probe and the name -l prints for it. */
struct listed {
	const struct derived_probe *dp;
	char *name;
};

static int listed_cmp(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->name, ((const struct listed *)b)->name);
}

/* Whether "NAME:TYPE" strings a and b name the same variable. */
static bool same_name(const char *a, const char *b)
{
	size_t n = strcspn(a, ":");

	return strncmp(a, b, n) == 0 && (b[n] == ':' || b[n] == 0);
}

/* Print the strings of v each after a space, in v's order (SystemTap's:
 * the locals as the probe declares them, the target variables as the
 * DWARF scope, the tracepoint or the family gives them) and each name once,
 * and free them. */
static void print_set(FILE *out, struct vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		size_t j = 0;

		/* one NAME (of "NAME:TYPE") each: the first probe's type */
		while (j < i && !same_name(v->v[i], v->v[j]))
			j++;
		if (j == i)
			fprintf(out, " %s", (char *)v->v[i]);
	}
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
}

static void collect_vars(const struct derived_probe *dp, struct vec *locals,
			 struct vec *targets)
{
	for (size_t i = 0; i < dp->locals.n; i++) {
		const struct vardecl *v = dp->locals.v[i];

		if (strncmp(v->name, "__", 2) != 0)
			vec_push(locals, xasprintf("%s:%s", v->name, sem_type_name(v->type)));
	}
	if (dp->family && dp->family->list_targets)
		dp->family->list_targets(dp, targets);
}

void listing_print(FILE *out, const struct program *p, bool with_vars)
{
	size_t n = p->probes.n;
	struct listed *dps = xcalloc(n + 1, sizeof(*dps));

	for (size_t i = 0; i < n; i++) {
		dps[i].dp = p->probes.v[i];
		dps[i].name = derived_list_name(dps[i].dp);
	}
	if (n > 1)
		qsort(dps, n, sizeof(*dps), listed_cmp);
	for (size_t i = 0; i < n;) {
		struct vec locals = { 0 }, targets = { 0 };
		size_t j = i;

		fputs(dps[i].name, out);
		for (; j < n && strcmp(dps[j].name, dps[i].name) == 0; j++)
			if (with_vars)
				collect_vars(dps[j].dp, &locals, &targets);
		print_set(out, &locals);
		print_set(out, &targets);
		fputc('\n', out);
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		free(dps[i].name);
	free(dps);
}
