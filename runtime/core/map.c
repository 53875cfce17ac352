// SPDX-License-Identifier: GPL-2.0
/*
 * Preallocated associative arrays; see map.h for the semantics.
 *
 * Layout: one slab of max_entries fixed-size elements. Each element is
 * a header (hash chain link, creation-order links, cached hash), then
 * the key fields, then the value. Elements are named by their slab index
 * so that links stay 32 bits and the slab could move. Free elements sit
 * on a singly linked list threaded through `next`.
 */
#include "map.h"

#define NIL 0xffffffffU

struct tap_map_entry {
	u32 hnext;		/* next element in the same hash chain */
	u32 prev;		/* creation order */
	u32 next;		/* creation order, or free list */
	u32 hashv;
	u32 live;
};

#define HDR_SIZE	((u32)((sizeof(struct tap_map_entry) + 7) & ~7UL))

static u32 round8(u32 n)
{
	return (n + 7) & ~7U;
}

static struct tap_map_entry *elem(struct tap_map *m, u32 i)
{
	return (struct tap_map_entry *)(m->slab + (size_t)i * m->stride);
}

static u32 elem_index(struct tap_map *m, struct tap_map_entry *e)
{
	return (u32)(((char *)e - m->slab) / m->stride);
}

static char *field(struct tap_map_entry *e, u32 off)
{
	return (char *)e + off;
}

u32 tap_map_stride(const struct tap_map_spec *spec)
{
	u64 off = HDR_SIZE;
	int k;

	if (spec->max_entries == 0 || spec->max_entries > TAP_MAP_MAX_ENTRIES ||
	    spec->nkeys < 0 || spec->nkeys > TAP_MAP_MAX_KEYS ||
	    spec->key_strlen > 0xffffU || spec->val_strlen > 0xffffU)
		return 0;
	for (k = 0; k < spec->nkeys; k++) {
		switch (spec->key_types[k]) {
		case TAP_KEY_LONG:
			off += sizeof(s64);
			break;
		case TAP_KEY_STR:
			off += round8(spec->key_strlen + 1);
			break;
		default:
			return 0;
		}
	}
	switch (spec->val_type) {
	case TAP_VAL_LONG:
		off += sizeof(s64);
		break;
	case TAP_VAL_STR:
		off += round8(spec->val_strlen + 1);
		break;
	case TAP_VAL_STAT:
		if (spec->hist.buckets < 0 ||
		    spec->hist.buckets > TAP_HIST_MAX_BUCKETS)
			return 0;
		off += tap_stat_size(&spec->hist);
		break;
	default:
		return 0;
	}
	if (off * spec->max_entries > TAP_MAP_MAX_SLAB)
		return 0;
	return (u32)off;
}

int tap_map_create(struct tap_map **out, const struct tap_map_spec *spec)
{
	struct tap_map *m;
	u32 off, nhash = 1, i;
	int k;

	*out = NULL;
	if (!tap_map_stride(spec))
		return TAP_MAP_EINVAL;

	m = tap_zalloc(sizeof(*m));
	if (!m)
		return TAP_MAP_ENOMEM;
	m->max_entries = spec->max_entries;
	m->wrap = spec->wrap;
	m->nkeys = spec->nkeys;
	m->key_strlen = spec->key_strlen;
	m->val_type = spec->val_type;
	m->val_strlen = spec->val_strlen;
	m->hist = spec->hist;
	m->stride = tap_map_stride(spec);

	/* The same layout tap_map_stride() measured: header, keys, value. */
	off = HDR_SIZE;
	for (k = 0; k < spec->nkeys; k++) {
		m->key_types[k] = (u8)spec->key_types[k];
		m->key_off[k] = off;
		off += spec->key_types[k] == TAP_KEY_LONG ? sizeof(s64) :
			round8(spec->key_strlen + 1);
	}
	m->val_off = off;

	/* Load factor at most 1 keeps chains short without rehashing. */
	while (nhash < m->max_entries)
		nhash <<= 1;
	m->hash_mask = nhash - 1;

	m->slab = tap_zalloc((size_t)m->stride * m->max_entries);
	m->hash = tap_zalloc((size_t)nhash * sizeof(u32));
	m->order = tap_zalloc((size_t)m->max_entries * sizeof(u32));
	m->scratch = tap_zalloc((size_t)m->max_entries * sizeof(u32));
	if (!m->slab || !m->hash || !m->order || !m->scratch) {
		tap_map_destroy(m);
		return TAP_MAP_ENOMEM;
	}
	for (i = 0; i < nhash; i++)
		m->hash[i] = NIL;
	tap_map_reset(m);
	*out = m;
	return 0;
}

