/* Pass 2: errors that wait for the first round of elision. */
#ifndef TAPC_SEM_DEFER_H
#define TAPC_SEM_DEFER_H

#include "elab_int.h"

/* Remember an error of expression e (an @entry outside a .return probe,
 * a target variable its probe cannot resolve) instead of reporting it. */
void sem_defer_error(struct elab *E, const struct expr *e, const struct srcpos *pos,
		     const char *what, const char *msg);

/* Report, in the order they were met, the remembered errors whose
 * expressions the program still runs; forget the others. */
void sem_report_deferred(struct elab *E);

/* Forget them (pass 2 failed before). */
void sem_drop_deferred(struct elab *E);

#endif
