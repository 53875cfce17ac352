/* The DWARF function index on disk (see dwcache.h).
 *
 * The file, in the host's byte order (a cache is never shared between
 * machines): a header, the functions as fixed-size records in the
 * index's order, then their names, each ending in '\0'.
 */
#include "dwcache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cachedir.h"
#include "util.h"

/* Changed whenever what the index holds or leaves out changes. */
#define DWCACHE_MAGIC "tapc-dwidx-2"

struct dwcache_header {
	char magic[16];
	uint64_t size;		/* the debuginfo file's */
	int64_t mtime_ns;
	uint64_t count;		/* records */
	uint64_t strings;	/* bytes of names */
};

struct dwcache_rec {
	uint64_t die;
	uint64_t entry;
	uint32_t name;		/* offset in the names */
	uint32_t flags;		/* DWC_* */
};

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

/* The whole file on FD, or NULL. */
static char *read_all(int fd, size_t *len)
{
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fstat(fd, &st) != 0 || st.st_size <= 0)
		return NULL;
	*len = (size_t)st.st_size;
	buf = xmalloc(*len);
	while (got < *len) {
		ssize_t r = read(fd, buf + got, *len - got);

		if (r <= 0) {
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	return buf;
}

/* The functions of BUF (LEN bytes) if it is a whole, consistent entry
 * for the file stamped WANT. */
static bool decode(char *buf, size_t len, const struct dwcache_header *want,
		   struct dwfunc **funcs, size_t *n, char **strings)
{
	struct dwcache_header h;
	const char *recs = buf + sizeof(h), *names;
	size_t rec_bytes;

	if (len < sizeof(h))
		return false;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, want->magic, sizeof(h.magic)) != 0 || h.size != want->size ||
	    h.mtime_ns != want->mtime_ns || h.count > len / sizeof(struct dwcache_rec))
		return false;
	rec_bytes = h.count * sizeof(struct dwcache_rec);
	if (sizeof(h) + rec_bytes + h.strings != len || h.strings == 0)
		return false;
	names = recs + rec_bytes;
	if (names[h.strings - 1] != '\0')
		return false;
	*funcs = xmalloc((h.count ? h.count : 1) * sizeof(**funcs));
	for (size_t i = 0; i < h.count; i++) {
		struct dwcache_rec r;

		memcpy(&r, recs + i * sizeof(r), sizeof(r));
		if (r.name >= h.strings) {
			free(*funcs);
			return false;
		}
		(*funcs)[i] = (struct dwfunc){ .name = names + r.name, .die = r.die,
					       .entry = r.entry,
					       .inline_instance = r.flags & DWC_INLINE,
					       .external = r.flags & DWC_EXTERNAL };
	}
	*n = h.count;
	*strings = buf;
	return true;
}

bool dwcache_load(const char *key, const char *path, struct dwfunc **funcs, size_t *n,
		  char **strings)
{
	struct dwcache_header want;
	char why[512];
	char *file = cache_path(key, false), *buf = NULL;
	int fd = file ? cache_open(file, why, sizeof(why)) : -1;
	size_t len = 0;
	bool ok = false;

	if (fd >= 0 && file_stamp(path, &want) && (buf = read_all(fd, &len)))
		ok = decode(buf, len, &want, funcs, n, strings);
	if (!ok)
		free(buf);
	if (fd >= 0)
		close(fd);
	free(file);
	return ok;
}

void dwcache_store(const char *key, const char *path, const struct dwfunc *funcs, size_t n)
{
	struct dwcache_header h;
	struct atomic_file af;
	char *file;
	struct strbuf names = { 0 };
	uint32_t *offs = xmalloc((n ? n : 1) * sizeof(*offs));
	bool ok = true;

	/* names in the index's order: one copy of each run of equal names */
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(funcs[i].name, funcs[i - 1].name) != 0) {
			offs[i] = (uint32_t)names.len;
			strbuf_addn(&names, funcs[i].name, strlen(funcs[i].name) + 1);
		} else {
			offs[i] = offs[i - 1];
		}
	}
	if (!names.len)
		strbuf_addn(&names, "", 1);
	file = file_stamp(path, &h) && names.len < UINT32_MAX ? cache_path(key, true) : NULL;
	if (file && atomic_open(&af, file)) {
		h.count = n;
		h.strings = names.len;
		ok = fwrite(&h, sizeof(h), 1, af.f) == 1;
		for (size_t i = 0; ok && i < n; i++) {
			struct dwcache_rec r = { funcs[i].die, funcs[i].entry, offs[i],
				(funcs[i].inline_instance ? DWC_INLINE : 0) |
				(funcs[i].external ? DWC_EXTERNAL : 0) };

			ok = fwrite(&r, sizeof(r), 1, af.f) == 1;
		}
		ok = ok && fwrite(names.buf, 1, names.len, af.f) == names.len;
		atomic_close(&af, ok);
	}
	free(file);
	free(offs);
	strbuf_free(&names);
}
