/* Context-sensitive functions (SystemTap 4.3 and later): a function whose
 * body names target variables ($x, $$parms, @defined($x) ...) runs, when
 * a probe's body calls it, as a copy of its own resolved in that probe's
 * context (one per function and probe); a call where there is no such
 * context (a begin probe's, a plain function's) resolves the original,
 * whose targets are then errors as before. */
#ifndef TAPC_CTXFN_H
#define TAPC_CTXFN_H

#include <stdbool.h>

#include "ast.h"

struct elab;
struct sem_function;
struct derived_probe;

/* Whether f's body names a target variable. */
bool ctxfn_sensitive(const struct function *f);

/* The copy of context-sensitive f for probe dp: made (and queued for
 * resolution) at the first call, the same one afterwards. */
struct sem_function *ctxfn_clone(struct elab *E, struct sem_function *f,
				 const struct derived_probe *dp);

/* Frees E's record of the copies (the copies belong to the program). */
void ctxfn_free(struct elab *E);

/* Whether body calls a context-sensitive function (by name): a probe
 * body shared between derived probes must then be each one's own, as
 * each call names its probe's copy. */
bool ctxfn_called(struct elab *E, const struct stmt *body);

#endif
