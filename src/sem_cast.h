/* Pass 2: @cast(ptr, "type"[, "module"]) expressions, resolved once.
 *
 * A @cast names a C type by itself, so unlike $target variables its
 * resolution depends on no probe: it is the same in every probe and in
 * functions.  Each E_CAST is resolved on first ask into its type (a long
 * or a string), or SystemTap's error, and the access path pass 3 prints
 * (tvar.h, based on the pointer's value).  The types come from the
 * kernel's debuginfo through the type interface (ctypes.h): "kernel",
 * "kernel<linux/sched.h>" (the header is SystemTap's hint for building
 * the type; the kernel's types already hold it), a kernel module's name
 * (its BTF, modbtf.h), and a list of those separated by ':', tried in
 * order.
 *
 * The table is kept here, not in the program, because its readers
 * (@defined through sem_static_cond, pass 3) are reached with no
 * program in hand, as the families reach the kernel through kinfo.h;
 * program_free() empties it.
 */
#ifndef TAPC_SEM_CAST_H
#define TAPC_SEM_CAST_H

#include "elaborate.h"
#include "tvar.h"

struct sem_cast {
	enum sem_type type;		/* SEM_UNKNOWN: it does not resolve */
	struct family_error err;	/* then why */
	struct tvar *access;		/* owned: how pass 3 reads it */
};

/* The resolution of e (an E_CAST), resolved on the first call. */
const struct sem_cast *sem_cast_of(const struct expr *e);

/* An autocast (e, an E_AUTOCAST: p->member... on a value p whose C type
 * pass 2 knows, sem_autocast.h) resolved as a @cast from p: access
 * (taken) when it resolves, else SEM_UNKNOWN with *err (its strings
 * taken).  sem_cast_of(e) then answers for it as for a @cast. */
void sem_cast_set_autocast(const struct expr *e, struct tvar *access,
			   struct family_error *err);
/* The resolution of e (an E_CAST or E_AUTOCAST) if there is one yet,
 * without resolving it. */
const struct sem_cast *sem_cast_known(const struct expr *e);

/* Whether e (an E_CAST) is &@cast(p, "type") with no member: its value
 * is p's, whatever the type (which only types it for autocast). */
bool sem_cast_typing_only(const struct expr *e);

/* Forget every resolution (the expressions are about to be freed). */
void sem_casts_free(void);

#endif
