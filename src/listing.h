/* -l and -L: the probe points a pattern matches, as SystemTap lists them. */
#ifndef TAPC_LISTING_H
#define TAPC_LISTING_H

#include <stdbool.h>
#include <stdio.h>

#include "elaborate.h"

/* One line per distinct point, sorted: the alias name (with the user's
 * suffix) or concrete point each probe came from; with_vars (-L) adds
 * the alias's local variables ("name:type", those starting with "__"
 * left out) and the target variables ("$name:type"), each in the order
 * the probe gives them; a point several probes share lists those that
 * all of them have, as SystemTap does.  A point listed by its own name
 * carries its location's '!' or '?'. */
void listing_print(FILE *out, const struct program *p, bool with_vars);

#endif
