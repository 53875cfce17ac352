/* Pass 2: the target expressions of a derived probe, resolved once.
 *
 * Before a probe's body is resolved, every target expression in it
 * ($x->a[i], $$parms, $value ...) is handed to the probe's family once,
 * as read (struct point_family's target_type); the answer is kept here
 * beside the probe: the expression's type, or the family's error, and
 * the access path pass 3 turns into C (tvar.h).  Resolution, @defined,
 * type inference and pass 3 then look it up instead of asking again;
 * only an assignment to a target asks the family once more, for leave
 * to write.
 */
#ifndef TAPC_SEM_TARGET_H
#define TAPC_SEM_TARGET_H

#include "elaborate.h"
#include "lookup.h"
#include "tvar.h"

struct sem_target {
	const struct expr *e;
	enum sem_type type;		/* SEM_UNKNOWN: it does not resolve */
	struct family_error err;	/* then why */
	struct tvar *access;		/* owned: how pass 3 reads it, or NULL
					 * when the family writes its C itself */
	/* --skip-badvars: it did not resolve (err says why), and reads as
	 * the number 0 (type SEM_LONG, access the constant) */
	bool zeroed;
};

struct sem_targets {
	struct sem_target *v;
	size_t n;
	struct ptrindex index;		/* expression -> v[i] */
};

/* Resolve the target expressions of dp's body and condition.  With
 * skip_bad (--skip-badvars), one that does not resolve, also in a probe
 * whose family has no target variables, is zeroed, as SystemTap
 * substitutes the literal 0 for it. */
void sem_targets_resolve(struct derived_probe *dp, bool skip_bad);
/* The same for the target expressions of another body that runs in dp's
 * context: a copy of a context-sensitive function (ctxfn.c). */
void sem_targets_resolve_in(struct derived_probe *dp, const struct stmt *body, bool skip_bad);

/* The resolution of target expression e of dp, or NULL. */
const struct sem_target *sem_target_of(const struct derived_probe *dp, const struct expr *e);

/* The type of e in dp (write: e is assigned to, which the family is
 * asked about), or SEM_UNKNOWN with *err filled (owned by the caller). */
enum sem_type sem_target_check(const struct derived_probe *dp, const struct expr *e,
			       bool write, struct family_error *err);

void sem_targets_free(struct sem_targets *t);

#endif
