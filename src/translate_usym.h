/* Pass 3: user binaries' symbols and unwind rows as C tables. */
#ifndef TAPC_TRANSLATE_USYM_H
#define TAPC_TRANSLATE_USYM_H

#include <stdio.h>

struct umod_set;
struct derived_probe;

/* The user binary a probe names (process("PATH")...), whose symbols and
 * unwind data stap adds to the module unasked, or NULL. */
const char *usym_probe_binary(const struct derived_probe *dp);

/* tap_umods[] and tap_umod_count for @set (NULL: none). */
void translate_umods(FILE *out, const struct umod_set *set);

#endif
