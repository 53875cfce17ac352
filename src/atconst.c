/* @const("NAME"): the value of a C constant, as SystemTap's operator.
 *
 * SystemTap pastes NAME into the module's C, where the kernel's headers
 * are included.  The C tapc generates for a tapset sees one header,
 * tapc_runtime.h (doc/ARCHITECTURE.md), so the names @const can stand for
 * there are the runtime limits defined in it (with their -D overrides);
 * any other name is refused in pass 2 rather than left to fail in the
 * compiler.  With -g the module's C also includes the kernel headers
 * SystemTap's runtime does (tapc_embedded.h), so any C identifier is
 * taken, and one the kernel lacks fails in pass 4, as in SystemTap.
 */
#include <ctype.h>
#include <string.h>

#include "atconst.h"

static const char *const atconst_names[] = {
	"MAXSTRINGLEN", "MAXMAPENTRIES", "MAXACTION", "MAXACTION_INTERRUPTIBLE",
	"INTERRUPTIBLE", "MAXNESTING", "MAXERRORS", "MAXSKIPPED", "MAXTRYLOCK",
	"TRYLOCKDELAY",
};

static bool atconst_known(const char *name)
{
	for (size_t i = 0; i < sizeof(atconst_names) / sizeof(atconst_names[0]); i++)
		if (strcmp(atconst_names[i], name) == 0)
			return true;
	return false;
}

static bool c_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

bool atconst_allowed(const char *name, bool guru)
{
	return guru ? c_identifier(name) : atconst_known(name);
}
