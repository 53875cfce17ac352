/* Pass 3: user binaries' symbols and unwind rows as C tables. */
#ifndef TAPC_TRANSLATE_USYM_H
#define TAPC_TRANSLATE_USYM_H

#include <stddef.h>
#include <stdio.h>

struct umod_set;
struct derived_probe;

/* The user binaries a probe names (process("PATH") and its .function,
 * .library, .mark probes: the file probed, and its program), whose
 * symbols, unwind data and lines stap adds to the module unasked, into
 * @out (room for 2); their number. */
size_t usym_probe_binaries(const struct derived_probe *dp, const char **out);

struct tr;

/* tap_kmod_lines[] and tap_kmod_lines_count for @set's kernel modules
 * (NULL: none), whose anchors it adds to @T's module symbols: before
 * those are emitted. */
void translate_kmod_lines(struct tr *T, FILE *out, const struct umod_set *set);

/* tap_umods[] and tap_umod_count for @set (NULL: none). */
void translate_umods(FILE *out, const struct umod_set *set);

#endif
