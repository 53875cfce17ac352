/* Hash tables for what the passes look up by name or by node.
 *
 * A script may declare thousands of functions, globals, locals or
 * parameters; finding each use's declaration by a linear search made
 * passes 1 to 3 quadratic in the script.  These tables make a lookup
 * take constant time.  Neither table owns its keys: they must outlive
 * it.
 */
#ifndef TAPC_LOOKUP_H
#define TAPC_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"

/* A string's 64-bit FNV-1a hash, for tables of names. */
uint64_t name_hash(const char *s);

/* A name -> the items added under that name, in the order added. */
struct namemap {
	struct namemap_slot *slots;
	size_t cap;			/* a power of two, or 0 */
	size_t n;			/* distinct names */
};

void namemap_add(struct namemap *m, const char *name, void *item);
/* The items under name (a vec of void *), or NULL when there are none. */
const struct vec *namemap_get(const struct namemap *m, const char *name);
void namemap_free(struct namemap *m);

/* A pointer -> a non-negative number (an index into some array). */
struct ptrindex {
	const void **keys;
	int *vals;
	size_t cap;			/* a power of two, or 0 */
	size_t n;
};

void ptrindex_set(struct ptrindex *m, const void *key, int val);
/* The number stored for key, or -1. */
int ptrindex_get(const struct ptrindex *m, const void *key);
void ptrindex_free(struct ptrindex *m);

#endif
