/* Pass 2: SystemTap's warning about overloads no call can reach (see
 * sem_overload.c). */
#ifndef TAPC_SEM_OVERLOAD_H
#define TAPC_SEM_OVERLOAD_H

#include "diag.h"
#include "elaborate.h"

/* Warn about every overload of the resolved program p that a call of its
 * group can never reach. */
void sem_warn_unreachable_overloads(const struct program *p, struct diag *d);

#endif
