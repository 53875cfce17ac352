/* The module cache: modules already built, so that running the same
 * script again skips passes 3 and 4.
 *
 * An entry is keyed by everything that decides the module's contents
 * (see session_cache_key): tapc's version, the elaborated script and its
 * source texts, the options that shape the module, and the runtime key
 * (kernel build tree, runtime sources, -D set).  It lives in
 * $XDG_CACHE_HOME/tapc/modules/KK/ (or ~/.cache/...; KK: the key's first
 * two digits) as KEY.c (pass 3's C), KEY.ko and KEY.sum, the sizes and
 * hashes of both, written last: an entry is complete only with a .sum
 * that matches, so a torn or corrupt entry is rebuilt, never loaded.
 * Only the caller's own cache is used, and only files that are the
 * caller's own (cachedir.h): a module planted by someone else is never
 * loaded.
 * Writers publish each file by rename under an exclusive lock on
 * KEY.lock; readers take it shared.  Every hit refreshes the .sum's time,
 * and after a store the oldest entries go until the cache is within its
 * size limit ($TAPC_CACHE_MB megabytes, default 256).
 */
#ifndef TAPC_MODCACHE_H
#define TAPC_MODCACHE_H

#include <stdbool.h>
#include <stddef.h>

struct modcache_entry {
	char *c_path;		/* the cached C */
	char *ko_path;		/* the cached module */
};

/* A complete, intact entry for key (32 hex digits): true with e set (free
 * with modcache_entry_free).  A damaged entry is removed (reason in
 * *damaged, when not NULL) and false returned.  A cache that may not be
 * used (see cachedir.h) is not looked into: false with refused filled. */
bool modcache_lookup(const char *key, struct modcache_entry *e, const char **damaged,
		     char *refused, size_t refusedlen);
void modcache_entry_free(struct modcache_entry *e);

/* Store the C and module files under key; false with why filled (the
 * cache is an optimisation: the caller goes on). */
bool modcache_store(const char *key, const char *c_path, const char *ko_path,
		    char *why, size_t whylen);

/* Remove the oldest entries until the cache holds at most limit bytes;
 * returns how many entries went. */
int modcache_trim(unsigned long long limit);
/* The size limit: $TAPC_CACHE_MB, else 256 MB. */
unsigned long long modcache_limit(void);

#endif
