/* Target variables of DWARF probes: $var, $var->field, $$parms ... read
 * over a function's DWARF (dwscope.h) into access paths (tvar.h).
 *
 * The DWARF families call these from their pass-2 hooks, exactly as the
 * struct probe_family hooks of the same names are documented (family.h):
 * dwtvar_type for target_type, dwtvar_list for list_targets.
 */
#ifndef TAPC_DWTVAR_H
#define TAPC_DWTVAR_H

#include <stdbool.h>

#include "elaborate.h"

struct dwarf_scope;
struct tvar;
struct vec;

enum sem_type dwtvar_type(const struct dwarf_scope *scope, const struct expr *e, bool write,
			  struct family_error *err, struct tvar **access);
void dwtvar_list(const struct dwarf_scope *scope, struct vec *out);

#endif
