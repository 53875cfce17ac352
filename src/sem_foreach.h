/* Pass 2: a function called in the body of a foreach must not modify the
 * array the loop iterates (see sem_foreach.c). */
#ifndef TAPC_SEM_FOREACH_H
#define TAPC_SEM_FOREACH_H

#include "diag.h"
#include "elaborate.h"

/* Report every such call of the resolved, typed program p. */
void sem_check_foreach_calls(const struct program *p, struct diag *d);

#endif
