/* DWARF location expressions, lowered to where a target variable's walk
 * starts (tvar_resolve.h's struct tvar_origin): a register's value, a
 * register plus an offset as an address (stack slots, DW_OP_fbreg over
 * the CFA), a static address the runtime relocates, or a constant.
 */
#ifndef TAPC_DWLOC_H
#define TAPC_DWLOC_H

#include <elfutils/libdw.h>

#include "dwscope.h"
#include "tvar_resolve.h"

/* Where variable (or parameter) die lives at scope->pc: 0 with *out
 * filled, or -1 with *msg (malloc'd) saying why it cannot be read, in
 * SystemTap's words ("not accessible at this address ..."). */
int dwloc_variable(const struct dwarf_scope *scope, Dwarf_Die *die, struct tvar_origin *out,
		   char **msg);

/* The link-time address of the defined symbol NAME in the ELF symbol
 * table of the file dbg came from (the kernel's: jiffies_64 is what its
 * static addresses are relocated against at run time); false if none. */
bool dwloc_symbol(Dwarf *dbg, const char *name, uint64_t *addr);

/* The address of the (first) symbol called @name of the ELF file @dbg
 * came with, in the DWARF's addresses (a relocatable file's section
 * address added, as libdwfl placed it), and the bounds [lo, hi) of the
 * section holding it; false if there is none. */
bool dwloc_symbol_section(Dwarf *dbg, const char *name, uint64_t *addr, uint64_t *lo,
			  uint64_t *hi);

/* Where a kprobe can be placed at code address ADDR of a module whose
 * function there has a name the module has twice (two files' statics):
 * the nearest function below ADDR in its section whose name is unique in
 * the module, and the offset from it (*offset), as "MOD:NAME" names one
 * symbol only; NULL when there is none.  (A module's sections are loaded
 * apart, so the anchor must be in the same one.) */
const char *dwloc_anchor(Dwarf *dbg, uint64_t addr, unsigned long *offset);

/* S, kept until the process ends (the strings of struct tvar_dwop). */
const char *dwloc_intern(const char *s);
/* A copy of ops[0..n), kept until the process ends, the same pointer
 * for equal ones (an entry value's expression, struct tvar_dwop). */
const struct tvar_dwop *dwloc_intern_ops(const struct tvar_dwop *ops, size_t n);

/* The type of a variable, parameter or function DIE (its DW_AT_type,
 * through abstract origins and specifications) as a ctype_id of
 * ctypes_dwarf(), 0 for none or void. */
ctype_id dwloc_type_of(Dwarf_Die *die);

/* Whether a call site DIE is a tail call (DW_AT_call_tail_call, or
 * GCC's DWARF 4 DW_AT_GNU_tail_call): a jump, which leaves no return
 * address of its own. */
bool dwloc_tail_call(Dwarf_Die *site);

/* Where a function's return value is at a .return probe (x86-64: rax,
 * or xmm0 for a user function's float or double). */
void dwloc_return_value(struct tvar_origin *out, bool in_xmm0);

#endif
