/* @var("name[@file]"[, "module"]): a global or file-static variable of
 * the kernel or of a module, found by name in its DWARF, as an access
 * path (tvar.h) like a $target variable's.
 *
 * The variable is the first DW_TAG_variable at the top level of a
 * compile unit whose name is NAME and which has a location (its
 * definition), in the compile units whose name matches FILE (a glob
 * matched against the whole name or a tail of it after a '/', as
 * probe points' "@file" are).  A variable the DWARF only declares (the
 * kernel's jiffies, defined by the linker script) is found through the
 * ELF symbol table, with the declaration's type.
 */
#ifndef TAPC_DWATVAR_H
#define TAPC_DWATVAR_H

#include <elfutils/libdw.h>

#include "elaborate.h"
#include "tvar.h"

/* The access path of e (an E_VAR) in dw, the DWARF of module (NULL or
 * "kernel": the kernel's vmlinux; user: the path of a user binary, whose
 * statics are read in the current task at their address plus the probed
 * binary's load bias); NULL with *err filled in SystemTap's words
 * ("unable to find global 'x' in kernel"). */
struct tvar *dwatvar_resolve(Dwarf *dw, const char *module, bool user, const struct expr *e,
			     struct family_error *err);

#endif
