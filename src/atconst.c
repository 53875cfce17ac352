/* @const("NAME"): the value of a C constant, as SystemTap's operator.
 *
 * SystemTap pastes NAME into the module's C, where the kernel's headers
 * are included.  The C tapc generates sees one header, tapc_runtime.h
 * (doc/ARCHITECTURE.md), so the names @const can stand for are the
 * runtime limits defined there (with their -D overrides); any other name
 * is refused in pass 2 rather than left to fail in the compiler.
 */
#include <string.h>

#include "atconst.h"

static const char *const atconst_names[] = {
	"MAXSTRINGLEN", "MAXMAPENTRIES", "MAXACTION", "MAXACTION_INTERRUPTIBLE",
	"INTERRUPTIBLE", "MAXNESTING", "MAXERRORS", "MAXSKIPPED", "MAXTRYLOCK",
	"TRYLOCKDELAY",
};

bool atconst_known(const char *name)
{
	for (size_t i = 0; i < sizeof(atconst_names) / sizeof(atconst_names[0]); i++)
		if (strcmp(atconst_names[i], name) == 0)
			return true;
	return false;
}
