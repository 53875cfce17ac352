/* The target kernel's function names: loading from kallsyms, an ELF
 * symbol table or BTF, lookup, globs and "did you mean". */
#include "errbuf.h"
#include "ksyms.h"

#include "btf.h"
#include "glob.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

struct ksyms {
	enum ksyms_source source;
	char *origin;
	char **names;		/* sorted, unique, each malloc'd */
	size_t count, cap;
};


static struct ksyms *ks_new(enum ksyms_source source, const char *origin)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	ks->source = source;
	ks->origin = strdup(origin);
	if (!ks->origin) {
		free(ks);
		return NULL;
	}
	return ks;
}

static int ks_add(struct ksyms *ks, const char *name, size_t len)
{
	if (ks->count == ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 4096;
		char **grown = realloc(ks->names, cap * sizeof(*grown));

		if (!grown)
			return -1;
		ks->names = grown;
		ks->cap = cap;
	}
	ks->names[ks->count] = strndup(name, len);
	if (!ks->names[ks->count])
		return -1;
	ks->count++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and drop duplicates (kallsyms repeats static names). */
static void ks_finish(struct ksyms *ks)
{
	size_t i, out = 0;

	if (!ks->count)
		return;
	qsort(ks->names, ks->count, sizeof(*ks->names), cmp_names);
	for (i = 0; i < ks->count; i++) {
		if (out && strcmp(ks->names[out - 1], ks->names[i]) == 0) {
			free(ks->names[i]);
			continue;
		}
		ks->names[out++] = ks->names[i];
	}
	ks->count = out;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->count; i++)
		free(ks->names[i]);
	free(ks->names);
	free(ks->origin);
	free(ks);
}

/* One kallsyms line, "ADDR TYPE NAME [MODULE]": NAME when TYPE is a text
 * symbol of the kernel proper. */
static const char *kallsyms_text(char *line, size_t *len)
{
	char *type, *name, *end;

	type = strchr(line, ' ');
	if (!type || (type[1] != 't' && type[1] != 'T') || type[2] != ' ')
		return NULL;
	name = type + 3;
	end = name + strcspn(name, " \t\n");
	if (*end == ' ' || *end == '\t')	/* [module] follows */
		return NULL;
	*len = (size_t)(end - name);
	return *len ? name : NULL;
}

struct ksyms *ksyms_from_kallsyms(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct ksyms *ks;
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	ks = ks_new(KSYMS_KALLSYMS, path);
	while (ks && getline(&line, &cap, f) > 0) {
		size_t len;
		const char *name = kallsyms_text(line, &len);

		if (name && ks_add(ks, name, len) < 0) {
			ksyms_free(ks);
			ks = NULL;
		}
	}
	free(line);
	fclose(f);
	if (!ks) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	if (!ks->count) {
		errbuf_set(err, errlen, "%s: no kernel text symbols", path);
		ksyms_free(ks);
		return NULL;
	}
	ks_finish(ks);
	return ks;
}

static int add_symtab(struct ksyms *ks, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n;

	if (!data || !sh->sh_entsize)
		return -1;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (name && *name && ks_add(ks, name, strlen(name)) < 0)
			return -1;
	}
	return 0;
}

struct ksyms *ksyms_from_elf(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct ksyms *ks = NULL;
	Elf_Scn *scn = NULL;
	Elf *elf;
	char origin[4200];

	if (fd < 0) {
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		errbuf_set(err, errlen, "%s: not an ELF file", path);
		goto out;
	}
	snprintf(origin, sizeof(origin), "the symbol table of %s", path);
	ks = ks_new(KSYMS_SYMTAB, origin);
	while (ks && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		if (add_symtab(ks, elf, scn, &sh) < 0) {
			errbuf_set(err, errlen, "%s: cannot read the symbol table", path);
			ksyms_free(ks);
			ks = NULL;
			goto out;
		}
	}
	if (!ks) {
		errbuf_set(err, errlen, "out of memory");
	} else if (!ks->count) {
		errbuf_set(err, errlen, "%s: no function symbols (stripped)", path);
		ksyms_free(ks);
		ks = NULL;
	} else {
		ks_finish(ks);
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ks;
}

struct ksyms *ksyms_from_btf(const struct btf *btf, char *err, size_t errlen)
{
	struct ksyms *ks = ks_new(KSYMS_BTF, "the kernel's BTF function entries");
	uint32_t id, n = btf_type_count(btf);

	for (id = 1; ks && id <= n; id++) {
		const char *name = btf_name(btf, id);

		if (btf_kind(btf, id) == BTF_K_FUNC && *name &&
		    ks_add(ks, name, strlen(name)) < 0) {
			ksyms_free(ks);
			ks = NULL;
		}
	}
	if (!ks) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	if (!ks->count) {
		errbuf_set(err, errlen, "the BTF has no functions");
		ksyms_free(ks);
		return NULL;
	}
	ks_finish(ks);
	return ks;
}

struct ksyms *ksyms_load(const char *release, const char *kallsyms, const char *vmlinux,
			 const struct btf *btf, char *err, size_t errlen)
{
	struct utsname u;
	struct ksyms *ks;

	if (release && uname(&u) == 0 && strcmp(u.release, release) == 0) {
		ks = ksyms_from_kallsyms("/proc/kallsyms", err, errlen);
		if (ks)
			return ks;
	}
	if (kallsyms) {
		ks = ksyms_from_kallsyms(kallsyms, err, errlen);
		if (ks)
			return ks;
	}
	if (vmlinux) {
		ks = ksyms_from_elf(vmlinux, err, errlen);
		if (ks)
			return ks;
	}
	if (btf)
		return ksyms_from_btf(btf, err, errlen);
	if (!vmlinux && !kallsyms)
		errbuf_set(err, errlen, "no symbol source for kernel %s", release ? release : "?");
	return NULL;
}

enum ksyms_source ksyms_source(const struct ksyms *ks)
{
	return ks->source;
}

const char *ksyms_origin(const struct ksyms *ks)
{
	return ks->origin;
}

size_t ksyms_count(const struct ksyms *ks)
{
	return ks->count;
}

const char *ksyms_at(const struct ksyms *ks, size_t index)
{
	return index < ks->count ? ks->names[index] : NULL;
}

bool ksyms_has(const struct ksyms *ks, const char *name)
{
	return ks->count && bsearch(&name, ks->names, ks->count, sizeof(*ks->names),
				    cmp_names) != NULL;
}

size_t ksyms_match(const struct ksyms *ks, const char *pattern,
		   void (*fn)(const char *name, void *arg), void *arg)
{
	size_t i, n = 0;

	for (i = 0; i < ks->count; i++) {
		if (!glob_match(pattern, ks->names[i]))
			continue;
		n++;
		if (fn)
			fn(ks->names[i], arg);
	}
	return n;
}
