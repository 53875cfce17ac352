/* Module images (see modimage.h). */
#define _GNU_SOURCE
#include "modimage.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "privilege.h"

int modimage_read(int fd, struct modimage *m)
{
	struct stat st;

	m->img = NULL;
	m->size = 0;
	if (fstat(fd, &st) < 0)
		return -1;
	if (st.st_size < (off_t)sizeof(Elf64_Ehdr) || st.st_size > (1 << 30)) {
		errno = ENOEXEC;
		return -1;
	}
	m->img = malloc(st.st_size);
	if (!m->img)
		return -1;
	if (pread(fd, m->img, st.st_size, 0) != st.st_size) {
		free(m->img);
		m->img = NULL;
		errno = EIO;
		return -1;
	}
	m->size = (size_t)st.st_size;
	return 0;
}

void modimage_free(struct modimage *m)
{
	free(m->img);
	m->img = NULL;
	m->size = 0;
}

/* The section called name: its bytes (*len of them), or NULL.  Every
 * offset is checked against the image: the file may be anything. */
static char *section(const struct modimage *m, const char *name, size_t *len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)m->img;
	const Elf64_Shdr *sh, *strsh;
	size_t nlen = strlen(name);

	if (m->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > m->size ||
	    eh->e_shnum > (m->size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const Elf64_Shdr *)(m->img + eh->e_shoff);
	strsh = &sh[eh->e_shstrndx];
	if (strsh->sh_offset > m->size || strsh->sh_size > m->size - strsh->sh_offset)
		return NULL;
	for (size_t i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strsh->sh_size ||
		    strsh->sh_size - sh[i].sh_name < nlen + 1 ||
		    memcmp(m->img + strsh->sh_offset + sh[i].sh_name, name, nlen + 1) ||
		    sh[i].sh_type == SHT_NOBITS || sh[i].sh_offset > m->size ||
		    sh[i].sh_size > m->size - sh[i].sh_offset)
			continue;
		*len = sh[i].sh_size;
		return m->img + sh[i].sh_offset;
	}
	return NULL;
}

/* The first .modinfo string that starts with prefix and is longer, or
 * NULL; *len is its length. */
static char *modinfo_entry(const struct modimage *m, const char *prefix,
			   size_t *len)
{
	size_t size, plen = strlen(prefix);
	char *sec = section(m, ".modinfo", &size), *end, *p;

	if (!sec)
		return NULL;
	end = sec + size;
	for (p = sec; p < end; p += strnlen(p, end - p) + 1) {
		size_t n = strnlen(p, end - p);

		if (n > plen && p + n < end && !strncmp(p, prefix, plen)) {
			*len = n;
			return p;
		}
	}
	return NULL;
}

/* The "name=..." string of .modinfo, or NULL; *len is its length. */
static char *modinfo_name_entry(const struct modimage *m, size_t *len)
{
	return modinfo_entry(m, "name=", len);
}

int modimage_privilege(const struct modimage *m)
{
	size_t len;
	const char *sec = section(m, ".tapc_privilege", &len);
	unsigned int level;

	if (!sec || len != sizeof(level))
		return -1;
	memcpy(&level, sec, sizeof(level));
	switch (level) {
	case PRIV_STAPUSR:
	case PRIV_STAPSYS:
	case PRIV_STAPDEV:
		return (int)level;
	default:
		return -1;
	}
}

int modimage_has_param(const struct modimage *m, const char *name, size_t name_len)
{
	char *prefix = malloc(name_len + 11);
	size_t len;
	int found;

	if (!prefix)
		return 0;
	memcpy(prefix, "parmtype=", 9);
	memcpy(prefix + 9, name, name_len);
	memcpy(prefix + 9 + name_len, ":", 2);
	found = modinfo_entry(m, prefix, &len) != NULL;
	free(prefix);
	return found;
}

int modimage_name(const struct modimage *m, char *name, size_t size)
{
	size_t len;
	const char *p = modinfo_name_entry(m, &len);

	if (!p || len - 5 >= size)
		return -1;
	memcpy(name, p + 5, len - 5);
	name[len - 5] = '\0';
	return 0;
}

int modimage_rename(struct modimage *m, const char *new_name)
{
	size_t len, this_len, nlen = strlen(new_name);
	char *entry = modinfo_name_entry(m, &len);
	char *this = section(m, ".gnu.linkonce.this_module", &this_len), *at;

	if (!entry || !this || len - 5 != nlen)
		return -1;
	/* struct module's name: the old name with its NUL, in that section */
	at = memmem(this, this_len, entry + 5, nlen + 1);
	if (!at)
		return -1;
	memcpy(at, new_name, nlen);
	memcpy(entry + 5, new_name, nlen);
	return 0;
}
