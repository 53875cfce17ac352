/* --dump-functions, --dump-probe-types, --dump-probe-aliases (stap's). */
#ifndef TAPC_DUMPS_H
#define TAPC_DUMPS_H

#include <stdio.h>

#include "ast.h"

/* Every public tapset function: "name:type (arg:type, ...)" and its
 * privilege mark, sorted as stap sorts them. */
void dump_functions(FILE *out, struct script *const *lib, int n_lib);

/* Every public alias: "name = point, point?". */
void dump_probe_aliases(FILE *out, struct script *const *lib, int n_lib);

/* Every probe point pattern of the family table: "timer.ms(number)". */
void dump_probe_types(FILE *out);

#endif
