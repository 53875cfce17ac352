/* Pass 3: translation of an elaborated program into C.
 *
 * translate() writes the module's C in two parts:
 *
 *  - main_c: the probe handlers, script functions, globals and the tables
 *    the runtime reads (tap_probes[], tap_globals[], tap_locals_size,
 *    tap_timing, tap_privilege).  It includes only "tapc_runtime.h" (plus the script's
 *    own top-level %{ %} blocks, with -g), so it compiles at any -O level;
 *  - params_c: the small part that needs kernel headers, compiled at
 *    kbuild's own level: module_param() declarations that let
 *    `tapc-run MODULE.ko NAME=VALUE` (and tapc -G NAME=VALUE) set the
 *    initial value of a long or string global.
 *
 * The generated code follows doc/RUNTIME.md.  -p3 prints main_c.
 */
#ifndef TAPC_TRANSLATE_H
#define TAPC_TRANSLATE_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "elaborate.h"

struct umod_set;

struct translate_options {
	const char *module_name;	/* -m, or the generated name */
	bool timing;			/* -t: hit and cycle report */
	bool guru;			/* -g */
	bool global_var_display;	/* not --no-global-var-display */
	bool suppress_handler_errors;	/* --suppress-handler-errors */
	unsigned privilege;		/* --privilege: enum privilege (0 counts
					 * as PRIV_STAPDEV), recorded in the
					 * module for tapc-run and the runtime */
	const struct umod_set *umods;	/* user binaries' symbols and unwind
					 * rows for the module, or NULL */
	const char *compatible;		/* --compatible, or NULL: 4.8 */
};

/* False after errors reported through d (nothing usable was written). */
bool translate(const struct program *p, const struct translate_options *o,
	       FILE *main_c, FILE *params_c, struct diag *d);

#endif
