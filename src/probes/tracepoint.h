/* What other families ask of the tracepoint family: the target variables
 * of a tracepoint's arguments, for a family whose events carry them as
 * their first slots (the syscall family: SystemTap's syscall aliases are
 * on raw_syscalls:sys_enter and sys_exit, whose $regs, $id and $ret a
 * syscall.NAME probe reads) (src/probes/tracepoint.c).
 */
#ifndef TAPC_PROBES_TRACEPOINT_H
#define TAPC_PROBES_TRACEPOINT_H

#include <stdbool.h>

#include "probes/family.h"

/* As kernel.trace("NAME")'s target_type for the expression e. */
enum sem_type tracepoint_target_type(const char *name, const struct expr *e, bool write,
				     struct family_error *err, struct tvar **access);
/* As kernel.trace("NAME")'s list_targets. */
void tracepoint_list_targets(const char *name, struct vec *out);

#endif
