/* @probewrite(v) in an alias's prologue and epilogue (SystemTap 4.4): 1
 * when the body the alias is expanded around writes v, else 0, decided
 * as the alias is expanded (derive.c). */
#ifndef TAPC_PROBEWRITE_H
#define TAPC_PROBEWRITE_H

#include "ast.h"

/* Turns each @probewrite(v) of part (the alias's own copy of its
 * prologue or epilogue) into the number 1 or 0: whether body, the
 * handler the alias is expanded around (a probe's, or an alias above's
 * with its prologue), assigns v, increments or decrements it, adds to it
 * with <<<, deletes it or names it as a foreach variable, as SystemTap
 * counts writes.  The alias's own writes do not count. */
void probewrite_fold(struct stmt *part, const struct stmt *body);

#endif
