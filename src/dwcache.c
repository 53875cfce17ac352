/* The DWARF function index on disk (see dwcache.h).
 *
 * The file, in the host's byte order (a cache is never shared between
 * machines): a header, the functions as fixed-size records in the
 * index's order, the strings (function names and declaration files, each
 * once, each ending in '\0'), then the symbol table as symtab.h has it in
 * memory: its functions, its name slots and its names.  Every part's
 * size is a multiple of 8 but the two blocks of names, which come last,
 * so that the tables are used where the file is mapped.
 */
#include "dwcache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cachedir.h"
#include "lookup.h"
#include "util.h"

/* Changed whenever what the index holds or leaves out changes. */
#define DWCACHE_MAGIC "tapc-dwidx-8"

struct dwcache_header {
	char magic[16];
	uint64_t size;		/* the debuginfo file's */
	int64_t mtime_ns;
	uint64_t count;		/* records */
	uint64_t sym_fns;	/* struct symtab_fn entries */
	uint64_t sym_slots;	/* struct symtab_slot entries */
	uint64_t strings;	/* bytes of strings */
	uint64_t sym_names;	/* bytes of symbol names */
};

struct dwcache_rec {
	uint64_t die;
	uint64_t entry;
	uint32_t name;		/* offset in the strings */
	uint32_t flags;		/* DWC_* */
	uint32_t decl_file;	/* offset in the strings, or NO_FILE */
	int32_t decl_line;
};

#define NO_FILE UINT32_MAX

/* the symbol table's parts start 8-aligned where the file is mapped */
_Static_assert(sizeof(struct dwcache_header) % 8 == 0 && sizeof(struct dwcache_rec) % 8 == 0 &&
	       sizeof(struct symtab_fn) % 8 == 0 && sizeof(struct symtab_slot) % 8 == 0,
	       "cache file parts keep 8-byte alignment");

enum { DWC_INLINE = 1, DWC_EXTERNAL = 2 };

/* The cache file of KEY (the directory created when create), or NULL. */
static char *cache_path(const char *key, bool create)
{
	char why[512];
	char *dir = cachedir_get("dwarf", create, why, sizeof(why)), *path;

	if (!dir)
		return NULL;
	path = xasprintf("%s/%s.idx", dir, key);
	free(dir);
	return path;
}

static bool file_stamp(const char *path, struct dwcache_header *h)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, DWCACHE_MAGIC, sizeof(DWCACHE_MAGIC));
	h->size = (uint64_t)st.st_size;
	h->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	return true;
}

/* The whole file on FD, mapped (only the pages a lookup reads are ever
 * read: cache files are replaced by rename, never rewritten in place), or
 * NULL. */
static char *map_all(int fd, size_t *len)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) != 0 || st.st_size <= 0)
		return NULL;
	*len = (size_t)st.st_size;
	p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* H's parts fit in LEN bytes exactly (each count bounded first, so that
 * no product overflows). */
static bool sizes_fit(const struct dwcache_header *h, size_t len)
{
	size_t left = len - sizeof(*h);

	if (h->count > left / sizeof(struct dwcache_rec))
		return false;
	left -= h->count * sizeof(struct dwcache_rec);
	if (h->sym_fns > left / sizeof(struct symtab_fn))
		return false;
	left -= h->sym_fns * sizeof(struct symtab_fn);
	if (h->sym_slots > left / sizeof(struct symtab_slot))
		return false;
	left -= h->sym_slots * sizeof(struct symtab_slot);
	return h->strings != 0 && h->sym_names != 0 && h->strings <= left &&
	       h->sym_names == left - h->strings;
}

/* The symbol table of a BUF whose sizes fit, as a view into it. */
static void symbols_of(const char *buf, const struct dwcache_header *h, struct symtab *syms)
{
	const char *fns = buf + sizeof(*h) + h->count * sizeof(struct dwcache_rec);
	const char *slots = fns + h->sym_fns * sizeof(struct symtab_fn);
	const char *strings = slots + h->sym_slots * sizeof(struct symtab_slot);

	*syms = (struct symtab){
		.fns = (const struct symtab_fn *)fns, .n_fns = h->sym_fns,
		.slots = (const struct symtab_slot *)slots, .n_slots = h->sym_slots,
		.names = strings + h->strings, .names_len = h->sym_names,
	};
}

bool dwcache_check(const char *buf, size_t len, const char *path, size_t *n,
		   struct symtab *syms)
{
	struct dwcache_header h, want;
	const char *strings;

