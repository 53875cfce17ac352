/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The regular expression matcher of the runtime's portable core: runs a
 * program compiled by tapc (src/regcomp.c, see ../tapc_regex.h) over a
 * subject, in time linear in the subject and in the program's size, with
 * caller-provided state whose size the compiler computed.
 */
#ifndef TAPC_RUNTIME_REGEXEC_H
#define TAPC_RUNTIME_REGEXEC_H

#include "../tapc_regex.h"

/*
 * Search @s (@len bytes; a NUL byte ends it earlier) for @re as SystemTap
 * does: the match that ends first wins, at the leftmost start among the
 * matches ending there; it is then extended to the longest match with
 * the same start.  Groups come from the highest-priority way to match
 * (greedy repetition, the left alternative first).
 *
 * @scratch: @scratch_size bytes, int-aligned, at least re->scratch.
 * @caps: 2 * re->nsub ints, written only on a match: start and end
 * offset of each group, -1 for a group that did not take part.
 *
 * Returns 1 on a match, 0 if there is none, -1 if @scratch is too small
 * or the program is malformed.
 */
int tap_regex_exec(const struct tap_regex *re, const char *s, int len,
		   int *scratch, unsigned long scratch_size, int *caps);

#endif /* TAPC_RUNTIME_REGEXEC_H */
