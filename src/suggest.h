/* Suggestions for misspelt names: variables, functions, probe points,
 * tracepoints. */
#ifndef TAPC_SUGGEST_H
#define TAPC_SUGGEST_H

#include <stddef.h>

/* SystemTap's weighted Levenshtein distance between two strings (bytes):
 * what orders its suggestions (suggest.c). */
int sem_edit_distance(const char *a, const char *b);

/* SystemTap's "(similar: a, b)" suggestion list: the five candidates
 * nearest to name, however far, nearest first, then by name, each once;
 * none when name itself is a candidate. Returns a malloc'ed
 * " (similar: ...)" text, or an empty malloc'ed string. */
char *sem_suggest(const char *name, const char *const *cands, int n);

/* names[0..n) in the order SystemTap lists "alternatives": by distance
 * to target (a name asked for, without its '$'), then by name. */
void sem_sort_nearest(const char *target, const char **names, size_t n);

/* The nearest names to a target among candidates offered one at a time
 * (SystemTap's "no match (similar functions: ...)"): up to
 * NEAREST_MAX of them, nearest first, then by name, with no distance
 * limit; repeats are not kept.  As in SystemTap, the target itself is a
 * candidate: a function that exists but cannot be probed that way (a
 * .return of an inline one, a label it lacks) is named first. */
#define NEAREST_MAX 5

struct nearest {
	const char *target;
	size_t target_len;
	int n;
	const char *name[NEAREST_MAX];
	int dist[NEAREST_MAX];
};

void nearest_init(struct nearest *nr, const char *target);
void nearest_offer(struct nearest *nr, const char *cand);
/* "no match", plus " (similar WHAT: a, b, ...)" when a name was kept;
 * malloc'ed. */
char *nearest_no_match(const struct nearest *nr, const char *what);
/* " (similar: a, b, ...)" of the names kept, or "" (none kept, or the
 * target itself is one: something else is wrong); malloc'ed. */
char *nearest_similar(const struct nearest *nr);

#endif
