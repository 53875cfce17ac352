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
#include "symtab.h"

/* The index of the debuginfo file PATH as the bytes of a cache file
 * (stamped with PATH's size and time), in *len: malloc'd, NULL when PATH
 * cannot be stat'ed or the names do not fit.  FUNCS[0 .. n) in the
 * index's order; SYMS the file's symbol table. */
char *dwcache_encode(const char *path, const struct dwfunc *funcs, size_t n,
		     const struct symtab *syms, size_t *len);
/* Whether BUF (LEN bytes, as dwcache_encode made them) is whole,
 * consistent (every record's strings inside it, and the symbol table's
 * names) and stamped for PATH as it is now, with *n records; *syms is then
 * its symbol table, a view into BUF.  The records are decoded one by one, when a
 * lookup first needs them (dwcache_record): a one-liner's lookup by name
 * decodes a few dozen of the vmlinux's 340,000. */
bool dwcache_check(const char *buf, size_t len, const char *path, size_t *n,
		   struct symtab *syms);
/* Record I (< the *n of dwcache_check) of a checked BUF into *f, its
 * strings pointing into BUF (keep it while they are used). */
void dwcache_record(const char *buf, size_t i, struct dwfunc *f);
/* The cache file kept under KEY, whole (mapped read-only, *len bytes;
 * dwcache_unload it), or NULL. */
char *dwcache_load(const char *key, size_t *len);
void dwcache_unload(char *buf, size_t len);
/* Keep BUF (LEN bytes) under KEY; failing is no error. */
void dwcache_store(const char *key, const char *buf, size_t len);

#endif
