/* Kernel modules' BTF (see modbtf.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nftw's FTW_ACTIONRETVAL */
#endif
#include "modbtf.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "errbuf.h"
#include "util.h"

/* nftw's callback has no argument of its own: the search in progress. */
static struct {
	const char *name;
	char *found;
} search;

/* Whether FILE (a base name) is module NAME's file: NAME.ko or NAME.ko.X,
 * with '-' and '_' alike. */
static bool is_module_file(const char *file, const char *name)
{
	static const char *const suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t i;

	for (i = 0; name[i] && file[i]; i++) {
		char a = name[i] == '-' ? '_' : name[i], b = file[i] == '-' ? '_' : file[i];

		if (a != b)
			return false;
	}
	if (name[i])
		return false;
	for (size_t s = 0; s < sizeof(suffixes) / sizeof(suffixes[0]); s++)
		if (!strcmp(file + i, suffixes[s]))
			return true;
	return false;
}

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (flag != FTW_F || !is_module_file(path + ftw->base, search.name))
		return FTW_CONTINUE;
	search.found = xstrdup(path);
	return FTW_STOP;
}

char *modbtf_find(const char *dir, const char *name)
{
	char *found;

	if (!*name || strchr(name, '/'))
		return NULL;
	search.name = name;
	search.found = NULL;
	nftw(dir, visit, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	found = search.found;
	search.found = NULL;
	return found;
}

struct btf *modbtf_load(const char *release, bool running, const char *name,
			const struct btf *kernel, char *err, size_t errlen)
{
	char *dir, *path;
	struct btf *btf;

	if (!*name || strchr(name, '/') || !strcmp(name, "vmlinux")) {
		errbuf_set(err, errlen, "not a module name");
		return NULL;
	}
	if (running) {
		path = xasprintf("/sys/kernel/btf/%s", name);
		if (access(path, R_OK) == 0) {
			btf = btf_load_split_file(path, kernel, err, errlen);
			free(path);
			return btf;
		}
		free(path);
	}
	dir = xasprintf("/lib/modules/%s", release);
	path = modbtf_find(dir, name);
	if (!path) {
		errbuf_set(err, errlen, "no module '%s' in %s", name, dir);
		free(dir);
		return NULL;
	}
	free(dir);
	btf = btf_load_split_file(path, kernel, err, errlen);
	free(path);
	return btf;
}
