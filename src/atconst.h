/* @const("NAME"): which constants the generated C can name (atconst.c). */
#ifndef TAPC_ATCONST_H
#define TAPC_ATCONST_H

#include <stdbool.h>
#include <string.h>

#include "ast.h"

/* Whether @const(name) has a value in tapc's generated C. */
bool atconst_known(const char *name);

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
