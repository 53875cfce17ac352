/* The families' pattern rows expanded into concrete patterns (see
 * struct pattern_row in elaborate.h), once per family and run. */
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"
#include "util.h"

struct expanded {
	const struct probe_family *fam;
	struct point_pattern *v;
	size_t n, cap;
};

static struct expanded *cache;
static size_t n_cache;

static void add_pattern(struct expanded *x, int variant, const struct pat_comp *const *chosen,
			int n)
{
	struct pat_comp *c = xcalloc((size_t)n + 1, sizeof(*c));

	for (int i = 0; i < n; i++)
		c[i] = *chosen[i];
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		x->v = xrealloc(x->v, x->cap * sizeof(*x->v));
	}
	x->v[x->n++] = (struct point_pattern){ .variant = variant, .n = n, .c = c };
}

/* Components [i, ...) of row r, after the choices chosen[0 .. n). */
static void expand_from(struct expanded *x, const struct pattern_row *r, int i,
			const struct pat_comp **chosen, int n, int variant)
{
	const struct pat_comp *head = &r->c[i];
	int end = i + 1;

	if (i >= PAT_ROW_MAX || !head->name) {
		add_pattern(x, variant, chosen, n);
		return;
	}
	while (end < PAT_ROW_MAX && r->c[end].name && (r->c[end].flags & PC_OR))
		end++;
	if (head->flags & PC_OPTIONAL)
		expand_from(x, r, end, chosen, n, variant);
	for (int k = i; k < end; k++) {
		const struct pat_comp *c = &r->c[k];

		if ((variant & c->needs) != c->needs)
			continue;
		chosen[n] = c;
		expand_from(x, r, end, chosen, n + 1, variant + c->bit);
	}
}

static struct expanded *expansion(const struct probe_family *fam)
{
	const struct pat_comp *chosen[PAT_ROW_MAX];
	struct expanded *x;

	for (size_t i = 0; i < n_cache; i++)
		if (cache[i].fam == fam)
			return &cache[i];
	cache = xrealloc(cache, (n_cache + 1) * sizeof(*cache));
	x = &cache[n_cache++];
	memset(x, 0, sizeof(*x));
	x->fam = fam;
	for (size_t r = 0; r < fam->n_rows; r++)
		expand_from(x, &fam->rows[r], 0, chosen, 0, fam->rows[r].variant);
	return x;
}

const struct point_pattern *family_pattern(const struct probe_family *fam, size_t i)
{
	const struct expanded *x = expansion(fam);

	return i < x->n ? &x->v[i] : NULL;
}

size_t family_pattern_count(const struct probe_family *fam)
{
	return expansion(fam)->n;
}
