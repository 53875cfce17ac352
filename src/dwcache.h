/* The DWARF function index (dwindex.h) kept on disk, one file per
 * debuginfo file in tapc's cache ($XDG_CACHE_HOME/tapc/dwarf, under the
 * rules of cachedir.h), named by the file's build-id: walking every
 * compile unit of a vmlinux costs half a second, reading the index back
 * a few milliseconds.
 *
 * An entry records the debuginfo file's size and modification time and
 * is used only when both still match; a file that is not whole or not
 * consistent is ignored (and rewritten), never trusted.
 */
#ifndef TAPC_DWCACHE_H
#define TAPC_DWCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "dwindex.h"

/* The functions of the index kept under KEY for the debuginfo file PATH:
 * *funcs (malloc'd) with names in *strings (malloc'd, to be freed after
 * them), *n of them; false when there is no usable entry. */
bool dwcache_load(const char *key, const char *path, struct dwfunc **funcs, size_t *n,
		  char **strings);
/* Keep the N functions of PATH's index under KEY; failing is no error. */
void dwcache_store(const char *key, const char *path, const struct dwfunc *funcs, size_t n);

#endif
