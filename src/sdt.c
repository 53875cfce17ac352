/* SDT markers of an ELF file: the notes of .note.stapsdt (see sdt.h). */
#include "sdt.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define NT_STAPSDT 3
#define STAPSDT_OWNER "stapsdt"

struct elf_handle {
	int fd;
	Elf *elf;
};

static int elf_open(const char *path, struct elf_handle *h, char **err)
{
	struct stat st;

	h->elf = NULL;
	h->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (h->fd < 0) {
		*err = xasprintf("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(h->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("'%s' is not a regular file", path);
		close(h->fd);
		return -1;
	}
	elf_version(EV_CURRENT);
	h->elf = elf_begin(h->fd, ELF_C_READ_MMAP, NULL);
	if (!h->elf || elf_kind(h->elf) != ELF_K_ELF) {
		*err = xasprintf("'%s' is not an ELF file", path);
		if (h->elf)
			elf_end(h->elf);
		close(h->fd);
		return -1;
	}
	return 0;
}

static void elf_close(struct elf_handle *h)
{
	elf_end(h->elf);
	close(h->fd);
}

/* The first section called name, with its header in *shdr; NULL if none. */
static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *sn;

		if (!gelf_getshdr(scn, shdr))
			continue;
		sn = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (sn && !strcmp(sn, name))
			return scn;
	}
	return NULL;
}

/* The file offset of address addr: through the loaded segment that
 * holds it in the file.  false if none does. */
static bool addr_to_offset(Elf *elf, uint64_t addr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

/* The lowest address a loaded segment is linked at (0 without one). */
static uint64_t load_base(Elf *elf)
{
	uint64_t base = UINT64_MAX;
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < base)
			base = ph.p_vaddr;
	}
	return base == UINT64_MAX ? 0 : base;
}

static uint64_t read_addr(const unsigned char *p, bool is_64)
{
	uint64_t v = 0;
	unsigned n = is_64 ? 8 : 4;

	/* the notes are in the file's byte order, which libelf converted
	 * the header of only: x86 files are little-endian */
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* One of the three strings at *p (within end), advancing *p; NULL if the
 * note ends before its NUL. */
static char *take_string(const char **p, const char *end)
{
	const char *nul = memchr(*p, '\0', (size_t)(end - *p));
	char *s;

	if (!nul)
		return NULL;
	s = xstrndup(*p, (size_t)(nul - *p));
	*p = nul + 1;
	return s;
}

static void marker_free(struct sdt_marker *m)
{
	free(m->provider);
	free(m->name);
	free(m->args);
}

/* Decode the description of one NT_STAPSDT note into *m; false if it is
 * malformed. */
static bool decode_note(const char *desc, size_t len, bool is_64, struct sdt_marker *m)
{
	size_t asz = is_64 ? 8 : 4;
	const char *p = desc + 3 * asz, *end = desc + len;

	memset(m, 0, sizeof(*m));
	if (len < 3 * asz + 3)
		return false;
	m->pc = read_addr((const unsigned char *)desc, is_64);
	m->base = read_addr((const unsigned char *)desc + asz, is_64);
	m->semaphore = read_addr((const unsigned char *)desc + 2 * asz, is_64);
	m->provider = take_string(&p, end);
	m->name = m->provider ? take_string(&p, end) : NULL;
	m->args = m->name ? take_string(&p, end) : NULL;
	if (!m->args) {
		marker_free(m);
		return false;
	}
	return true;
}

/* Move the marker by prelink's displacement and find its file offsets. */
static int place_marker(Elf *elf, const struct sdt_file *f, struct sdt_marker *m,
			const char *path, char **err)
{
	if (f->has_base && m->base) {
		m->pc += f->base_addr - m->base;
		if (m->semaphore)
			m->semaphore += f->base_addr - m->base;
	}
	if (!addr_to_offset(elf, m->pc, &m->pc_offset)) {
		*err = xasprintf("'%s': marker %s:%s at %#llx is outside the loaded segments",
				 path, m->provider, m->name, (unsigned long long)m->pc);
		return -1;
	}
	if (m->semaphore && !addr_to_offset(elf, m->semaphore, &m->sem_offset)) {
		*err = xasprintf("'%s': the semaphore of marker %s:%s at %#llx is outside "
				 "the loaded segments", path, m->provider, m->name,
				 (unsigned long long)m->semaphore);
		return -1;
	}
	return 0;
}

static int read_notes(Elf *elf, Elf_Scn *scn, struct sdt_file *f, const char *path,
		      char **err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, next, cap = 0;
	GElf_Nhdr nh;
	size_t name_off, desc_off;

	if (!data)
		return 0;
	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = data->d_buf;
		struct sdt_marker m;

		off = next;
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof(STAPSDT_OWNER) ||
		    memcmp(base + name_off, STAPSDT_OWNER, sizeof(STAPSDT_OWNER)) != 0)
			continue;
		if (!decode_note(base + desc_off, nh.n_descsz, f->is_64, &m)) {
			*err = xasprintf("'%s': malformed SDT note at offset %zu of .note.stapsdt",
					 path, name_off);
			return -1;
		}
		if (place_marker(elf, f, &m, path, err) != 0) {
			marker_free(&m);
			return -1;
		}
		if (f->n == cap) {
			cap = cap ? 2 * cap : 16;
			f->v = xrealloc(f->v, cap * sizeof(*f->v));
		}
		f->v[f->n++] = m;
	}
	return 0;
}

int sdt_read(const char *path, struct sdt_file *out, char **err)
{
	struct elf_handle h;
	GElf_Ehdr eh;
	GElf_Shdr shdr;
	Elf_Scn *notes;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (elf_open(path, &h, err) != 0)
		return -1;
	if (!gelf_getehdr(h.elf, &eh)) {
		*err = xasprintf("'%s': cannot read the ELF header", path);
		elf_close(&h);
		return -1;
	}
	out->machine = eh.e_machine;
	out->is_64 = gelf_getclass(h.elf) == ELFCLASS64;
	out->pie = eh.e_type == ET_DYN;
	out->load_base = load_base(h.elf);
	if (find_section(h.elf, ".stapsdt.base", &shdr)) {
		out->has_base = true;
		out->base_addr = shdr.sh_addr;
	}
	notes = find_section(h.elf, ".note.stapsdt", &shdr);
	if (notes && shdr.sh_type == SHT_NOTE)
		rc = read_notes(h.elf, notes, out, path, err);
	elf_close(&h);
	if (rc != 0)
		sdt_file_free(out);
	return rc;
}

void sdt_file_free(struct sdt_file *f)
{
	for (size_t i = 0; i < f->n; i++)
		marker_free(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* name in the symbol table of section scn (SHT_SYMTAB or SHT_DYNSYM). */
static bool symtab_lookup(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
			  uint64_t *addr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; data && i < n; i++) {
		GElf_Sym sym;
		const char *sn;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		sn = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (sn && !strcmp(sn, name)) {
			*addr = sym.st_value;
			return true;
		}
	}
	return false;
}

bool sdt_symbol(const char *path, const char *name, uint64_t *addr)
{
	static const Elf64_Word kinds[] = { SHT_SYMTAB, SHT_DYNSYM };
	struct elf_handle h;
	char *err = NULL;
	bool found = false;

	if (elf_open(path, &h, &err) != 0) {
		free(err);
		return false;
	}
	for (size_t k = 0; k < 2 && !found; k++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while (!found && (scn = elf_nextscn(h.elf, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == kinds[k])
				found = symtab_lookup(h.elf, scn, &sh, name, addr);
	}
	elf_close(&h);
	return found;
}
