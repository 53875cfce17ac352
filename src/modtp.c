/* Which kernel modules define which tracepoints (see modtp.h). */
#include "modtp.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kimage.h"
#include "util.h"

#define TP_NAMES_SECTION "__tracepoints_strings"

struct modtp_index {
	struct modtp_event *v;
	size_t n, cap;
	struct vec strings;	/* the names the events point into */
};

static void add_event(struct modtp_index *idx, const char *event, const char *module)
{
	if (idx->n == idx->cap) {
		idx->cap = idx->cap ? idx->cap * 2 : 256;
		idx->v = xrealloc(idx->v, idx->cap * sizeof(*idx->v));
	}
	idx->v[idx->n].event = event;
	idx->v[idx->n].module = module;
	idx->n++;
}

/* The names section of the ELF file open as fd, added as module's. */
static void scan_elf(struct modtp_index *idx, int fd, const char *module)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		char *names;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, TP_NAMES_SECTION) != 0)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size == 0)
			break;
		/* kept whole, NUL-terminated past its end should it lack one */
		names = xmalloc(d->d_size + 1);
		memcpy(names, d->d_buf, d->d_size);
		names[d->d_size] = '\0';
		vec_push(&idx->strings, names);
		for (size_t off = 0; off < d->d_size; off += strlen(names + off) + 1)
			if (names[off])
				add_event(idx, names + off, module);
		break;
	}
out:
	elf_end(elf);
}

static void scan_file(struct modtp_index *idx, const char *path, const char *module)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char err[256];

	if (fd < 0)
		return;
	if (kimage_is_compressed_file(fd)) {
		int elf = kimage_decompress_file(fd, path, err, sizeof(err));

		close(fd);
		if (elf < 0)
			return;
		fd = elf;
	}
	scan_elf(idx, fd, module);
	close(fd);
}

static int cmp_event(const void *a, const void *b)
{
	const struct modtp_event *x = a, *y = b;
	int c = strcmp(x->event, y->event);

	return c ? c : strcmp(x->module, y->module);
}

struct modtp_index *modtp_scan(const char *dir, const char *const *names,
			       const char *const *paths, size_t n)
{
	struct modtp_index *idx = xcalloc(1, sizeof(*idx));

	elf_version(EV_CURRENT);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, paths[i]);
		char *module = xstrdup(names[i]);

		/* the kernel's name for it: '-' in a file name is '_' */
		for (char *c = module; *c; c++)
			if (*c == '-')
				*c = '_';

		vec_push(&idx->strings, module);
		scan_file(idx, path, module);
		free(path);
	}
	if (idx->n)
		qsort(idx->v, idx->n, sizeof(*idx->v), cmp_event);
	return idx;
}

void modtp_free(struct modtp_index *idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < idx->strings.n; i++)
		free(idx->strings.v[i]);
	vec_free(&idx->strings);
	free(idx->v);
	free(idx);
}

size_t modtp_count(const struct modtp_index *idx)
{
	return idx->n;
}

const struct modtp_event *modtp_at(const struct modtp_index *idx, size_t i)
{
	return i < idx->n ? &idx->v[i] : NULL;
}
