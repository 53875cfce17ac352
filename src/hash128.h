/* The content hash of the caches: the module name and cache keys
 * (session.c), the module cache (modcache.c), the tapset index and the
 * runtime object cache (build.c). */
#ifndef TAPC_HASH128_H
#define TAPC_HASH128_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 128-bit non-cryptographic hash (two FNV-1a lanes), for the module's
 * default name and the runtime cache key. */
struct hash128 {
	uint64_t a, b;
};
void hash_init(struct hash128 *h);
void hash_add(struct hash128 *h, const void *data, size_t len);
/* Adds s and its terminating NUL, so that "ab","c" differs from "a","bc". */
void hash_add_str(struct hash128 *h, const char *s);
/* 32 hex digits and a NUL. */
void hash_hex(const struct hash128 *h, char out[33]);
/* Adds the contents of the file at path (of what fd reads, to its end);
 * false if it cannot be read. */
bool hash_file(struct hash128 *h, const char *path);
bool hash_fd(struct hash128 *h, int fd);

#endif
