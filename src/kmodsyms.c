/* A kernel module's function symbols (see kmodsyms.h). */
#include "kmodsyms.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errbuf.h"
#include "glob.h"
#include "util.h"

/* A function and where it is: an ET_REL file's symbol values are
 * offsets in their sections. */
struct kmodfn {
	struct kmodsym sym;
	size_t section;
	uint64_t value;
	size_t place, n_place;	/* the functions at its address: by_place
				 * [place, + n_place) */
};

struct kmodsyms {
	struct kmodfn *fns;
	size_t n;
	size_t *by_place;	/* indexes of fns, by section and value, then
				 * in the table's order */
	char *names;		/* every name, each ending in '\0' */
};

static const struct kmodfn *sorting;

static int cmp_place(const void *a, const void *b)
{
	const struct kmodfn *x = &sorting[*(const size_t *)a], *y = &sorting[*(const size_t *)b];

	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Each function's aliases (the symbols at its address), for matching
 * each place once. */
static void group_places(struct kmodsyms *s)
{
	s->by_place = xcalloc(s->n ? s->n : 1, sizeof(*s->by_place));
	for (size_t i = 0; i < s->n; i++)
		s->by_place[i] = i;
	sorting = s->fns;
	qsort(s->by_place, s->n, sizeof(*s->by_place), cmp_place);
	for (size_t i = 0, end; i < s->n; i = end) {
		const struct kmodfn *first = &s->fns[s->by_place[i]];

		for (end = i + 1; end < s->n && s->fns[s->by_place[end]].section == first->section &&
				  s->fns[s->by_place[end]].value == first->value; end++)
			;
		for (size_t k = i; k < end; k++) {
			s->fns[s->by_place[k]].place = i;
			s->fns[s->by_place[k]].n_place = end - i;
		}
	}
}

static Elf_Scn *symbol_table(Elf *elf, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == SHT_SYMTAB)
			return scn;
	return NULL;
}

static bool is_init_text(Elf *elf, size_t shstrndx, size_t section)
{
	GElf_Shdr sh;
	const char *name;

	if (!gelf_getshdr(elf_getscn(elf, section), &sh))
		return false;
	name = elf_strptr(elf, shstrndx, sh.sh_name);
	return name && !strcmp(name, ".init.text");
}

/* Whether NAME has a __ksymtab_NAME symbol (names: sorted copies). */
static bool exported_in(char **ksymtab, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ksymtab[mid], name);

		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The exported names: __ksymtab_NAME's NAME, sorted; how many. */
static size_t exported_names(Elf *elf, Elf_Data *data, size_t count, size_t strtab,
			     char ***out)
{
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) ||
		    !(name = elf_strptr(elf, strtab, sym.st_name)) ||
		    strncmp(name, "__ksymtab_", 10) != 0)
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = (char *)name + 10;
	}
	if (n)
		qsort(*out, n, sizeof(**out), cmp_str);
	return n;
}

static void read_functions(struct kmodsyms *s, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, shstrndx = 0;
	size_t len = 0, used = 0, nexp;
	char **ksymtab;

	if (!data || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	nexp = exported_names(elf, data, count, sh->sh_link, &ksymtab);
	s->fns = xcalloc(count ? count : 1, sizeof(*s->fns));
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < count; i++) {
			GElf_Sym sym;
			const char *name;
			struct kmodfn *f;

			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
			    !(name = elf_strptr(elf, sh->sh_link, sym.st_name)) || !*name)
				continue;
			if (pass == 0) {	/* the names' room first: no moving */
				len += strlen(name) + 1;
				continue;
			}
			f = &s->fns[s->n++];
			f->sym.name = memcpy(s->names + used, name, strlen(name) + 1);
			used += strlen(name) + 1;
			f->section = sym.st_shndx;
			f->value = sym.st_value;
			f->sym.init = is_init_text(elf, shstrndx, sym.st_shndx);
			f->sym.exported = exported_in(ksymtab, nexp, name);
		}
		if (pass == 0)
			s->names = xmalloc(len ? len : 1);
	}
	free(ksymtab);
}

struct kmodsyms *kmodsyms_open(const char *ko, char *err, size_t errlen)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;
	struct kmodsyms *s = NULL;

	if (fd < 0) {
		errbuf_set(err, errlen, "cannot open module file %s: %m", ko);
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || eh.e_type != ET_REL)
		errbuf_set(err, errlen, "%s is not an uncompressed kernel module (ELF ET_REL)", ko);
	else if (!(scn = symbol_table(elf, &sh)))
		errbuf_set(err, errlen, "module file %s has no symbol table", ko);
	else {
		s = xcalloc(1, sizeof(*s));
		read_functions(s, elf, scn, &sh);
		group_places(s);
	}
	elf_end(elf);
	close(fd);
	return s;
}

void kmodsyms_free(struct kmodsyms *s)
{
	if (!s)
		return;
	free(s->fns);
	free(s->by_place);
	free(s->names);
	free(s);
}

size_t kmodsyms_match(const struct kmodsyms *s, const char *pat, const struct kmodsym ***out)
{
	size_t k = 0;

	*out = xcalloc(s->n ? s->n : 1, sizeof(**out));
	for (size_t i = 0; i < s->n; i++) {
		const struct kmodfn *f = &s->fns[i];
		bool placed = false;

		if (!glob_match(pat, f->sym.name))
			continue;
		/* an alias of a function matched before it */
		for (size_t j = f->place; j < f->place + f->n_place && !placed; j++)
			placed = s->by_place[j] < i && glob_match(pat, s->fns[s->by_place[j]].sym.name);
		if (!placed)
			(*out)[k++] = &f->sym;
	}
	return k;
}
