/* @const("NAME"): which constants the generated C can name (atconst.c). */
#ifndef TAPC_ATCONST_H
#define TAPC_ATCONST_H

#include <stdbool.h>
#include <string.h>

#include "ast.h"

/* Whether @const(name) may be pasted into tapc's generated C: one of the
 * runtime's limits, or with -g (guru: the kernel's headers included) any
 * C identifier. */
bool atconst_allowed(const char *name, bool guru);

/* Whether e is @const("NAME") (the parser takes only a string). */
static inline bool is_atconst(const struct expr *e)
{
	return e->kind == E_ATOP && e->name && strcmp(e->name, "@const") == 0 &&
	       e->args.n == 1 && ((const struct expr *)e->args.v[0])->kind == E_STR;
}

/* NAME of @const("NAME"). */
static inline const char *atconst_name(const struct expr *e)
{
	return ((const struct expr *)e->args.v[0])->str;
}

#endif
