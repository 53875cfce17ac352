/* Wildcards in probe point names. */
#ifndef TAPC_GLOB_H
#define TAPC_GLOB_H

#include <stdbool.h>

/* Does a probe-point component name pattern with '*' wildcards match? */
bool sem_wildcard_match(const char *pat, const char *name);

#endif
