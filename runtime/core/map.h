/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SystemTap associative arrays, fully preallocated.
 *
 * A map is created once (module load, process context) with its final
 * capacity; afterwards no operation allocates, recurses or takes time
 * proportional to anything but the map's own size. Locking is the
 * caller's business.
 *
 * Keys have 0..TAP_MAP_MAX_KEYS fields, each a 64-bit long or a string;
 * values are a long, a string or a statistics aggregate (stat.h).  A map
 * with no key fields holds at most one element (the keys pointer is then
 * never read and may be NULL): that is how a scalar statistic is kept.
 * Strings longer than the limits given at creation are truncated, both
 * when stored and when looked up, as SystemTap does, so two keys that
 * differ only beyond the limit are the same key.
 *
 * Entries are kept in creation order. That order is what an unsorted
 * foreach visits, which element a wrapping map (`global a%[N]`) recycles
 * when full (the oldest created), and the tie-break of every sort: sorts
 * are stable, so elements comparing equal stay in creation order, as in
 * SystemTap's merge sort of its entry list.
 *
 * Errors are negative TAP_MAP_E* codes, distinct from TAP_STAT_E*.
 */
#ifndef TAPC_RUNTIME_MAP_H
#define TAPC_RUNTIME_MAP_H

#include "port.h"
#include "stat.h"

/* Map full and not wrapping: "Array overflow, check MAXMAPENTRIES". */
#define TAP_MAP_EFULL		(-20)
/* No such element (delete/lookup of a missing key). */
#define TAP_MAP_ENOENT		(-21)
/* Invalid creation spec or sort request. */
#define TAP_MAP_EINVAL		(-22)
/* tap_zalloc() failed at creation. */
#define TAP_MAP_ENOMEM		(-23)

#define TAP_MAP_MAX_KEYS	9
/* At most this many elements, and this many bytes of them, per map. */
#define TAP_MAP_MAX_ENTRIES	0x7fffffffU
#define TAP_MAP_MAX_SLAB	0x7fffffffULL

enum tap_map_key_type {
	TAP_KEY_LONG = 1,
	TAP_KEY_STR,
};

enum tap_map_val_type {
	TAP_VAL_LONG = 1,
	TAP_VAL_STR,
	TAP_VAL_STAT,
};

/* One key field as passed in by the caller. */
union tap_key {
	s64 l;
	const char *s;
};

struct tap_map_spec {
	u32 max_entries;	/* MAXMAPENTRIES or the declared [N] */
	bool wrap;		/* global a%[N] */
	int nkeys;
	enum tap_map_key_type key_types[TAP_MAP_MAX_KEYS];
	u32 key_strlen;		/* max chars of a string key field */
	enum tap_map_val_type val_type;
	u32 val_strlen;		/* max chars of a string value */
	struct tap_hist hist;	/* shape of statistics values */
};

/* Opaque element handle; valid until the element is deleted. */
struct tap_map_entry;

struct tap_map {
	u32 max_entries;
	u32 num;
	bool wrap;
	int nkeys;
	u8 key_types[TAP_MAP_MAX_KEYS];
	u32 key_off[TAP_MAP_MAX_KEYS];
	u32 key_strlen;
	enum tap_map_val_type val_type;
	u32 val_off;
	u32 val_strlen;
	struct tap_hist hist;
	u32 stride;		/* bytes per element */
	u32 hash_mask;
	u32 *hash;		/* chain heads, hash_mask + 1 of them */
	u32 head, tail;		/* creation-ordered list of live elements */
	u32 free;		/* singly linked free list */
	char *slab;		/* max_entries elements */
	u32 *order;		/* result of the last tap_map_sort() */
	u32 *scratch;		/* merge sort workspace */
	void *owner;		/* the caller's, untouched by the core */
};

/*
 * The bytes each element of a map of this spec takes (its header, keys
 * and value), or 0 when tap_map_create() would refuse the spec
 * (TAP_MAP_EINVAL): a size of 0 or above TAP_MAP_MAX_ENTRIES, a bad key
 * or value type, string limits above 65535, a bad histogram, or
 * elements that need more than TAP_MAP_MAX_SLAB bytes together.  Pure,
 * so that pass 2 refuses at compile time what the module would refuse.
 */
u32 tap_map_stride(const struct tap_map_spec *spec);

int tap_map_create(struct tap_map **out, const struct tap_map_spec *spec);
void tap_map_destroy(struct tap_map *m);

static inline u32 tap_map_size(const struct tap_map *m)
{
	return m->num;
}

