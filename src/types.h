/* Pass-2 value types: what elaboration infers for every variable,
 * function and expression. */
#ifndef TAPC_TYPES_H
#define TAPC_TYPES_H

#include <stdbool.h>

#include "ast.h"

enum sem_type { SEM_UNKNOWN = 0, SEM_LONG, SEM_STRING, SEM_STATS };

/* "unknown", "long", "string", "stats": SystemTap's spellings. */
const char *sem_type_name(enum sem_type t);

/* The declared type of a function or parameter (":long", ":string"). */
enum sem_type sem_type_of_decl(enum value_type t);

/* Levenshtein distance between two strings (bytes). */
int sem_edit_distance(const char *a, const char *b);

/* SystemTap's "(similar: a, b)" suggestion list: up to five of the
 * candidates within a small edit distance of name, nearest first, then by
 * name; duplicates and name itself are skipped. Returns a malloc'ed
 * " (similar: ...)" text, or an empty malloc'ed string. */
char *sem_suggest(const char *name, const char *const *cands, int n);

/* Does a probe-point component name pattern with '*' wildcards match? */
bool sem_wildcard_match(const char *pat, const char *name);

#endif
