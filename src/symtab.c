/* The symbol table of one binary (see symtab.h). */
#define _GNU_SOURCE	/* qsort_r */
#include "symtab.h"

#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "util.h"

struct symtab_builder {
	struct strbuf names;
	struct symtab_slot *slots;
	size_t n_slots;
	size_t n_names;
	struct symtab_fn *fns;
	size_t n_fns, cap_fns;
};

static size_t slots_for(size_t names)
{
	size_t cap = 16;

	/* at most half full: a few probes per lookup */
	while (cap < 2 * names)
		cap *= 2;
	return cap;
}

/* The slot of NAME (hash H) in SLOTS[0 .. n), n a power of two: its own,
 * or the free one where it would go; NULL when neither is found in n
 * probes (only a damaged table is full). */
static struct symtab_slot *find_slot(const struct symtab_slot *slots, size_t n,
				     const char *names, const char *name, uint64_t h)
{
	size_t mask = n - 1;

	for (size_t k = 0, i = h & mask; k < n; k++, i = (i + 1) & mask) {
		const struct symtab_slot *s = &slots[i];

		if (!s->name || strcmp(names + s->name, name) == 0)
			return (struct symtab_slot *)s;
	}
	return NULL;
}

struct symtab_builder *symtab_begin(size_t symbols)
{
	struct symtab_builder *b = xcalloc(1, sizeof(*b));

	strbuf_addn(&b->names, "", 1);
	b->n_slots = slots_for(symbols);
	b->slots = xcalloc(b->n_slots, sizeof(*b->slots));
	return b;
}

/* NAME's slot, added when new. */
static struct symtab_slot *name_slot(struct symtab_builder *b, const char *name)
{
	struct symtab_slot *s;

	if (b->n_names * 2 >= b->n_slots) {	/* more names than symtab_begin said */
		struct symtab_slot *old = b->slots;
		size_t n_old = b->n_slots;

		b->n_slots *= 2;
		b->slots = xcalloc(b->n_slots, sizeof(*b->slots));
		for (size_t i = 0; i < n_old; i++)
			if (old[i].name)
				*find_slot(b->slots, b->n_slots, b->names.buf,
					   b->names.buf + old[i].name,
					   name_hash(b->names.buf + old[i].name)) = old[i];
		free(old);
	}
	s = find_slot(b->slots, b->n_slots, b->names.buf, name, name_hash(name));
	if (!s->name) {
		s->name = (uint32_t)b->names.len;
		strbuf_addn(&b->names, name, strlen(name) + 1);
		b->n_names++;
	}
	return s;
}

void symtab_add(struct symtab_builder *b, const char *name, uint64_t addr, bool named,
		bool function, uint64_t size, unsigned rank)
{
	struct symtab_slot *s;

	if (!*name || (!named && !function))
		return;
	s = name_slot(b, name);
	if (named) {
		if (!s->count)
			s->addr = addr;
		s->count++;
	}
	if (!function)
		return;
	if (b->n_fns == b->cap_fns) {
		b->cap_fns = b->cap_fns ? 2 * b->cap_fns : 4096;
		b->fns = xrealloc(b->fns, b->cap_fns * sizeof(*b->fns));
	}
	b->fns[b->n_fns++] = (struct symtab_fn){ addr, addr + size, s->name, rank };
}

static int fn_cmp(const void *a, const void *b, void *names)
{
	const struct symtab_fn *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (SYMTAB_RANK(x->rank) != SYMTAB_RANK(y->rank))
		return SYMTAB_RANK(x->rank) < SYMTAB_RANK(y->rank) ? -1 : 1;
	return strcmp((const char *)names + x->name, (const char *)names + y->name);
}

/* The slots of B's names alone (a name of a function that is not looked up
 * by name kept one for its string: it has no count). */
static struct symtab_slot *final_slots(const struct symtab_builder *b, size_t *n)
{
	size_t named = 0;
	struct symtab_slot *slots;

	for (size_t i = 0; i < b->n_slots; i++)
		named += b->slots[i].count > 0;
	*n = named ? slots_for(named) : 0;
	slots = xcalloc(*n ? *n : 1, sizeof(*slots));
	for (size_t i = 0; i < b->n_slots; i++) {
		const struct symtab_slot *s = &b->slots[i];

		if (s->count)
			*find_slot(slots, *n, b->names.buf, b->names.buf + s->name,
				   name_hash(b->names.buf + s->name)) = *s;
	}
	return slots;
}

void symtab_end(struct symtab_builder *b, struct symtab *out)
{
	size_t n_slots;
	struct symtab_slot *slots = final_slots(b, &n_slots);

	if (b->n_fns > 1)
		qsort_r(b->fns, b->n_fns, sizeof(*b->fns), fn_cmp, b->names.buf);
	*out = (struct symtab){
		.fns = b->fns, .n_fns = b->n_fns,
		.slots = slots, .n_slots = n_slots,
		.names_len = b->names.len, .owned = true,
	};
	out->names = strbuf_detach(&b->names);
	free(b->slots);
	free(b);
}

void symtab_free(struct symtab *t)
{
	if (t->owned) {
		free((void *)t->fns);
		free((void *)t->slots);
		free((void *)t->names);
	}
	memset(t, 0, sizeof(*t));
}

bool symtab_consistent(const struct symtab *t)
{
	size_t free_slots = 0;

	if (t->names_len == 0 || t->names[0] != '\0' || t->names[t->names_len - 1] != '\0' ||
	    (t->n_slots & (t->n_slots - 1)) != 0)
		return false;
	for (size_t i = 0; i < t->n_fns; i++)
		if (t->fns[i].name >= t->names_len)
			return false;
	for (size_t i = 0; i < t->n_slots; i++) {
		if (t->slots[i].name >= t->names_len)
			return false;
		free_slots += !t->slots[i].name;
	}
	/* a table symtab_end made is at most half full */
	return free_slots * 2 >= t->n_slots;
}

const struct symtab_slot *symtab_lookup(const struct symtab *t, const char *name)
{
	const struct symtab_slot *s;

	if (!t->n_slots || !*name)
		return NULL;
	s = find_slot(t->slots, t->n_slots, t->names, name, name_hash(name));
	return s && s->name ? s : NULL;
}

const struct symtab_fn *symtab_fn_at(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n_fns;

	/* the last symbol starting at or before addr ... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->fns[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ... or an alias of it, or an enclosing one just before (the
	 * first of those at its address that has a size: an empty one
	 * holds no address) */
	for (size_t i = lo; i > 0 && lo - i < 8; i--)
		if (addr < t->fns[i - 1].hi) {
			size_t first = i - 1;

			for (size_t k = i - 1; k > 0 && t->fns[k - 1].lo == t->fns[i - 1].lo; k--)
				if (t->fns[k - 1].hi > t->fns[k - 1].lo)
					first = k - 1;
			return &t->fns[first];
		}
	return NULL;
}
