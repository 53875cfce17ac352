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

/* The index of the debuginfo file PATH as the bytes of a cache file
 * (stamped with PATH's size and time), in *len: malloc'd, NULL when PATH
 * cannot be stat'ed or the names do not fit.  FUNCS[0 .. n) in the
 * index's order. */
char *dwcache_encode(const char *path, const struct dwfunc *funcs, size_t n, size_t *len);
/* The functions of BUF (LEN bytes, as dwcache_encode made them) if it is
 * whole, consistent and stamped for PATH as it is now: *funcs (malloc'd),
 * *n of them, their strings pointing into BUF (keep it while they are
 * used); false otherwise. */
bool dwcache_decode(const char *buf, size_t len, const char *path, struct dwfunc **funcs,
		    size_t *n);
/* The cache file kept under KEY, whole (malloc'd, *len bytes), or NULL. */
char *dwcache_load(const char *key, size_t *len);
/* Keep BUF (LEN bytes) under KEY; failing is no error. */
void dwcache_store(const char *key, const char *buf, size_t len);

#endif
