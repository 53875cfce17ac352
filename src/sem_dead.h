/* Pass 2, before type inference: locals read only by assignments that are
 * dropped are unused too (sem_dead.c). */
#ifndef TAPC_SEM_DEAD_H
#define TAPC_SEM_DEAD_H

#include "elaborate.h"

/* Elide the locals of BODY (LOCALS, the ones never read already elided)
 * that only dropped assignments read, to a fixed point. */
void sem_elide_dead(const struct program *P, const struct stmt *body,
		    const struct vec *locals);

#endif
