/* The module cache (see modcache.h). */
#define _GNU_SOURCE
#include "modcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "hash128.h"
#include "cachedir.h"
#include "util.h"

#define SUM_HEADER "tapc-module-cache 1"

/* ROOT/KK/KEY (no extension), KK created when create; NULL with why
 * filled (empty when the cache or KK only does not exist yet). */
static char *entry_base(const char *key, bool create, char *why, size_t whylen)
{
	char *root = cachedir_get("modules", create, why, whylen), *dir, *base = NULL;

	if (!root)
		return NULL;
	dir = xasprintf("%s/%.2s", root, key);
	if (cachedir_sub(dir, create, why, whylen))
		base = xasprintf("%s/%s", dir, key);
	free(dir);
	free(root);
	return base;
}

static char *with_ext(const char *base, const char *ext)
{
	return xasprintf("%s.%s", base, ext);
}

/* Size and content hash of a cache file (checked as cache_open does). */
static bool file_sum(const char *path, unsigned long long *size, char hex[33])
{
	struct hash128 h;
	struct stat st;
	char why[300];
	int fd = cache_open(path, why, sizeof(why));
	bool ok;

	if (fd < 0)
		return false;
	hash_init(&h);
	ok = fstat(fd, &st) == 0 && hash_fd(&h, fd);
	close(fd);
	if (!ok)
		return false;
	*size = (unsigned long long)st.st_size;
	hash_hex(&h, hex);
	return true;
}

/* Take the entry's lock (creating it when create); -1 when it cannot, or
 * when the lock file is not the caller's own (never followed if a
 * symlink). */
static int lock_entry(const char *base, int how, bool create)
{
	char *path = with_ext(base, "lock"), why[300];
	int fd = create ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       0600) : -1;

	if (fd >= 0)
		close(fd);
	fd = cache_open(path, why, sizeof(why));
	free(path);
	if (fd >= 0 && flock(fd, how) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Whether the .sum of base names the sizes and hashes its files have. */
static bool entry_intact(const char *base, const char **damaged)
{
	char *sum_path = with_ext(base, "sum"), line[3][128], why[300];
	static const char *const exts[] = { "c", "ko" };
	FILE *f = cache_fopen(sum_path, why, sizeof(why));
	bool ok = f != NULL;

	free(sum_path);
	*damaged = NULL;
	for (int i = 0; ok && i < 3; i++)
		ok = fgets(line[i], sizeof(line[i]), f) != NULL;
	if (f)
		fclose(f);
	if (!ok)
		return false;	/* no entry, or one still being written */
	if (strcmp(line[0], SUM_HEADER "\n") != 0) {
		*damaged = "its checksum file is not tapc's";
		return false;
	}
	for (int i = 0; i < 2; i++) {
		char want_ext[8], want_hex[40], hex[33], *path;
		unsigned long long want_size, size;

		if (sscanf(line[i + 1], "%7s %llu %39s", want_ext, &want_size, want_hex) != 3 ||
		    strcmp(want_ext, exts[i]) != 0) {
			*damaged = "its checksum file is damaged";
			return false;
		}
		path = with_ext(base, exts[i]);
		ok = file_sum(path, &size, hex);
		free(path);
		if (!ok || size != want_size || strcmp(hex, want_hex) != 0) {
			*damaged = exts[i][0] == 'c' ? "its C file does not match its checksum"
						     : "its module does not match its checksum";
			return false;
		}
	}
	return true;
}

static void remove_entry_files(const char *base)
{
	static const char *const exts[] = { "sum", "c", "ko" };

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		char *p = with_ext(base, exts[i]);

		unlink(p);
		free(p);
	}
}

bool modcache_lookup(const char *key, struct modcache_entry *e, const char **damaged,
		     char *refused, size_t refusedlen)
{
	char *base = entry_base(key, false, refused, refusedlen), *sum;
	const char *why = NULL;
	bool hit = false;
	int lock;

	memset(e, 0, sizeof(*e));
	if (damaged)
		*damaged = NULL;
	if (!base)
		return false;
	lock = lock_entry(base, LOCK_SH, false);
	if (lock >= 0) {
		hit = entry_intact(base, &why);
		close(lock);
	}
	if (why) {
		/* Damaged: take it out under the exclusive lock, so a
		 * writer's complete entry is never removed half-way. */
		lock = lock_entry(base, LOCK_EX, false);
		if (lock >= 0) {
			const char *again;

			if (!entry_intact(base, &again) && again)
				remove_entry_files(base);
			close(lock);
		}
		if (damaged)
			*damaged = why;
	}
	if (hit) {
		e->c_path = with_ext(base, "c");
		e->ko_path = with_ext(base, "ko");
		sum = with_ext(base, "sum");
		utimensat(AT_FDCWD, sum, NULL, AT_SYMLINK_NOFOLLOW);	/* recently used */
		free(sum);
	}
	free(base);
	return hit;
}

void modcache_entry_free(struct modcache_entry *e)
{
	free(e->c_path);
	free(e->ko_path);
	memset(e, 0, sizeof(*e));
}

