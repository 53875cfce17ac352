/* @perf("NAME") in passes 2 and 3 (sem_perf.c). */
#ifndef TAPC_SEM_PERF_H
#define TAPC_SEM_PERF_H

#include <stdbool.h>

#include "elaborate.h"

struct elab;
struct tr;

/* Whether e is @perf("NAME"). */
bool is_atperf(const struct expr *e);

/* Pass 2: resolve @perf e in probe dp (NULL in a function), whose
 * locals (NULL in a condition) get SystemTap's __perf_read_NAME. */
void sem_perf_resolve(struct elab *E, const struct derived_probe *dp, struct vec *locals,
		      const struct expr *e);

/* Pass 3: the C of @perf e in probe dp (NULL in a function), or an
 * error. */
char *tr_perf(struct tr *T, const struct program *P, const struct derived_probe *dp,
	      const struct expr *e);

#endif
