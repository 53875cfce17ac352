/* The runtime's limits that -D may set (the table is rtlimits.def): what
 * each can really take is checked when the options are read, so that a
 * value the runtime cannot hold is refused with a clear error instead of
 * failing in the compiler or at load. */
#ifndef TAPC_RTLIMITS_H
#define TAPC_RTLIMITS_H

#include <stdbool.h>

#include "options.h"

/* Check the -D definitions (the last one of a name wins, as for the
 * compiler): every known limit a whole number in its range, and the
 * limits that depend on each other in agreement.  False after printing
 * why. */
bool limits_check(const struct strlist *defines);

/* Whether the -D definition def ("NAME" or "NAME=VALUE") sets a limit
 * only the generated module reads (MODULE_ONLY in rtlimits.def), so that
 * the runtime's objects do not depend on it. */
bool limit_module_only(const char *def);

#endif
