/* Hash tables for lookups by name or by node (see lookup.h).  Both use
 * open addressing with linear probing and grow at half full. */
#include "lookup.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct namemap_slot {
	const char *name;		/* NULL: empty */
	struct vec items;
};

/* FNV-1a: short names, no adversary worth a keyed hash. */
uint64_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static struct namemap_slot *name_slot(const struct namemap *m, const char *name)
{
	size_t mask = m->cap - 1;

	for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask)
		if (!m->slots[i].name || strcmp(m->slots[i].name, name) == 0)
			return &m->slots[i];
}

static void namemap_grow(struct namemap *m)
{
	struct namemap old = *m;

	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].name)
			*name_slot(m, old.slots[i].name) = old.slots[i];
	free(old.slots);
}

void namemap_add(struct namemap *m, const char *name, void *item)
{
	struct namemap_slot *s;

	if (2 * (m->n + 1) > m->cap)
		namemap_grow(m);
	s = name_slot(m, name);
	if (!s->name) {
		s->name = name;
		m->n++;
	}
	vec_push(&s->items, item);
}

const struct vec *namemap_get(const struct namemap *m, const char *name)
{
	const struct namemap_slot *s;

	if (!m->cap)
		return NULL;
	s = name_slot(m, name);
	return s->name ? &s->items : NULL;
}

void namemap_free(struct namemap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		vec_free(&m->slots[i].items);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static size_t ptr_hash(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p;

	/* allocations are aligned: mix the high bits down */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (size_t)h;
}

static size_t ptr_slot(const struct ptrindex *m, const void *key)
{
	size_t mask = m->cap - 1;
	size_t i = ptr_hash(key) & mask;

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static void ptrindex_grow(struct ptrindex *m)
{
	struct ptrindex old = *m;

	m->cap = old.cap ? old.cap * 2 : 16;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			size_t j = ptr_slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
}

void ptrindex_set(struct ptrindex *m, const void *key, int val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		ptrindex_grow(m);
	i = ptr_slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->n++;
	}
	m->vals[i] = val;
}

int ptrindex_get(const struct ptrindex *m, const void *key)
{
	size_t i;

	if (!m->cap || !key)
		return -1;
	i = ptr_slot(m, key);
	return m->keys[i] ? m->vals[i] : -1;
}

void ptrindex_free(struct ptrindex *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
