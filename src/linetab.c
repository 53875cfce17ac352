/* Line tables from .debug_line, compact for the module (linetab.h). */
#include <dwarf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linetab.h"
#include "util.h"

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void rehash(struct linetab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 256;

	free(t->slots);
	t->slots = xcalloc(n, sizeof(*t->slots));
	t->nslots = n;
	for (size_t i = 0; i < t->nfiles; i++) {
		size_t at = name_hash(t->files[i]) & (n - 1);

		while (t->slots[at])
			at = (at + 1) & (n - 1);
		t->slots[at] = (uint32_t)i + 1;
	}
}

/* The index of file @name, added on first sight. */
static uint32_t file_index(struct linetab *t, const char *name)
{
	size_t at;

	if (2 * (t->nfiles + 1) > t->nslots)
		rehash(t);
	at = name_hash(name) & (t->nslots - 1);
	while (t->slots[at]) {
		if (strcmp(t->files[t->slots[at] - 1], name) == 0)
			return t->slots[at] - 1;
		at = (at + 1) & (t->nslots - 1);
	}
	if (t->nfiles == t->files_cap) {
		t->files_cap = t->files_cap ? 2 * t->files_cap : 64;
		t->files = xrealloc(t->files, t->files_cap * sizeof(*t->files));
	}
	t->files[t->nfiles] = xstrdup(name);
	t->slots[at] = (uint32_t)t->nfiles + 1;
	return (uint32_t)t->nfiles++;
}

static void push(struct linetab *t, uint64_t addr, uint32_t line, uint32_t file)
{
	if (t->count == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->rows = xrealloc(t->rows, t->cap * sizeof(*t->rows));
	}
	t->rows[t->count] = (struct linetab_row){ addr, line, line ? file : 0,
						  (uint32_t)t->count };
	t->count++;
}

/* Line @l's file and line as a row holds them (line 0: none). */
static uint32_t row_of(struct linetab *t, Dwarf_Line *l, uint32_t *file)
{
	const char *src = dwarf_linesrc(l, NULL, NULL);
	int lineno = 0;

	*file = 0;
	if (!src || dwarf_lineno(l, &lineno) != 0 || lineno <= 0 ||
	    (uint32_t)lineno > LINETAB_MAX_LINE)
		return 0;
	*file = file_index(t, src);
	return *file < LINETAB_MAX_FILES ? (uint32_t)lineno : 0;
}

bool linetab_add_cu(struct linetab *t, Dwarf_Die *cu,
		    const uint64_t (*ranges)[2], size_t nranges)
{
	Dwarf_Lines *lines;
	size_t n;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr, next = 0;
		bool end = false;
		uint32_t file, line;

		if (!l || dwarf_lineaddr(l, &addr) != 0)
			continue;
		dwarf_lineendsequence(l, &end);
		line = end ? (file = 0) : row_of(t, l, &file);
		if (!nranges) {
			push(t, addr, line, file);
			continue;
		}
		/* a row that is not the end of its sequence holds up to the next */
		if (end || i + 1 >= n ||
		    dwarf_lineaddr(dwarf_onesrcline(lines, i + 1), &next) != 0)
			continue;
		for (size_t r = 0; r < nranges; r++) {
			uint64_t lo = addr > ranges[r][0] ? addr : ranges[r][0];
			uint64_t hi = next < ranges[r][1] ? next : ranges[r][1];

			if (lo < hi) {
				push(t, lo, line, file);
				push(t, hi, 0, 0);
			}
		}
	}
	return true;
}

size_t linetab_add_all(struct linetab *t, Dwarf *dbg)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t unit_type;
	size_t with_rows = 0;

	while (dwarf_get_units(dbg, cu, &cu, NULL, &unit_type, &cudie, NULL) == 0) {
		size_t before = t->count;

		if (dwarf_tag(&cudie) != DW_TAG_compile_unit)
			continue;
		if (linetab_add_cu(t, &cudie, NULL, 0) && t->count > before)
			with_rows++;
	}
	return with_rows;
}

