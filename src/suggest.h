/* Suggestions for misspelt names: variables, functions, probe points,
 * tracepoints. */
#ifndef TAPC_SUGGEST_H
#define TAPC_SUGGEST_H

/* Levenshtein distance between two strings (bytes). */
int sem_edit_distance(const char *a, const char *b);

/* SystemTap's "(similar: a, b)" suggestion list: up to five of the
 * candidates within a small edit distance of name, nearest first, then by
 * name; duplicates and name itself are skipped. Returns a malloc'ed
 * " (similar: ...)" text, or an empty malloc'ed string. */
char *sem_suggest(const char *name, const char *const *cands, int n);

#endif