void tap_map_destroy(struct tap_map *m)
{
	if (!m)
		return;
	tap_free(m->slab);
	tap_free(m->hash);
	tap_free(m->order);
	tap_free(m->scratch);
	tap_free(m);
}

/* FNV-1a: simple, allocation-free and identical in both worlds. */
static u32 fnv_byte(u32 h, u8 c)
{
	return (h ^ c) * 16777619U;
}

static u32 hash_keys(struct tap_map *m, const union tap_key *keys)
{
	u32 h = 2166136261U, j;
	int k, b;

	for (k = 0; k < m->nkeys; k++) {
		if (m->key_types[k] == TAP_KEY_LONG) {
			u64 v = (u64)keys[k].l;

			for (b = 0; b < 8; b++)
				h = fnv_byte(h, (u8)(v >> (8 * b)));
		} else {
			const char *s = keys[k].s ? keys[k].s : "";

			for (j = 0; j < m->key_strlen && s[j]; j++)
				h = fnv_byte(h, (u8)s[j]);
			/* Separates ("ab","c") from ("a","bc"). */
			h = fnv_byte(h, 0);
		}
	}
	return h;
}

/* Does a stored (already truncated) string key equal the given one? */
static bool str_key_eq(const char *stored, const char *given, u32 maxlen)
{
	u32 j;

	if (!given)
		given = "";
	for (j = 0; j < maxlen; j++) {
		if (stored[j] != given[j])
			return false;
		if (!stored[j])
			return true;
	}
	return true;
}

static bool field_eq(struct tap_map *m, struct tap_map_entry *e, int k,
		     const union tap_key *key)
{
	char *p = field(e, m->key_off[k]);
	s64 v;

	if (m->key_types[k] == TAP_KEY_LONG) {
		memcpy(&v, p, sizeof(v));
		return v == key->l;
	}
	return str_key_eq(p, key->s, m->key_strlen);
}

static bool keys_match(struct tap_map *m, struct tap_map_entry *e,
		       const union tap_key *keys, u32 wild)
{
	int k;

	for (k = 0; k < m->nkeys; k++)
		if (!(wild & (1U << k)) && !field_eq(m, e, k, &keys[k]))
			return false;
	return true;
}

static struct tap_map_entry *find(struct tap_map *m,
				  const union tap_key *keys, u32 h)
{
	u32 i;

	for (i = m->hash[h & m->hash_mask]; i != NIL; i = elem(m, i)->hnext) {
		struct tap_map_entry *e = elem(m, i);

		if (e->hashv == h && keys_match(m, e, keys, 0))
			return e;
	}
	return NULL;
}

struct tap_map_entry *tap_map_lookup(struct tap_map *m,
				     const union tap_key *keys)
{
	return find(m, keys, hash_keys(m, keys));
}

static void hash_unlink(struct tap_map *m, struct tap_map_entry *e)
{
	u32 *link = &m->hash[e->hashv & m->hash_mask];
	u32 self = elem_index(m, e);

	while (*link != self)
		link = &elem(m, *link)->hnext;
	*link = e->hnext;
}

static void list_unlink(struct tap_map *m, struct tap_map_entry *e)
{
	if (e->prev != NIL)
		elem(m, e->prev)->next = e->next;
	else
		m->head = e->next;
	if (e->next != NIL)
		elem(m, e->next)->prev = e->prev;
	else
		m->tail = e->prev;
}

