/* SystemTap's "similar:" suggestions (see suggest.h). */
#include "suggest.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int sem_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xmalloc(sizeof(*row) * (lb + 1));
	int d;

	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

struct cand {
	const char *name;
	int dist;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->dist != b->dist)
		return a->dist - b->dist;
	return strcmp(a->name, b->name);
}

char *sem_suggest(const char *name, const char *const *cands, int n)
{
	struct cand *c = xcalloc((size_t)n + 1, sizeof(*c));
	struct strbuf sb = STRBUF_INIT;
	int k = 0, limit = strlen(name) <= 2 ? 1 : 2;

	for (int i = 0; i < n; i++) {
		bool dup = false;
		int dist;

		if (!cands[i])
			continue;
		if (!strcmp(cands[i], name)) {
			/* The name is right; something else is wrong. */
			k = 0;
			break;
		}
		for (int j = 0; j < k && !dup; j++)
			dup = !strcmp(c[j].name, cands[i]);
		if (dup)
			continue;
		dist = sem_edit_distance(name, cands[i]);
		if (dist <= limit) {
			c[k].name = cands[i];
			c[k].dist = dist;
			k++;
		}
	}
	qsort(c, (size_t)k, sizeof(*c), cand_cmp);
	for (int i = 0; i < k && i < 5; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : " (similar: ", c[i].name);
	if (k)
		strbuf_addc(&sb, ')');
	free(c);
	return strbuf_detach(&sb);
}
