/* Pass 2: @var("name[@file]"[, "module"]) expressions, resolved once.
 *
 * Like @cast (sem_cast.h), an @var names its variable by itself, so its
 * resolution depends on no probe: the same in every probe and function.
 * Each E_VAR is resolved on first ask, over the DWARF of the kernel
 * ("kernel", the default) or of the module named (kinfo.h), into its
 * type and access path (dwatvar.h), or SystemTap's error.  The table is
 * kept here for the same reason as @cast's; program_free() empties it.
 */
#ifndef TAPC_SEM_ATVAR_H
#define TAPC_SEM_ATVAR_H

#include "elaborate.h"
#include "tvar.h"

struct sem_atvar {
	enum sem_type type;		/* SEM_UNKNOWN: it does not resolve */
	struct family_error err;	/* then why */
	struct tvar *access;		/* owned: how pass 3 reads it */
};

/* The resolution of e (an E_VAR), resolved on the first call. */
const struct sem_atvar *sem_atvar_of(const struct expr *e);

/* Forget every resolution (the expressions are about to be freed). */
void sem_atvars_free(void);

#endif