static void list_append(struct tap_map *m, struct tap_map_entry *e)
{
	u32 self = elem_index(m, e);

	e->prev = m->tail;
	e->next = NIL;
	if (m->tail != NIL)
		elem(m, m->tail)->next = self;
	else
		m->head = self;
	m->tail = self;
}

static void store_keys(struct tap_map *m, struct tap_map_entry *e,
		       const union tap_key *keys)
{
	int k;

	for (k = 0; k < m->nkeys; k++) {
		char *p = field(e, m->key_off[k]);

		if (m->key_types[k] == TAP_KEY_LONG) {
			memcpy(p, &keys[k].l, sizeof(s64));
		} else {
			const char *s = keys[k].s ? keys[k].s : "";
			u32 j;

			for (j = 0; j < m->key_strlen && s[j]; j++)
				p[j] = s[j];
			p[j] = '\0';
		}
	}
}

static void clear_value(struct tap_map *m, struct tap_map_entry *e)
{
	char *v = field(e, m->val_off);

	switch (m->val_type) {
	case TAP_VAL_LONG:
		memset(v, 0, sizeof(s64));
		break;
	case TAP_VAL_STR:
		v[0] = '\0';
		break;
	case TAP_VAL_STAT:
		tap_stat_clear(&m->hist, (struct tap_stat *)v);
		break;
	}
}

int tap_map_insert(struct tap_map *m, const union tap_key *keys,
		   struct tap_map_entry **out)
{
	u32 h = hash_keys(m, keys);
	struct tap_map_entry *e = find(m, keys, h);

	if (e) {
		*out = e;
		return 0;
	}

	if (m->free != NIL) {
		e = elem(m, m->free);
		m->free = e->next;
		m->num++;
	} else if (m->wrap && m->head != NIL) {
		/* Like stap: the element created longest ago makes room. */
		e = elem(m, m->head);
		hash_unlink(m, e);
		list_unlink(m, e);
	} else {
		*out = NULL;
		return TAP_MAP_EFULL;
	}

	e->hashv = h;
	e->live = 1;
	e->hnext = m->hash[h & m->hash_mask];
	m->hash[h & m->hash_mask] = elem_index(m, e);
	list_append(m, e);
	store_keys(m, e, keys);
	clear_value(m, e);
	*out = e;
	return 1;
}

s64 *tap_map_val_long(struct tap_map *m, struct tap_map_entry *e)
{
	return (s64 *)field(e, m->val_off);
}

char *tap_map_val_str(struct tap_map *m, struct tap_map_entry *e)
{
	return field(e, m->val_off);
}

struct tap_stat *tap_map_val_stat(struct tap_map *m, struct tap_map_entry *e)
{
	return (struct tap_stat *)field(e, m->val_off);
}

s64 tap_map_key_long(struct tap_map *m, struct tap_map_entry *e, int i)
{
	s64 v;

	memcpy(&v, field(e, m->key_off[i]), sizeof(v));
	return v;
}

const char *tap_map_key_str(struct tap_map *m, struct tap_map_entry *e,
			    int i)
{
	return field(e, m->key_off[i]);
}

void tap_map_store_str(struct tap_map *m, struct tap_map_entry *e,
		       const char *v)
{
	char *p = tap_map_val_str(m, e);
	u32 j;

	if (!v)
		v = "";
	for (j = 0; j < m->val_strlen && v[j]; j++)
		p[j] = v[j];
	p[j] = '\0';
}

int tap_map_put_long(struct tap_map *m, const union tap_key *keys, s64 v)
{
	struct tap_map_entry *e;
	int rc = tap_map_insert(m, keys, &e);

	if (rc < 0)
		return rc;
	*tap_map_val_long(m, e) = v;
	return 0;
}