	if (len < sizeof(h) || !file_stamp(path, &want))
		return false;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, want.magic, sizeof(h.magic)) != 0 || h.size != want.size ||
	    h.mtime_ns != want.mtime_ns || !sizes_fit(&h, len))
		return false;
	symbols_of(buf, &h, syms);
	strings = syms->names - h.strings;
	/* then every offset below h.strings starts a terminated string */
	if (strings[h.strings - 1] != '\0' || !symtab_consistent(syms))
		return false;
	/* every record's strings in range, so that a damaged file is
	 * rebuilt rather than trusted: a read of the records, no decoding */
	for (size_t i = 0; i < h.count; i++) {
		struct dwcache_rec r;

		memcpy(&r, buf + sizeof(h) + i * sizeof(r), sizeof(r));
		if (r.name >= h.strings || (r.decl_file != NO_FILE && r.decl_file >= h.strings))
			return false;
	}
	*n = h.count;
	return true;
}

void dwcache_record(const char *buf, size_t i, struct dwfunc *f)
{
	struct dwcache_header h;
	struct dwcache_rec r;
	const char *recs = buf + sizeof(h), *strings;

	memcpy(&h, buf, sizeof(h));
	strings = recs + h.count * sizeof(r) + h.sym_fns * sizeof(struct symtab_fn) +
		  h.sym_slots * sizeof(struct symtab_slot);
	memcpy(&r, recs + i * sizeof(r), sizeof(r));
	*f = (struct dwfunc){ .name = strings + r.name, .die = r.die, .entry = r.entry,
			      .inline_instance = r.flags & DWC_INLINE,
			      .external = r.flags & DWC_EXTERNAL,
			      .decl_file = r.decl_file != NO_FILE ? strings + r.decl_file : NULL,
			      .decl_line = r.decl_line };
}

char *dwcache_load(const char *key, size_t *len)
{
	char why[512];
	char *file = cache_path(key, false), *buf = NULL;
	int fd = file ? cache_open(file, why, sizeof(why)) : -1;

	if (fd >= 0) {
		buf = map_all(fd, len);
		close(fd);
	}
	free(file);
	return buf;
}

void dwcache_unload(char *buf, size_t len)
{
	if (buf)
		munmap(buf, len);
}

/* The strings of the index: each name and file once. */
struct strtab {
	struct strbuf bytes;
	struct namemap offsets;		/* string -> its offset + 1 */
};

static uint32_t strtab_add(struct strtab *t, const char *s)
{
	const struct vec *v = namemap_get(&t->offsets, s);
	size_t off = t->bytes.len;

	if (v)
		return (uint32_t)((uintptr_t)v->v[0] - 1);
	strbuf_addn(&t->bytes, s, strlen(s) + 1);
	namemap_add(&t->offsets, s, (void *)(uintptr_t)(off + 1));
	return (uint32_t)off;
}

char *dwcache_encode(const char *path, const struct dwfunc *funcs, size_t n,
		     const struct symtab *syms, size_t *len)
{
	struct dwcache_header h;
	struct strtab strs = { 0 };
	struct strbuf out = { 0 };

	if (!file_stamp(path, &h))
		return NULL;
	strbuf_addn(&strs.bytes, "", 1);
	/* the strings first: the records need their offsets */
	for (size_t i = 0; i < n; i++) {
		strtab_add(&strs, funcs[i].name);
		if (funcs[i].decl_file)
			strtab_add(&strs, funcs[i].decl_file);
	}
	if (strs.bytes.len >= NO_FILE || syms->names_len >= UINT32_MAX) {
		namemap_free(&strs.offsets);
		strbuf_free(&strs.bytes);
		return NULL;
	}
	h.count = n;
	h.sym_fns = syms->n_fns;
	h.sym_slots = syms->n_slots;
	h.strings = strs.bytes.len;
	h.sym_names = syms->names_len;
	strbuf_addn(&out, (const char *)&h, sizeof(h));
	for (size_t i = 0; i < n; i++) {
		struct dwcache_rec r = {
			.die = funcs[i].die, .entry = funcs[i].entry,
			.name = strtab_add(&strs, funcs[i].name),
			.flags = (funcs[i].inline_instance ? DWC_INLINE : 0) |
				 (funcs[i].external ? DWC_EXTERNAL : 0),
			.decl_file = funcs[i].decl_file ? strtab_add(&strs, funcs[i].decl_file)
							: NO_FILE,
			.decl_line = funcs[i].decl_line,
		};

		strbuf_addn(&out, (const char *)&r, sizeof(r));
	}
	if (syms->n_fns)	/* fns is NULL in a file without functions */
		strbuf_addn(&out, (const char *)syms->fns, syms->n_fns * sizeof(*syms->fns));
	if (syms->n_slots)
		strbuf_addn(&out, (const char *)syms->slots, syms->n_slots * sizeof(*syms->slots));
	strbuf_addn(&out, strs.bytes.buf, strs.bytes.len);
	strbuf_addn(&out, syms->names, syms->names_len);
	namemap_free(&strs.offsets);
	strbuf_free(&strs.bytes);
	*len = out.len;
	return out.buf;
}

void dwcache_store(const char *key, const char *buf, size_t len)
{
	struct atomic_file af;
	char *file = cache_path(key, true);

	if (file && atomic_open(&af, file))
		atomic_close(&af, fwrite(buf, 1, len, af.f) == len);
	free(file);
}
