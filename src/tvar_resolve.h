/* Pass 2: target variables resolved into access paths (tvar.h) over the
 * type interface (ctypes.h), for the families whose variables are raw
 * values (an unsigned long each, such as a tracepoint's arguments) with
 * a C type:
 *
 * The walk is backend-neutral: tracepoints (BTF, values in slots) and
 * DWARF probes (dwtvar.c: registers, stack slots, statics) share it.
 *
 *  - "->name" on a pointer to a struct or union, or on a struct member
 *    (SystemTap's "->" is also C's "."), looks into anonymous members;
 *  - "[i]" on a pointer or an array (i any long expression);
 *  - the value at the end is an integer, enum or bool (a long with the
 *    type's width and sign, bit fields included), a pointer (a long), or
 *    an array, char arrays included (its address, a long, as SystemTap
 *    types them: kernel_string($p->comm) reads a task's name);
 *  - "$" and "$$" at the end pretty-print it as SystemTap does;
 *  - "&" takes the address of a member.
 */
#ifndef TAPC_TVAR_RESOLVE_H
#define TAPC_TVAR_RESOLVE_H

#include <stdbool.h>

#include "ctypes.h"
#include "elaborate.h"
#include "tvar.h"

/* The access path of e, whose base variable has type base_type and is
 * held at base/slot; NULL with *err filled (SystemTap's wording: unknown
 * member, invalid access ...).  family names the variables in messages
 * ("tracepoint": "cannot take address of tracepoint variable"). */
struct tvar *tvar_resolve(const struct ctypes *ct, ctype_id base_type, enum tvar_base base,
			  unsigned slot, const struct expr *e, const char *family,
			  struct family_error *err);

/* The access path of @cast(ptr, "type")... (e, an E_CAST): the object of
 * type at the address ptr evaluates to, walked by e's steps as above,
 * "[i]" on the object itself stepping over whole objects from ptr (C's
 * ((type *)ptr)[i]); NULL with *err filled. */
/* A C float or double (DWARF's DW_ATE_float base types, BTF's FLOAT),
 * type resolved: its size, 4 or 8; 0 for any other type (long double
 * included). */
int tvar_float_size(const struct ctypes *ct, ctype_id resolved);

struct tvar *tvar_resolve_cast(const struct ctypes *ct, ctype_id type, const struct expr *e,
			       struct family_error *err);

/* The access path of an autocast (e, an E_AUTOCAST: p->a[i]...) whose
 * operand p has the C type base (tvar.h): walked by e's steps from the
 * value of p, as @cast would from an object or a pointer of that type;
 * NULL with *err filled. */
struct tvar *tvar_resolve_autocast(const struct tvar_ctype *base, const struct expr *e,
				   struct family_error *err);

/* Where a variable's walk starts: the base's value (an unsigned long)
 * is the variable's value itself, or (in_mem) the address of the
 * variable in kernel memory. */
struct tvar_origin {
	enum tvar_base base;
	unsigned slot;
	uint64_t addr, reloc_ref;	/* as in struct tvar */
	char *modsym;			/* as in struct tvar: malloc'd, the
					 * caller's to free (it is copied) */
	struct tvar_piece *pieces;	/* as in struct tvar: malloc'd, the
					 * caller's to free (it is copied) */
	size_t npieces;
	struct tvar_dwop *dwops;	/* as in struct tvar: malloc'd, the
					 * caller's to free (it is copied) */
	size_t ndwops;
	bool in_mem;
	/* The place is that of what the variable points to, not its own
	 * (DW_OP_implicit_pointer: a pointer optimized away whose target
	 * is known): the walk starts at the pointer's target type. */
	bool pointee;
};

/* tvar_resolve() from any origin (a DWARF location: a register's value,
 * a register plus an offset as an address, a static address ...). */
struct tvar *tvar_resolve_from(const struct ctypes *ct, ctype_id base_type,
			       const struct tvar_origin *o, const struct expr *e,
			       const char *family, struct family_error *err);

/* The raw value of type held at base/slot, as a long truncated and
 * extended as the type says ($$parms); name and pos as in tvar.h. */
struct tvar *tvar_value(const struct ctypes *ct, ctype_id type, enum tvar_base base,
			unsigned slot, const char *name, const struct srcpos *pos);

/* SystemTap's spelling of a type ("struct task_struct*", "unsigned int"),
 * malloc'd. */
char *tvar_type_name(const struct ctypes *ct, ctype_id type);

/* A context variable ($$parms, $$name, ...) of a FAMILY ("dwarf",
 * "tracepoint", ...) probe used whole, as SystemTap requires: true, or
 * false with SystemTap's message in err ("tracepoint variable '$$name'
 * may not be used as a structure", "... as array", "... may not be
 * pretty-printed" unless pretty_ok, "cannot take address of context
 * variable"). */
bool tvar_ctx_whole(const struct expr *e, const char *family, bool pretty_ok,
		    struct family_error *err);

/* Whether type is a pointer (SystemTap prints such values with %p in
 * $$parms); false for void and unknown types. */
bool tvar_is_pointer(const struct ctypes *ct, ctype_id type);

/* Whether a value of type can be a target variable's base as a raw
 * unsigned long: an integer, enum, bool or pointer of at most 8 bytes. */
bool tvar_fits_register(const struct ctypes *ct, ctype_id type);

#endif