static int row_cmp(const void *a, const void *b)
{
	const struct linetab_row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address, a real row wins over an end; then the later one */
	if ((x->line != 0) != (y->line != 0))
		return x->line ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void linetab_finish(struct linetab *t)
{
	size_t out = 0;

	if (t->finished)
		return;
	t->finished = true;
	if (!t->count)
		return;
	qsort(t->rows, t->count, sizeof(*t->rows), row_cmp);
	for (size_t i = 0; i < t->count; i++) {
		const struct linetab_row *r = &t->rows[i];

		if (i + 1 < t->count && t->rows[i + 1].addr == r->addr)
			continue;	/* the last row of an address stands */
		if (out ? (t->rows[out - 1].line == r->line &&
			   t->rows[out - 1].file == r->file) : !r->line)
			continue;	/* same as before, or nothing yet */
		t->rows[out++] = *r;
	}
	t->count = out;
}

const struct linetab_row *linetab_lookup(const struct linetab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !t->rows[lo - 1].line)
		return NULL;
	return &t->rows[lo - 1];
}

void linetab_free(struct linetab *t)
{
	for (size_t i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	free(t->files);
	free(t->rows);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* All rows of the ELF file @path; false when it has no DWARF. */
static bool read_file(struct linetab *t, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dbg;
	size_t cus = 0;

	if (fd < 0)
		return false;
	dbg = dwarf_begin(fd, DWARF_C_READ);
	if (dbg) {
		cus = linetab_add_all(t, dbg);
		dwarf_end(dbg);
	}
	close(fd);
	return cus > 0;
}

bool linetab_read_user(struct linetab *t, const char *path,
		       const uint8_t *build_id, size_t build_id_len)
{
	char debug[64 + 2 * 64];
	int len;

	if (read_file(t, path))
		return true;
	if (build_id_len < 2 || build_id_len > 64)
		return false;
	len = snprintf(debug, sizeof(debug), "/usr/lib/debug/.build-id/%02x/",
		       build_id[0]);
	for (size_t i = 1; i < build_id_len; i++)
		len += snprintf(debug + len, sizeof(debug) - (size_t)len, "%02x",
				build_id[i]);
	snprintf(debug + len, sizeof(debug) - (size_t)len, ".debug");
	return read_file(t, debug);
}

bool linetab_add_function(struct linetab *t, Dwarf *dbg, uint64_t pc)
{
	Dwarf_Die cu, *scopes = NULL, *func = NULL;
	uint64_t (*ranges)[2] = NULL;
	size_t nranges = 0;
	ptrdiff_t off = 0;
	Dwarf_Addr base, lo, hi;
	int n;
	bool ok;

	if (!dwarf_addrdie(dbg, pc, &cu))
		return false;
	n = dwarf_getscopes(&cu, pc, &scopes);
	/* the outermost function: an inline instance's lines are its caller's */
	for (int i = n - 1; i >= 0 && !func; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			func = &scopes[i];
	if (!func) {
		free(scopes);
		return false;
	}
	while ((off = dwarf_ranges(func, off, &base, &lo, &hi)) > 0) {
		ranges = xrealloc(ranges, (nranges + 1) * sizeof(*ranges));
		ranges[nranges][0] = lo;
		ranges[nranges][1] = hi;
		nranges++;
	}
	ok = nranges && linetab_add_cu(t, &cu, (const uint64_t (*)[2])ranges, nranges);
	free(ranges);
	free(scopes);
	return ok;
}

void linetab_keep(struct linetab *t, uint64_t lo, uint64_t hi)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->count; i++)
		if (t->rows[i].addr >= lo && t->rows[i].addr <= hi)
			t->rows[kept++] = t->rows[i];
	t->count = kept;
}
