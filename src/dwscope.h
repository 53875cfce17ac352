/* Where a DWARF probe sits, as target variables are resolved against it.
 *
 * The DWARF probe families (kernel.function, kernel.statement and the
 * module() forms; later process(...).function) find, for each concrete
 * probe, the function (or inline instance) and the address it is placed
 * at, and keep a struct dwarf_scope in their payload.  The DWARF
 * target-variable resolver (dwtvar.h) reads only this: the DIEs carry
 * their Dwarf handle (dwarf_cu_getdwarf), which the debuginfo registry
 * keeps open until the session ends, so a scope stays valid as long as
 * the derived probe that holds it.
 */
#ifndef TAPC_DWSCOPE_H
#define TAPC_DWSCOPE_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdw.h>

struct dwindex;

struct dwarf_scope {
	Dwarf_Die cu;		/* its compile unit */
	/* DW_TAG_subprogram, or the DW_TAG_inlined_subroutine of an inline
	 * instance (its parameters and locals are those of its abstract
	 * origin, with locations of its own) */
	Dwarf_Die func;
	/* The probe's address as the DWARF gives addresses (link-time for
	 * vmlinux; as libdwfl places the sections of a module): the address
	 * whose location-list entries the variables are read from. */
	Dwarf_Addr pc;
	/* A .return probe: $return is offered, and parameters are those
	 * of the entry (SystemTap reads them when the function is entered). */
	bool at_return;
	/* A function's probe (not a statement's or a label's): -L lists
	 * the function's own parameters and locals, not those of the blocks
	 * nested in it, as SystemTap does (it takes the function's scope,
	 * not the scopes around the address). */
	bool function_entry;
	/* The file the DWARF was read from, for SystemTap's "dieoffset:
	 * ... from FILE" detail of an unreadable variable; NULL: none. */
	const char *debug_file;
	/* "kernel", or the name of the module the function is in: what the
	 * addresses of its static variables are relative to at run time;
	 * for a user binary its path. */
	const char *module;
	/* A user binary's (process(...).function): statics are at their
	 * link-time address plus the binary's load bias in the process. */
	bool user;
	/* Where the family registers a kprobe at a code address of this
	 * DWARF (kfunc: dwindex_symbol over ix), for an entry value's
	 * companion kprobe on the function's entry.  NULL: the ELF symbol
	 * table is searched (dwloc_anchor). */
	const char *(*symbol_at)(const struct dwindex *ix, Dwarf_Addr addr,
				 unsigned long *offset);
	const struct dwindex *ix;
	/* A user binary's: the offset in the file of code address addr
	 * (false if no loaded segment holds it), where an entry value's
	 * companion uprobe goes; ctx is the family's (ufunc: the binary's
	 * struct uelf).  NULL: entry values away from the entry are
	 * refused in user space. */
	bool (*file_offset)(const void *ctx, Dwarf_Addr addr, uint64_t *off);
	const void *file_offset_ctx;
	/* A user binary's call frame information from the binary itself
	 * (its .eh_frame), with the same ctx: where the DWARF is a separate
	 * file (libc6-dbg's) that file's .eh_frame is empty (NOBITS), and
	 * frame bases over DW_OP_call_frame_cfa need it.  Owned by the
	 * family; NULL when there is none. */
	Dwarf_CFI *(*binary_cfi)(const void *ctx);
};

#endif
