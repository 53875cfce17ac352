/* Whole-file helpers (see fileutil.h). */
#define _XOPEN_SOURCE 700	/* nftw */
#include "fileutil.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

bool copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n = 0;
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = in >= 0 && out >= 0;

	while (ok && (n = read(in, buf, sizeof(buf))) > 0)
		ok = write(out, buf, (size_t)n) == n;
	ok = ok && n == 0;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0)
		ok = false;
	return ok;
}

bool print_file(const char *path, FILE *out)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "tapc: cannot read %s: %s\n", path, strerror(errno));
		return false;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	fclose(f);
	return true;
}

char *make_private_dir(const char *prefix, char **tried)
{
	const char *tmp = getenv("TMPDIR");
	char *templ = xasprintf("%s/%sXXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
	char *abs;

	*tried = NULL;
	if (!mkdtemp(templ)) {
		*tried = templ;
		return NULL;
	}
	/* Absolute: make -C changes directory, and the guest of
	 * --remote=vm finds files by the same path. */
	abs = realpath(templ, NULL);
	if (!abs)
		return templ;
	free(templ);
	return abs;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