int tap_map_put_str(struct tap_map *m, const union tap_key *keys,
		    const char *v)
{
	struct tap_map_entry *e;
	int rc = tap_map_insert(m, keys, &e);

	if (rc < 0)
		return rc;
	tap_map_store_str(m, e, v);
	return 0;
}

int tap_map_put_stat(struct tap_map *m, const union tap_key *keys, s64 v)
{
	struct tap_map_entry *e;
	int rc = tap_map_insert(m, keys, &e);

	if (rc < 0)
		return rc;
	tap_stat_add(&m->hist, tap_map_val_stat(m, e), v);
	return 0;
}

void tap_map_delete_entry(struct tap_map *m, struct tap_map_entry *e)
{
	hash_unlink(m, e);
	list_unlink(m, e);
	e->live = 0;
	e->next = m->free;
	m->free = elem_index(m, e);
	m->num--;
}

int tap_map_remove(struct tap_map *m, const union tap_key *keys)
{
	struct tap_map_entry *e = tap_map_lookup(m, keys);

	if (!e)
		return TAP_MAP_ENOENT;
	tap_map_delete_entry(m, e);
	return 0;
}

void tap_map_reset(struct tap_map *m)
{
	u32 i;

	for (i = 0; i <= m->hash_mask; i++)
		m->hash[i] = NIL;
	/* Rebuild the free list so that slots are reused lowest first. */
	for (i = 0; i < m->max_entries; i++) {
		struct tap_map_entry *e = elem(m, i);

		e->live = 0;
		e->next = i + 1 < m->max_entries ? i + 1 : NIL;
	}
	m->free = 0;
	m->head = NIL;
	m->tail = NIL;
	m->num = 0;
}

bool tap_map_has(struct tap_map *m, const union tap_key *keys, u32 wild)
{
	u32 i;

	wild &= (1U << m->nkeys) - 1;
	if (!wild)
		return tap_map_lookup(m, keys) != NULL;
	for (i = m->head; i != NIL; i = elem(m, i)->next)
		if (keys_match(m, elem(m, i), keys, wild))
			return true;
	return false;
}

u32 tap_map_delete_slice(struct tap_map *m, const union tap_key *keys,
			 u32 wild)
{
	u32 i, next, n = 0;

	wild &= (1U << m->nkeys) - 1;
	if (!wild)
		return tap_map_remove(m, keys) == 0;
	for (i = m->head; i != NIL; i = next) {
		struct tap_map_entry *e = elem(m, i);

		next = e->next;
		if (keys_match(m, e, keys, wild)) {
			tap_map_delete_entry(m, e);
			n++;
		}
	}
	return n;
}

struct tap_map_entry *tap_map_first(struct tap_map *m)
{
	return m->head == NIL ? NULL : elem(m, m->head);
}

struct tap_map_entry *tap_map_next(struct tap_map *m, struct tap_map_entry *e)
{
	return e->next == NIL ? NULL : elem(m, e->next);
}

static int cmp_s64(s64 a, s64 b)
{
	return a < b ? -1 : a > b;
}

/* strcmp() order: bytes compared as unsigned char. */
static int cmp_str(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	return cmp_s64(*x, *y);
}

static int cmp_elems(struct tap_map *m, const struct tap_map_order *ord,
		     u32 a, u32 b)
{
	struct tap_map_entry *ea = elem(m, a), *eb = elem(m, b);
	int k = ord->column - 1;

	if (ord->column == 0) {
		switch (m->val_type) {
		case TAP_VAL_LONG:
			return cmp_s64(*tap_map_val_long(m, ea),
				       *tap_map_val_long(m, eb));
		case TAP_VAL_STR:
			return cmp_str(tap_map_val_str(m, ea),
				       tap_map_val_str(m, eb));
		case TAP_VAL_STAT:
			return cmp_s64(
				tap_stat_sort_key(tap_map_val_stat(m, ea),
						  ord->stat_field),
				tap_stat_sort_key(tap_map_val_stat(m, eb),
						  ord->stat_field));
		}
		return 0;
	}
	if (m->key_types[k] == TAP_KEY_LONG)
		return cmp_s64(tap_map_key_long(m, ea, k),
			       tap_map_key_long(m, eb, k));
	return cmp_str(tap_map_key_str(m, ea, k), tap_map_key_str(m, eb, k));
}

