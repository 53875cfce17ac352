/* The caches' directories, safe from other local users (see cachedir.h). */
#define _GNU_SOURCE
#include "cachedir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "util.h"

static const char *type_name(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symlink";
	if (S_ISDIR(mode))
		return "a directory";
	return S_ISREG(mode) ? "a file" : "a special file";
}

/* A directory above the caches: root's or the caller's, and nobody else
 * may rename what it holds (group and others cannot write it, or it is
 * sticky). */
static bool ancestor_trusted(const char *path, const struct stat *st, char *why,
			     size_t len)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, len, "%s is %s, not a directory", path, type_name(st->st_mode));
		return false;
	}
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		snprintf(why, len, "%s belongs to uid %u, neither to root nor to you",
			 path, (unsigned)st->st_uid);
		return false;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		snprintf(why, len, "%s is writable by group or others", path);
		return false;
	}
	return true;
}

/* tapc's own directory or file: the caller's, and only the caller's to
 * change. */
static bool own_trusted(const char *path, const struct stat *st, bool dir, char *why,
			size_t len)
{
	if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode)) {
		snprintf(why, len, "%s is %s, not %s", path, type_name(st->st_mode),
			 dir ? "a directory" : "a file");
		return false;
	}
	if (st->st_uid != geteuid()) {
		snprintf(why, len, "%s belongs to uid %u, not to you (uid %u)", path,
			 (unsigned)st->st_uid, (unsigned)geteuid());
		return false;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "%s is writable by group or others", path);
		return false;
	}
	return true;
}

bool cache_entry_ok(const char *path, bool dir, char *why, size_t len)
{
	struct stat st;

	why[0] = '\0';
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			snprintf(why, len, "%s: %s", path, strerror(errno));
		return false;
	}
	return own_trusted(path, &st, dir, why, len);
}

int cache_open(const char *path, char *why, size_t len)
{
	/* O_NONBLOCK: a FIFO in place of the file cannot hang the open */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	why[0] = '\0';
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(why, len, "%s is a symlink", path);
		else if (errno != ENOENT)
			snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!own_trusted(path, &st, false, why, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

FILE *cache_fopen(const char *path, char *why, size_t len)
{
	int fd = cache_open(path, why, len);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (fd >= 0 && !f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

bool cachedir_sub(const char *path, bool create, char *why, size_t len)
{
	if (create && mkdir(path, 0700) != 0 && errno != EEXIST) {
		snprintf(why, len, "cannot create %s: %s", path, strerror(errno));
		return false;
	}
	return cache_entry_ok(path, true, why, len);
}

/* The cache base: $XDG_CACHE_HOME, else ~/.cache.  A relative
 * XDG_CACHE_HOME is ignored, as the XDG specification says. */
static char *cache_base(char *why, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return xstrdup(xdg);
	if (home && home[0] == '/')
		return xasprintf("%s/.cache", home);
	snprintf(why, len, "neither XDG_CACHE_HOME nor HOME is an absolute path");
	return NULL;
}

/* Every directory of the canonical path real, from / down. */
static bool chain_trusted(const char *real, char *why, size_t len)
{
	char *p = xstrdup(real);
	bool ok = true;

	for (char *s = p; ok; s++) {
		char saved = *s;
		struct stat st;

		if (saved != '/' && saved != '\0')
			continue;
		if (s == p) {
			ok = lstat("/", &st) == 0 && ancestor_trusted("/", &st, why, len);
		} else {
			*s = '\0';
			ok = lstat(p, &st) == 0 && ancestor_trusted(p, &st, why, len);
			*s = saved;
		}
		if (!saved)
			break;
	}
	if (!ok && !*why)
		snprintf(why, len, "cannot check %s: %s", p, strerror(errno));
	free(p);
	return ok;
}

bool cache_handed_file_ok(const char *path, char *why, size_t len)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *real = NULL;
	bool ok = false;

	why[0] = '\0';
	if (path[0] != '/' || !slash || slash == dir) {
		snprintf(why, len, "%s is not an absolute path inside a directory", path);
		goto out;
	}
	*slash = '\0';
	real = realpath(dir, NULL);
	if (!real || strcmp(real, dir) != 0) {
		snprintf(why, len, "%s is not a canonical path (a symlink or '..' in it)", dir);
		goto out;
	}
	ok = cache_entry_ok(path, false, why, len) && cache_entry_ok(dir, true, why, len);
	if (ok) {
		*strrchr(real, '/') = '\0';
		ok = chain_trusted(real[0] ? real : "/", why, len);
	}
	if (!ok && !why[0])
		snprintf(why, len, "%s does not exist", path);
out:
	free(real);
	free(dir);
	return ok;
}

/* The canonical form of the cache base with every directory on its way
 * checked; the missing end of it is created (0700) when create. */
static char *checked_base(const char *base, bool create, char *why, size_t len)
{
	char *head = xstrdup(base), *real;
	struct strlist tail = { 0 };	/* missing components, last first */

	while (!(real = realpath(head, NULL))) {
		char *slash = strrchr(head, '/');

		if (errno != ENOENT || !slash) {
			snprintf(why, len, "cannot resolve %s: %s", base, strerror(errno));
			goto fail;
		}
		if (slash[1])
			strlist_add(&tail, slash + 1);
		slash[slash == head ? 1 : 0] = '\0';
	}
	if (!chain_trusted(real, why, len))
		goto fail;
	for (int i = tail.count - 1; i >= 0; i--) {
		const char *comp = tail.items[i];
		char *next = xasprintf("%s%s%s", real, strcmp(real, "/") ? "/" : "", comp);
		struct stat st;
		bool ok;

		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			snprintf(why, len, "%s has '.' or '..' where it does not exist yet", base);
			free(next);
			goto fail;
		}
		if (!create) {
			free(next);
			goto fail;	/* not there yet: why stays empty */
		}
		ok = mkdir(next, 0700) == 0 || errno == EEXIST;
		if (!ok)
			snprintf(why, len, "cannot create %s: %s", next, strerror(errno));
		ok = ok && lstat(next, &st) == 0 && ancestor_trusted(next, &st, why, len);
		free(real);
		real = next;
		if (!ok)
			goto fail;
	}
	strlist_free(&tail);
	free(head);
	return real;
fail:
	strlist_free(&tail);
	free(head);
	free(real);
	return NULL;
}

char *cachedir_get(const char *what, bool create, char *why, size_t len)
{
	char *base, *real, *tapc, *dir = NULL;

	why[0] = '\0';
	base = cache_base(why, len);
	if (!base)
		return NULL;
	real = checked_base(base, create, why, len);
	free(base);
	if (!real)
		return NULL;
	tapc = xasprintf("%s/tapc", real);
	if (cachedir_sub(tapc, create, why, len)) {
		dir = xasprintf("%s/%s", tapc, what);
		if (!cachedir_sub(dir, create, why, len)) {
			free(dir);
			dir = NULL;
		}
	}
	free(tapc);
	free(real);
	return dir;
}