/* Element with exactly these keys, or NULL. */
struct tap_map_entry *tap_map_lookup(struct tap_map *m,
				     const union tap_key *keys);

/*
 * Find or create the element with these keys. Returns 0 when it
 * existed, 1 when created (value zeroed: 0, "" or an empty aggregate),
 * or TAP_MAP_EFULL. A wrapping map never fails: it recycles its oldest
 * element.
 */
int tap_map_insert(struct tap_map *m, const union tap_key *keys,
		   struct tap_map_entry **out);

/* Value and key accessors for an element. */
s64 *tap_map_val_long(struct tap_map *m, struct tap_map_entry *e);
char *tap_map_val_str(struct tap_map *m, struct tap_map_entry *e);
struct tap_stat *tap_map_val_stat(struct tap_map *m, struct tap_map_entry *e);
s64 tap_map_key_long(struct tap_map *m, struct tap_map_entry *e, int i);
const char *tap_map_key_str(struct tap_map *m, struct tap_map_entry *e,
			    int i);

/* Value helpers: each returns 0 or TAP_MAP_EFULL. */
int tap_map_put_long(struct tap_map *m, const union tap_key *keys, s64 v);
int tap_map_put_str(struct tap_map *m, const union tap_key *keys,
		    const char *v);
/* s[keys] <<< v */
int tap_map_put_stat(struct tap_map *m, const union tap_key *keys, s64 v);
/* Store a string value into an element, truncated to val_strlen. */
void tap_map_store_str(struct tap_map *m, struct tap_map_entry *e,
		       const char *v);

/* delete a[keys]: 0 or TAP_MAP_ENOENT. */
int tap_map_remove(struct tap_map *m, const union tap_key *keys);
void tap_map_delete_entry(struct tap_map *m, struct tap_map_entry *e);
/* delete a */
void tap_map_reset(struct tap_map *m);

/*
 * Slices: bit i of @wild set means key field i matches anything
 * (`a[*, 3]`). tap_map_has() is `[keys] in a`; tap_map_delete_slice()
 * is `delete a[*, 3]` and returns the number of elements removed.
 */
bool tap_map_has(struct tap_map *m, const union tap_key *keys, u32 wild);
u32 tap_map_delete_slice(struct tap_map *m, const union tap_key *keys,
			 u32 wild);

/*
 * Unsorted walk in creation order; NULL at the end. For internal walks:
 * take the next element before deleting the current one. foreach loops
 * should iterate a tap_map_sort() snapshot instead (dir 0 for unsorted).
 */
struct tap_map_entry *tap_map_first(struct tap_map *m);
struct tap_map_entry *tap_map_next(struct tap_map *m, struct tap_map_entry *e);

/*
 * foreach ordering. column 0 sorts by value, 1..nkeys by that key field;
 * dir is +1 ascending, -1 descending, 0 unsorted (creation order). For
 * statistics values, stat_field says which extractor orders them.
 */
struct tap_map_order {
	int column;
	int dir;
	enum tap_stat_field stat_field;
};

/*
 * Fill the map's iteration index and return how many elements to visit:
 * all of them, or at most @limit when limit >= 0 (`limit 0` visits
 * none). Fetch them with tap_map_sorted(m, 0 .. n-1). Returns
 * TAP_MAP_EINVAL for a bad order. The index is per map: a sorted foreach
 * nested inside another over the same map must use its own copy. The
 * body may delete the element being visited; anything else it adds or
 * removes is not reflected in the running iteration.
 */
int tap_map_sort(struct tap_map *m, const struct tap_map_order *ord,
		 s64 limit);
struct tap_map_entry *tap_map_sorted(struct tap_map *m, u32 i);

/*
 * The same with the caller's index: @order and @scratch hold max_entries
 * u32 each, so that concurrent iterations (one per CPU) do not share the
 * map's own index.
 */
int tap_map_sort_to(struct tap_map *m, const struct tap_map_order *ord,
		    s64 limit, u32 *order, u32 *scratch);
struct tap_map_entry *tap_map_sorted_in(struct tap_map *m, const u32 *order,
					u32 i);

/*
 * Aggregate a per-CPU partial statistics map into @dst (same shape),
 * element by element with tap_stat_merge(): call it for each CPU's map
 * in CPU order after tap_map_reset(dst). Elements new to @dst are
 * created in @src's creation order. Returns 0 or TAP_MAP_EFULL.
 */
int tap_map_merge_stats(struct tap_map *dst, struct tap_map *src);

#endif /* TAPC_RUNTIME_MAP_H */
