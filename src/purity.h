/* Pass 2 and 3: whether an expression or statement can have an effect
 * (purity.c).  One notion for every user: the elision of probes and
 * statements (sem_elide.c), the dropped assignments to unread locals
 * (program_dropped_assign, sem_dead.c) and pass 3's folding of 0 * x. */
#ifndef TAPC_PURITY_H
#define TAPC_PURITY_H

#include <stdbool.h>

#include "elaborate.h"
#include "lookup.h"

/* A judge of one program as it stands: what it learns of each script
 * function is kept (a memo), so make a new one after the tree changed. */
struct purity {
	const struct program *P;
	struct ptrindex fns;	/* struct sem_function * -> enum fn_state */
	/* Inside a function's body: what it writes to its own locals and
	 * parameters ends with the call, so a write there is no effect of
	 * the call (SystemTap judges a function by what its caller sees). */
	bool in_fn;
	/* Count those writes as effects too: SystemTap's constant folding
	 * drops an operand only when it writes no variable at all. */
	bool strict;
};

void purity_init(struct purity *U, const struct program *P, bool strict);
void purity_free(struct purity *U);

/* Whether evaluating e can have an effect besides its value. */
bool purity_expr_effect(struct purity *U, const struct expr *e);
/* Whether running the function a call names (any overload of its group)
 * can have an effect, its arguments aside. */
bool purity_callee_effect(struct purity *U, const struct expr *call);
/* Whether running s can have an effect; in_fn: s is (in) a function's
 * body, where "return VALUE" only hands back a value. */
bool purity_stmt_effect(struct purity *U, const struct stmt *s, bool in_fn);

#endif
