/* %p of SystemTap before 1.3, for --compatible (fmt_legacy.c). */
#ifndef TAPC_FMT_LEGACY_H
#define TAPC_FMT_LEGACY_H

#include <stdbool.h>
#include <stddef.h>

/* Does --compatible=VERSION (NULL: the current language) ask for it? */
bool fmt_legacy_p_wanted(const char *compatible);

/* The format of @len bytes with each %p rewritten to print as SystemTap
 * 1.2's did; malloc'ed, its length in *out_len. */
char *fmt_legacy_p(const char *fmt, size_t len, size_t *out_len);

#endif
