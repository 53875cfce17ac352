/* The callees of a function, as SystemTap's .callee("PAT") and
 * .callees(N) find them in the DWARF: the functions it calls that the
 * compiler could name, each a call site with its callee (DWARF 5's
 * DW_TAG_call_site and DW_AT_call_origin, or GCC's DW_TAG_GNU_call_site
 * and DW_AT_abstract_origin) or an inline instance in its code; and,
 * N levels deep, theirs in turn.
 */
#ifndef TAPC_DWCALLEE_H
#define TAPC_DWCALLEE_H

#include <stdbool.h>
#include <stddef.h>

#include <elfutils/libdw.h>

#include "dwindex.h"

/* One callee the pattern names. */
struct dwcallee {
	const struct dwfunc *func;	/* the index's: the function called
					 * (its out-of-line copy), or the
					 * inline instance */
	char *caller;			/* its caller as the probe point names
					 * it: "NAME@FILE:LINE" */
	char *text;			/* the callee, the same way */
	/* The return addresses of the calls that lead to it, the
	 * innermost (its own call) first; an inline instance adds none:
	 * it is in its caller's code.  A probe on the callee runs only
	 * when the stack holds them. */
	Dwarf_Addr *rets;
	size_t nrets;
	bool tail_call;			/* reached by a tail call: no frame of
					 * the caller is left to check */
};

/* The callees of F in IX whose names match the glob PAT, DEPTH levels
 * deep (1: F's own), in the DWARF's order, each call site once; how
 * many, the array (malloc'd, for dwcallee_free) in *out.  F_TEXT is F's
 * own "NAME@FILE:LINE". */
size_t dwcallee_find(const struct dwindex *ix, const struct dwfunc *f, const char *f_text,
		     const char *pat, long long depth, struct dwcallee **out);
void dwcallee_free(struct dwcallee *v, size_t n);

#endif
