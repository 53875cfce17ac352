/* The symbol table of one binary, as the DWARF index uses it: function
 * symbols by address, and every name the index looks up (functions,
 * the kernel's section markers, __ksymtab_ entries) by name.
 *
 * It has one form in memory and in the index's cache file (dwcache.h):
 * fixed-size entries whose names are offsets into a block of names.  A
 * warm run then uses the tables where the cache file is mapped, instead
 * of reading the binary's symbol table and hashing and sorting its
 * 150,000 names (a vmlinux's) again, which cost more than the rest of a
 * one-liner's lookup.
 */
#ifndef TAPC_SYMTAB_H
#define TAPC_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A function symbol: where it starts and ends (DWARF addresses). */
struct symtab_fn {
	uint64_t lo, hi;
	uint32_t name;		/* offset in the names */
	uint32_t rank;		/* among aliases, lower first: global, weak,
				 * local (SYMTAB_RANK); and flags */
};

#define SYMTAB_RANK(rank) ((rank) & 0xffu)
/* A flag of rank: the DWARF defines a function of the symbol's name that
 * has no code of its own (folded into an identical one, as the kernel's
 * __bpf_trace_* and __ia32_sys_* wrappers are): SystemTap finds the name in
 * the DWARF, cannot place a probe, and does not fall back to the
 * symbol. */
#define SYMTAB_DWARF_CODELESS 0x100u

/* A name: open addressing by name_hash (lookup.h), linear probing. */
struct symtab_slot {
	uint64_t addr;		/* of the first symbol of the name */
	uint32_t name;		/* offset in the names; 0 (the empty name): a free slot */
	uint32_t count;		/* symbols of the name */
};

struct symtab {
	const struct symtab_fn *fns;	/* by address, then rank, then name */
	size_t n_fns;
	const struct symtab_slot *slots;
	size_t n_slots;			/* a power of two, or 0 */
	const char *names;		/* "" first; each name ends in '\0' */
	size_t names_len;
	bool owned;			/* the arrays are malloc'd (built here),
					 * not a view into a cache file */
};

/* Building one from a binary's symbols, in the order of its table. */
struct symtab_builder;

struct symtab_builder *symtab_begin(size_t symbols);
/* Symbol NAME at ADDR: looked up by name when NAMED; a function of SIZE
 * bytes with RANK when FUNCTION (SIZE 0: one that holds no address, as
 * crt's frame_dummy, still a function to probe by name). */
void symtab_add(struct symtab_builder *b, const char *name, uint64_t addr, bool named,
		bool function, uint64_t size, unsigned rank);
/* The table (symtab_free it); frees B. */
void symtab_end(struct symtab_builder *b, struct symtab *out);
void symtab_free(struct symtab *t);

/* Whether T's offsets all lie in its names, its slot count is a power of
 * two and at least half its slots are free, as symtab_end leaves them: a
 * table read from a file is used only then. */
bool symtab_consistent(const struct symtab *t);

static inline const char *symtab_name(const struct symtab *t, uint32_t off)
{
	return t->names + off;
}

/* The slot of NAME, or NULL when no symbol has it. */
const struct symtab_slot *symtab_lookup(const struct symtab *t, const char *name);
/* The function symbol that contains ADDR (of aliases, the first by
 * address, then the global one), or NULL. */
const struct symtab_fn *symtab_fn_at(const struct symtab *t, uint64_t addr);

#endif
