/* -l / -L output (see listing.h). */
#include "listing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"
#include "types.h"
#include "util.h"

/* A probe and the name -l prints for it. */
struct listed {
	const struct derived_probe *dp;
	char *name;
	size_t index;
};

/* The name -l prints for dp: a point listed by itself carries its
 * location's mark (kernel.function("F@FILE:N").call! from an alias's
 * "kernel.function("F") !, ..."), as stap prints it. */
static char *listed_name(const struct derived_probe *dp)
{
	char *name = derived_list_name(dp), *marked;

	if (!dp->list_by_point || !(dp->loc->sufficient || dp->loc->optional))
		return name;
	marked = xasprintf("%s%c", name, dp->loc->sufficient ? '!' : '?');
	free(name);
	return marked;
}

/* By name, then in the program's order (qsort is not stable): the
 * first probe of a point gives the order of its variables. */
static int listed_cmp(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The "NAME:TYPE" strings of the probes that share one listed point, and
 * the probe (0, 1 ...) each came from, in that order. */
struct listed_vars {
	struct vec strs;
	struct vec owners;	/* (void *)(uintptr_t)probe index */
	size_t probes;
};

static void vars_push(struct listed_vars *lv, char *s)
{
	vec_push(&lv->strs, s);
	vec_push(&lv->owners, (void *)(uintptr_t)(lv->probes - 1));
}

/* How many of the probes have the string at i. */
static size_t vars_count(const struct listed_vars *lv, size_t i)
{
	size_t n = 0, last = SIZE_MAX;

	for (size_t j = 0; j < lv->strs.n; j++) {
		size_t owner = (uintptr_t)lv->owners.v[j];

		if (owner != last && strcmp(lv->strs.v[j], lv->strs.v[i]) == 0) {
			n++;
			last = owner;
		}
	}
	return n;
}

/* Print, each after a space, the strings every probe of the point has,
 * once each, in the order first seen (SystemTap's: the locals as the
 * probe declares them, the target variables as the DWARF scope, the
 * tracepoint or the family gives them), and free them.  A point that
 * several probes share (an alias over several functions, a glob) lists
 * only what they have in common, name and type, as stap does: what a
 * script can use on every one of them. */
static void print_common(FILE *out, struct listed_vars *lv)
{
	for (size_t i = 0; i < lv->strs.n; i++) {
		size_t j = 0;

		while (j < i && strcmp(lv->strs.v[i], lv->strs.v[j]) != 0)
			j++;
		if (j == i && vars_count(lv, i) == lv->probes)
			fprintf(out, " %s", (char *)lv->strs.v[i]);
	}
	for (size_t i = 0; i < lv->strs.n; i++)
		free(lv->strs.v[i]);
	vec_free(&lv->strs);
	vec_free(&lv->owners);
}

static void collect_vars(const struct derived_probe *dp, struct listed_vars *locals,
			 struct listed_vars *targets)
{
	struct vec tv = { 0 };

	locals->probes++;
	targets->probes++;
	for (size_t i = 0; i < dp->locals.n; i++) {
		const struct vardecl *v = dp->locals.v[i];

		if (strncmp(v->name, "__", 2) != 0)
			vars_push(locals, xasprintf("%s:%s", v->name,
						    sem_type_name(v->type)));
	}
	if (dp->family && dp->family->list_targets)
		dp->family->list_targets(dp, &tv);
	for (size_t i = 0; i < tv.n; i++)
		vars_push(targets, tv.v[i]);
	vec_free(&tv);
}

void listing_print(FILE *out, const struct program *p, bool with_vars)
{
	size_t n = p->probes.n;
	struct listed *dps = xcalloc(n + 1, sizeof(*dps));

	for (size_t i = 0; i < n; i++) {
		dps[i].dp = p->probes.v[i];
		dps[i].name = listed_name(dps[i].dp);
		dps[i].index = i;
	}
	if (n > 1)
		qsort(dps, n, sizeof(*dps), listed_cmp);
	for (size_t i = 0; i < n;) {
		struct listed_vars locals = { 0 }, targets = { 0 };
		size_t j = i;

		fputs(dps[i].name, out);
		for (; j < n && strcmp(dps[j].name, dps[i].name) == 0; j++)
			if (with_vars)
				collect_vars(dps[j].dp, &locals, &targets);
		print_common(out, &locals);
		print_common(out, &targets);
		fputc('\n', out);
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		free(dps[i].name);
	free(dps);
}
