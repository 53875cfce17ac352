/* Pass 2: SystemTap's autocast, p->member on a value whose C type is
 * known from where it came from.
 *
 * A target variable, @cast, @var or member chain is a long whose C type
 * pass 2 knows (tvar.h, struct tvar_ctype).  As in SystemTap (2.6 and
 * later), that type travels with the value: into a local or global every
 * typed assignment of which agrees (untyped ones, f = 0, do not count;
 * two different types leave it untyped), into a function's result when
 * its typed returns agree, and through "x = v" and "c ? v : v" used as
 * values; not into function parameters, nor through @entry.  Then
 * "->member", "[N]" and "$"/"$$" on such a value (an E_AUTOCAST) walk on
 * from it as @cast would, in the same types (the kernel's BTF or DWARF,
 * a module's, a user binary's).
 *
 * Resolution notes the autocasts it meets (sem_autocast_note); once
 * every name is bound, sem_autocast_resolve types the variables and
 * functions to a fixed point and resolves each autocast into the @cast
 * table (sem_cast.h), where type inference and pass 3 read it as they
 * read a @cast.
 */
#ifndef TAPC_SEM_AUTOCAST_H
#define TAPC_SEM_AUTOCAST_H

#include <stdbool.h>

#include "elab_int.h"

/* e (an E_AUTOCAST) is used in probe dp (NULL: in a function); quiet:
 * it is the operand of @defined, whose answer is all that is asked. */
void sem_autocast_note(struct elab *E, const struct expr *e, const struct derived_probe *dp,
		       bool quiet);

/* e, noted, is assigned to (guru mode): once typed, it must be a member
 * tapc can write. */
void sem_autocast_written(struct elab *E, const struct expr *e);

/* A condition cond of probe dp (NULL: a function) whose @defined of an
 * autocast is decided only once typed: resolution resolved both ways,
 * yes (run when cond holds) and no (else), each a statement (stmts) or an
 * expression, or NULL.  The autocasts of the way cond rules out are then
 * not reported, as SystemTap does not resolve that code. */
void sem_autocast_guard(struct elab *E, const struct derived_probe *dp, const struct expr *cond,
			const void *yes, const void *no, bool stmts);
/* Whether cond holds an @defined of an autocast not decided yet. */
bool sem_autocast_undecided_cond(const struct expr *cond);

/* Type the program's values and resolve the noted autocasts, reporting
 * SystemTap's errors for those that do not resolve. */
void sem_autocast_resolve(struct elab *E);

/* Whether e (an E_AUTOCAST) is decided yet: @defined of one is known only
 * after sem_autocast_resolve. */
bool sem_autocast_decided(const struct expr *e);

/* Forget which autocasts were decided (the program is freed). */
void sem_autocasts_forget(void);

#endif
