/* Location lists of code built with gcc's -mfentry (the kernel's, for
 * ftrace) may start only after the 5-byte call to __fentry__ at a
 * function's entry, although nothing has moved yet: a probe on the
 * entry would find its parameters and locals "not accessible".
 * SystemTap works around it (its PR15123) by looking the location list
 * up again at pc + 5 when the first lookup finds nothing, the unit was
 * built by gcc with -mfentry and pc is a function's entry.  tapc does
 * the same, for $var reads, $$vars and -L alike, with the same switches:
 * PR15123_DISABLE in the environment turns the retry off,
 * PR15123_ASSUME_MFENTRY applies it to units that do not record their
 * gcc options.
 */
#ifndef TAPC_DWFENTRY_H
#define TAPC_DWFENTRY_H

#include <elfutils/libdw.h>
#include <stdbool.h>

/* dwarf_getlocation_addr(attr, *pc) with the retry above: 1 with
 * *ops and *n set when attr (a variable of function func's scope) has a
 * location at *pc, or at *pc + 5 where the heuristic applies; 0 if
 * neither; -1 on a DWARF error.  *pc is left at the address looked at
 * last (SystemTap's messages name it). */
int dwfentry_getlocation(Dwarf_Die *func, Dwarf_Attribute *attr, Dwarf_Addr *pc,
			 Dwarf_Op **ops, size_t *n);

/* A function's entry pc: its DW_AT_entry_pc or low pc, or for one split
 * in parts (DW_AT_ranges only) the start of the part gcc lists first,
 * where its symbol is. */
bool dwfentry_function_entry(Dwarf_Die *func, Dwarf_Addr *entry);

#endif
