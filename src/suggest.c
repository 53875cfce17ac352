/* SystemTap's "similar:" suggestions (see suggest.h). */
#include "suggest.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/*
 * SystemTap's distance, whose exact values decide which names it
 * suggests and in what order: inside the table a substitution costs 2
 * (1 between the two cases of one letter), an insertion or deletion 2;
 * the table's borders (one string against a prefix of nothing) count 1
 * per character.  Always at least the difference in length.
 */
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
			int best;

			if (a[i - 1] == b[j - 1]) {
				best = diag;
			} else {
				int sub = tolower((unsigned char)a[i - 1]) ==
					  tolower((unsigned char)b[j - 1]) ? 1 : 2;

				best = diag + sub;
				if (up + 2 < best)
					best = up + 2;
				if (row[j - 1] + 2 < best)
					best = row[j - 1] + 2;
			}
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

void nearest_init(struct nearest *nr, const char *target)
{
	memset(nr, 0, sizeof(*nr));
	nr->target = target;
	nr->target_len = strlen(target);
}

/* Whether (d, name) sorts before slot i. */
static bool nearer(const struct nearest *nr, int d, const char *name, int i)
{
	return d != nr->dist[i] ? d < nr->dist[i] : strcmp(name, nr->name[i]) < 0;
}

void nearest_offer(struct nearest *nr, const char *cand)
{
	size_t len;
	int d, at;

	if (!cand || !*cand)
		return;
	len = strlen(cand);
	/* the length difference is a lower bound of the distance: most
	 * candidates of a full list stop here */
	if (nr->n == NEAREST_MAX &&
	    (len > nr->target_len ? len - nr->target_len : nr->target_len - len) >
		    (size_t)nr->dist[NEAREST_MAX - 1])
		return;
	for (int i = 0; i < nr->n; i++)
		if (!strcmp(nr->name[i], cand))
			return;
	d = sem_edit_distance(nr->target, cand);
	at = nr->n;
	while (at > 0 && nearer(nr, d, cand, at - 1))
		at--;
	if (at == NEAREST_MAX)
		return;
	if (nr->n < NEAREST_MAX)
		nr->n++;
	memmove(&nr->name[at + 1], &nr->name[at], sizeof(nr->name[0]) * (size_t)(nr->n - 1 - at));
	memmove(&nr->dist[at + 1], &nr->dist[at], sizeof(nr->dist[0]) * (size_t)(nr->n - 1 - at));
	nr->name[at] = cand;
	nr->dist[at] = d;
}

/* " (similar[ WHAT]: a, b)" of the names kept at most LIMIT edits away,
 * or "". */
static void similar_list(struct strbuf *sb, const struct nearest *nr, const char *what,
			 int limit)
{
	int k = 0;

	for (int i = 0; i < nr->n && nr->dist[i] <= limit; i++, k++) {
		if (k == 0)
			strbuf_addf(sb, " (similar%s%s: %s", what ? " " : "", what ? what : "",
				    nr->name[i]);
		else
			strbuf_addf(sb, ", %s", nr->name[i]);
	}
	if (k)
		strbuf_addc(sb, ')');
}

char *nearest_no_match(const struct nearest *nr, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "no match");
	similar_list(&sb, nr, what, INT_MAX);
	return strbuf_detach(&sb);
}

char *nearest_similar(const struct nearest *nr)
{
	struct strbuf sb = STRBUF_INIT;

	if (!(nr->n && nr->dist[0] == 0))
		similar_list(&sb, nr, NULL, INT_MAX);
	return strbuf_detach(&sb);
}

char *sem_suggest(const char *name, const char *const *cands, int n)
{
	struct strbuf sb = STRBUF_INIT;
	struct nearest nr;

	nearest_init(&nr, name);
	for (int i = 0; i < n; i++)
		nearest_offer(&nr, cands[i]);
	/* a name that is right needs none: something else is wrong; else
	 * the nearest five, however far, as SystemTap lists them */
	if (!(nr.n && nr.dist[0] == 0))
		similar_list(&sb, &nr, NULL, INT_MAX);
	return strbuf_detach(&sb);
}

struct ranked {
	const char *name;
	int dist;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->dist != y->dist ? (x->dist > y->dist) - (x->dist < y->dist)
				  : strcmp(x->name, y->name);
}

void sem_sort_nearest(const char *target, const char **names, size_t n)
{
	struct ranked *r = xcalloc(n + 1, sizeof(*r));

	for (size_t i = 0; i < n; i++) {
		r[i].name = names[i];
		r[i].dist = sem_edit_distance(target, names[i]);
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (size_t i = 0; i < n; i++)
		names[i] = r[i].name;
	free(r);
}