/*
 * Bottom-up merge sort of order[0..n) using scratch: O(n log n),
 * no recursion, and stable, which gives SystemTap's creation-order
 * tie-break. Runs alternate between the two arrays; the result is copied
 * back if it ends up in scratch.
 */
static void sort_order(struct tap_map *m, const struct tap_map_order *ord,
		       u32 n, u32 *order, u32 *scratch)
{
	u32 *src = order, *dst = scratch, *tmp;
	u32 width, lo, mid, hi, i, j, k;

	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			mid = lo + width < n ? lo + width : n;
			hi = mid + width < n ? mid + width : n;
			i = lo;
			j = mid;
			for (k = lo; k < hi; k++) {
				/* Take the right run only if strictly first. */
				if (i < mid && (j >= hi ||
				    ord->dir * cmp_elems(m, ord, src[i],
							 src[j]) <= 0))
					dst[k] = src[i++];
				else
					dst[k] = src[j++];
			}
		}
		tmp = src;
		src = dst;
		dst = tmp;
		/* Avoid overflow of width * 2 on absurd sizes. */
		if (width > n / 2)
			break;
	}
	if (src != order)
		memcpy(order, src, (size_t)n * sizeof(u32));
}

int tap_map_sort(struct tap_map *m, const struct tap_map_order *ord,
		 s64 limit)
{
	return tap_map_sort_to(m, ord, limit, m->order, m->scratch);
}

int tap_map_sort_to(struct tap_map *m, const struct tap_map_order *ord,
		    s64 limit, u32 *order, u32 *scratch)
{
	u32 n = 0, i;

	if (ord->dir < -1 || ord->dir > 1 || ord->column < 0 ||
	    ord->column > m->nkeys)
		return TAP_MAP_EINVAL;
	if (ord->column == 0 && m->val_type == TAP_VAL_STAT &&
	    (ord->stat_field < TAP_STAT_COUNT ||
	     ord->stat_field > TAP_STAT_AVG))
		return TAP_MAP_EINVAL;

	for (i = m->head; i != NIL; i = elem(m, i)->next)
		order[n++] = i;
	if (ord->dir != 0)
		sort_order(m, ord, n, order, scratch);
	if (limit >= 0 && (u64)limit < n)
		n = (u32)limit;
	return (int)n;
}

struct tap_map_entry *tap_map_sorted(struct tap_map *m, u32 i)
{
	return tap_map_sorted_in(m, m->order, i);
}

/* NULL if that element has been deleted since the sort. */
struct tap_map_entry *tap_map_sorted_in(struct tap_map *m, const u32 *order,
					u32 i)
{
	struct tap_map_entry *e;

	if (i >= m->max_entries)
		return NULL;
	e = elem(m, order[i]);
	return e->live ? e : NULL;
}

int tap_map_merge_stats(struct tap_map *dst, struct tap_map *src)
{
	union tap_key keys[TAP_MAP_MAX_KEYS];
	struct tap_map_entry *e, *d;
	int k, rc;

	if (dst->val_type != TAP_VAL_STAT || src->val_type != TAP_VAL_STAT)
		return TAP_MAP_EINVAL;
	for (e = tap_map_first(src); e; e = tap_map_next(src, e)) {
		for (k = 0; k < src->nkeys; k++) {
			if (src->key_types[k] == TAP_KEY_LONG)
				keys[k].l = tap_map_key_long(src, e, k);
			else
				keys[k].s = tap_map_key_str(src, e, k);
		}
		rc = tap_map_insert(dst, keys, &d);
		if (rc < 0)
			return rc;
		tap_stat_merge(&dst->hist, tap_map_val_stat(dst, d),
			       tap_map_val_stat(src, e));
	}
	return 0;
}
