/* Target variables typed by BTF: $name, $name->field->field, $name[N],
 * $name->array[N] of a kernel event probe whose variables are raw values
 * (an unsigned long each, such as a tracepoint's arguments) with a BTF
 * type.
 *
 * Pass 2 asks targetvar_type() for the SystemTap type of an expression;
 * pass 3 asks targetvar_c() for its C.  Both walk the expression's
 * components the same way over the target kernel's BTF:
 *
 *  - "->name" on a pointer to a struct or union, or on a struct member
 *    (SystemTap's "->" is also C's "."), looks into anonymous members;
 *  - "[i]" on a pointer or an array (i any long expression);
 *  - the value at the end is an integer, enum or bool (a long with the
 *    type's width and sign, bit fields included), a pointer (a long), a
 *    char array (a string) or any other array (its address, a long).
 *
 * Every read of kernel memory in the generated code goes through the
 * fault-safe tap_deref* calls of tapc_tapset.h, which raise SystemTap's
 * "read fault" error instead of faulting.
 */
#ifndef TAPC_TARGETVAR_H
#define TAPC_TARGETVAR_H

#include <stdbool.h>
#include <stdint.h>

#include "elaborate.h"

struct btf;
struct tr;

/* The type of e, whose base variable has BTF type base_type, or
 * SEM_UNKNOWN with *err filled (SystemTap's wording: unknown member,
 * invalid access ...).  write: e is assigned to, which is refused. */
enum sem_type targetvar_type(const struct btf *btf, uint32_t base_type,
			     const struct expr *e, bool write,
			     struct family_error *err);

/* The C of e (see translate_int.h): base_c is a C expression of the
 * base variable's raw value as an unsigned long. */
char *targetvar_c(struct tr *T, const struct btf *btf, uint32_t base_type,
		  const char *base_c, const struct expr *e);

/* The C (a long long) of a raw value of BTF type type held in an
 * unsigned long, truncated and extended as the type says. */
char *targetvar_value_c(const struct btf *btf, uint32_t type, const char *raw_c);

/* SystemTap's spelling of a type ("struct task_struct*", "unsigned int"),
 * malloc'd. */
char *targetvar_type_name(const struct btf *btf, uint32_t type);

/* Whether type is a pointer (SystemTap prints such values with %p in
 * $$parms); false for void and unknown types. */
bool targetvar_is_pointer(const struct btf *btf, uint32_t type);

/* Whether a value of type can be a target variable's base as a raw
 * unsigned long: an integer, enum, bool or pointer of at most 8 bytes. */
bool targetvar_fits_register(const struct btf *btf, uint32_t type);

#endif