static bool write_sum(const char *base)
{
	static const char *const exts[] = { "c", "ko" };
	char *dest = with_ext(base, "sum");
	struct atomic_file af;
	bool ok = atomic_open(&af, dest) != NULL;

	if (ok)
		fprintf(af.f, "%s\n", SUM_HEADER);
	for (int i = 0; ok && i < 2; i++) {
		char *path = with_ext(base, exts[i]), hex[33];
		unsigned long long size;

		ok = file_sum(path, &size, hex);
		if (ok)
			fprintf(af.f, "%s %llu %s\n", exts[i], size, hex);
		free(path);
	}
	ok = atomic_close(&af, ok);
	free(dest);
	return ok;
}

bool modcache_store(const char *key, const char *c_path, const char *ko_path,
		    char *why, size_t whylen)
{
	char *base = entry_base(key, true, why, whylen), *dir, *c_dest, *ko_dest;
	bool ok;
	int lock;

	if (!base)
		return false;
	dir = xstrndup(base, (size_t)(strrchr(base, '/') - base));
	if ((lock = lock_entry(base, LOCK_EX, true)) < 0) {
		snprintf(why, whylen, "cannot lock an entry in %s", dir);
		free(dir);
		free(base);
		return false;
	}
	c_dest = with_ext(base, "c");
	ko_dest = with_ext(base, "ko");
	remove_entry_files(base);	/* the .sum first: incomplete from now */
	ok = atomic_copy(c_path, c_dest) && atomic_copy(ko_path, ko_dest) && write_sum(base);
	if (!ok) {
		snprintf(why, whylen, "cannot write into %s: %s", dir, strerror(errno));
		remove_entry_files(base);
	}
	close(lock);
	free(c_dest);
	free(ko_dest);
	free(dir);
	free(base);
	return ok;
}

/* ---- size limit ----------------------------------------------------------- */

struct cached {
	char *base;
	time_t used;
	unsigned long long bytes;
};

static unsigned long long file_size(const char *base, const char *ext)
{
	char *p = with_ext(base, ext);
	struct stat st;
	unsigned long long n = lstat(p, &st) == 0 ? (unsigned long long)st.st_size : 0;

	free(p);
	return n;
}

/* Every entry with a .sum under root, appended to *v (n, cap); only the
 * caller's own directories and files, never through a symlink. */
static void list_entries(const char *root, struct cached **v, size_t *n, size_t *cap)
{
	DIR *top = opendir(root);
	struct dirent *sub;
	char why[300];

	while (top && (sub = readdir(top))) {
		char *dir;
		DIR *d;
		struct dirent *de;

		if (sub->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", root, sub->d_name);
		d = cache_entry_ok(dir, true, why, sizeof(why)) ? opendir(dir) : NULL;
		while (d && (de = readdir(d))) {
			size_t len = strlen(de->d_name);
			struct stat st;
			char *sum;

			if (len < 5 || strcmp(de->d_name + len - 4, ".sum") != 0)
				continue;
			sum = xasprintf("%s/%s", dir, de->d_name);
			if (cache_entry_ok(sum, false, why, sizeof(why)) && lstat(sum, &st) == 0) {
				if (*n == *cap) {
					*cap = *cap ? *cap * 2 : 16;
					*v = xrealloc(*v, *cap * sizeof(**v));
				}
				(*v)[*n].base = xstrndup(sum, strlen(sum) - 4);
				(*v)[*n].used = st.st_mtime;
				(*v)[*n].bytes = (unsigned long long)st.st_size +
						 file_size((*v)[*n].base, "c") +
						 file_size((*v)[*n].base, "ko");
				(*n)++;
			}
			free(sum);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	if (top)
		closedir(top);
}

static int by_use(const void *a, const void *b)
{
	const struct cached *x = a, *y = b;

	return (x->used > y->used) - (x->used < y->used);
}

unsigned long long modcache_limit(void)
{
	const char *env = getenv("TAPC_CACHE_MB");
	char *end;
	unsigned long long mb = 256;

	if (env && *env) {
		unsigned long long v = strtoull(env, &end, 10);

		if (!*end)
			mb = v;
	}
	return mb * 1024 * 1024;
}

int modcache_trim(unsigned long long limit)
{
	char why[300], *root = cachedir_get("modules", false, why, sizeof(why));
	struct cached *v = NULL;
	size_t n = 0, cap = 0;
	unsigned long long total = 0;
	int removed = 0;

	if (!root)
		return 0;
	list_entries(root, &v, &n, &cap);
	for (size_t i = 0; i < n; i++)
		total += v[i].bytes;
	qsort(v, n, sizeof(*v), by_use);
	for (size_t i = 0; i < n; i++) {
		if (total > limit) {
			int lock = lock_entry(v[i].base, LOCK_EX | LOCK_NB, false);

			/* an entry in use right now stays */
			if (lock >= 0) {
				remove_entry_files(v[i].base);
				close(lock);
				total -= v[i].bytes;
				removed++;
			}
		}
		free(v[i].base);
	}
	free(v);
	free(root);
	return removed;
}
