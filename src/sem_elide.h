/* Pass 2: probes whose handlers have no effect are left out (sem_elide.c). */
#ifndef TAPC_SEM_ELIDE_H
#define TAPC_SEM_ELIDE_H

#include "elab_int.h"

/* Move the probes whose handlers can have no effect from E's program's
 * probes to its elided ones, warning for each the user wrote, as
 * SystemTap does.  Run after the locals are elided (sem_dead.c) and
 * before types are inferred.  Returns how many were elided. */
size_t sem_elide_probes(struct elab *E);

/* Drop the expression statements that can have no effect, warning as
 * SystemTap does (also for each assignment to a local nobody reads).
 * Run once the program's functions and the variables' read and write
 * counts are known, before the locals are elided and types inferred. */
void sem_elide_statements(struct elab *E);

#endif
