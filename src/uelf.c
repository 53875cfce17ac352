/* A user binary's ELF: segments, function symbols, PLT (uelf.h). */
#include "uelf.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glob.h"
#include "suggest.h"
#include "util.h"

struct useg {
	uint64_t vaddr, memsz, offset, filesz;
};

struct uelf {
	int fd;
	Elf *elf;
	bool dyn;
	struct useg *segs;
	size_t n_segs;
	struct usym *funcs;	/* by name, then address */
	size_t n_funcs;
	struct usym *plt;	/* by name */
	size_t n_plt;
	const char **exported;	/* .dynsym's defined functions, by name */
	size_t n_exported;
};

static bool read_segments(struct uelf *u)
{
	size_t n;

	if (elf_getphdrnum(u->elf, &n) != 0)
		return false;
	u->segs = xcalloc(n ? n : 1, sizeof(*u->segs));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(u->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		u->segs[u->n_segs++] = (struct useg){ ph.p_vaddr, ph.p_memsz, ph.p_offset,
						      ph.p_filesz };
	}
	return u->n_segs > 0;
}

Elf *uelf_elf(const struct uelf *u)
{
	return u->elf;
}

bool uelf_offset(const struct uelf *u, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < u->n_segs; i++) {
		const struct useg *s = &u->segs[i];

		/* code is in the file's part of the segment */
		if (addr >= s->vaddr && addr - s->vaddr < s->filesz) {
			*off = addr - s->vaddr + s->offset;
			return true;
		}
	}
	return false;
}

bool uelf_is_dyn(const struct uelf *u)
{
	return u->dyn;
}

uint64_t uelf_base(const struct uelf *u)
{
	uint64_t base = UINT64_MAX;

	for (size_t i = 0; i < u->n_segs; i++)
		if (u->segs[i].vaddr < base)
			base = u->segs[i].vaddr;
	return u->n_segs ? base : 0;
}

static Elf_Scn *section_of_type(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

static int sym_by_name(const void *a, const void *b)
{
	const struct usym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The defined functions of the symbol table SCN (aliases each). */
static void read_functions(struct uelf *u, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	if (!data)
		return;
	u->funcs = xcalloc(n ? n : 1, sizeof(*u->funcs));
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(u->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		u->funcs[u->n_funcs++] = (struct usym){ name, sym.st_value, sym.st_size,
			GELF_ST_BIND(sym.st_info) != STB_LOCAL };
	}
	qsort(u->funcs, u->n_funcs, sizeof(*u->funcs), sym_by_name);
}

/*
 * The PLT: entry i of .plt.sec (with IBT) or entry i + 1 of .plt (entry
 * 0 is the resolver's) calls the function of relocation i of .rela.plt.
 */
static void read_plt(struct uelf *u)
{
	GElf_Shdr rela_sh, plt_sh, dynsym_sh;
	Elf_Scn *rela = section_named(u->elf, ".rela.plt", &rela_sh);
	Elf_Scn *plt = section_named(u->elf, ".plt.sec", &plt_sh);
	Elf_Scn *dynsym;
	Elf_Data *rd, *sd;
	uint64_t first, entsize = 16;
	size_t n;

	if (plt) {
		first = plt_sh.sh_addr;
	} else {
		plt = section_named(u->elf, ".plt", &plt_sh);
		first = plt_sh.sh_addr + entsize;
	}
	if (!rela || !plt || !rela_sh.sh_entsize || !(rd = elf_getdata(rela, NULL)))
		return;
	dynsym = elf_getscn(u->elf, rela_sh.sh_link);
	if (!dynsym || !gelf_getshdr(dynsym, &dynsym_sh) || !(sd = elf_getdata(dynsym, NULL)))
		return;
	n = rela_sh.sh_size / rela_sh.sh_entsize;
	u->plt = xcalloc(n ? n : 1, sizeof(*u->plt));
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(rd, (int)i, &r) ||
		    !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym) ||
		    !(name = elf_strptr(u->elf, dynsym_sh.sh_link, sym.st_name)) || !*name)
			continue;
		if (first + (i + 1) * entsize > plt_sh.sh_addr + plt_sh.sh_size)
			break;
		u->plt[u->n_plt++] = (struct usym){ name, first + i * entsize, entsize, true };
	}
	qsort(u->plt, u->n_plt, sizeof(*u->plt), sym_by_name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void read_exported(struct uelf *u)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_of_type(u->elf, SHT_DYNSYM, &sh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;

	u->exported = xcalloc(n ? n : 1, sizeof(*u->exported));
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF ||
		    !(name = elf_strptr(u->elf, sh.sh_link, sym.st_name)) || !*name)
			continue;
		u->exported[u->n_exported++] = name;
	}
	qsort(u->exported, u->n_exported, sizeof(*u->exported), str_cmp);
}

bool uelf_exported(const struct uelf *u, const char *name)
{
	return bsearch(&name, u->exported, u->n_exported, sizeof(*u->exported), str_cmp) != NULL;
}

struct uelf *uelf_open(const char *path, char *err, size_t errlen)
{
	struct uelf *u = xcalloc(1, sizeof(*u));
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;

	elf_version(EV_CURRENT);
	u->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (u->fd < 0) {
		snprintf(err, errlen, "cannot open %s: %m", path);
		free(u);
		return NULL;
	}
	u->elf = elf_begin(u->fd, ELF_C_READ_MMAP, NULL);
	if (!u->elf || elf_kind(u->elf) != ELF_K_ELF || !gelf_getehdr(u->elf, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || !read_segments(u)) {
		snprintf(err, errlen, "%s is not an executable or shared library", path);
		uelf_free(u);
		return NULL;
	}
	u->dyn = eh.e_type == ET_DYN;
	scn = section_of_type(u->elf, SHT_SYMTAB, &sh);
	if (!scn)
		scn = section_of_type(u->elf, SHT_DYNSYM, &sh);
	if (scn)
		read_functions(u, scn, &sh);
	read_plt(u);
	read_exported(u);
	return u;
}

void uelf_free(struct uelf *u)
{
	if (!u)
		return;
	if (u->elf)
		elf_end(u->elf);
	if (u->fd >= 0)
		close(u->fd);
	free(u->segs);
	free(u->funcs);
	free(u->plt);
	free(u->exported);
	free(u);
}

static size_t match(const struct usym *v, size_t n, const char *pat, const struct usym ***out)
{
	size_t k = 0;

	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (size_t i = 0; i < n; i++)
		if (glob_match(pat, v[i].name))
			(*out)[k++] = &v[i];
	return k;
}

size_t uelf_functions(const struct uelf *u, const char *pat, const struct usym ***out)
{
	return match(u->funcs, u->n_funcs, pat, out);
}

size_t uelf_plt(const struct uelf *u, const char *pat, const struct usym ***out)
{
	return match(u->plt, u->n_plt, pat, out);
}

const struct usym *uelf_function_at(const struct uelf *u, uint64_t addr)
{
	for (size_t i = 0; i < u->n_funcs; i++)
		if (addr >= u->funcs[i].addr && addr - u->funcs[i].addr < u->funcs[i].size)
			return &u->funcs[i];
	return NULL;
}

void uelf_offer_names(const struct uelf *u, struct nearest *nr)
{
	for (size_t i = 0; i < u->n_funcs; i++)
		nearest_offer(nr, u->funcs[i].name);
}
