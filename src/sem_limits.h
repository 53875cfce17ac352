/* Pass 2: what the module would refuse when it is loaded, refused at
 * compile time with a position (see sem_limits.c). */
#ifndef TAPC_SEM_LIMITS_H
#define TAPC_SEM_LIMITS_H

#include "diag.h"
#include "elaborate.h"

/* Check the arrays, statistics and histograms of the resolved, typed
 * program p against the runtime's limits. */
void sem_check_limits(const struct program *p, const struct elab_options *o,
		      struct diag *d);

#endif
