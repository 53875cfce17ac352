/* Pass 2, before type inference: locals read only by assignments that are
 * dropped are unused too (sem_dead.c). */
#ifndef TAPC_SEM_DEAD_H
#define TAPC_SEM_DEAD_H

#include "elaborate.h"

/* Elide the locals of BODY (LOCALS, the ones never read already elided)
 * that only dropped assignments read, to a fixed point. */
void sem_elide_dead(const struct program *P, const struct stmt *body,
		    const struct vec *locals);

/* Push onto OUT the functions BODY calls that pass 3 will call: every
 * call's function and its overloads (a call may run any of them), less
 * those only in assignments pass 3 drops (program_dropped_assign).  Once
 * per call; run after sem_elide_dead has elided what it can. */
void sem_live_calls(const struct program *P, const struct stmt *body, struct vec *out);

#endif
