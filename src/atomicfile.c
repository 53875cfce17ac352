/* Files renamed into place once complete (see atomicfile.h). */
#include "atomicfile.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

FILE *atomic_open(struct atomic_file *af, const char *dest)
{
	int fd;

	af->dest = xstrdup(dest);
	af->tmp = xasprintf("%s.tmpXXXXXX", dest);
	af->f = NULL;
	fd = mkstemp(af->tmp);
	if (fd >= 0) {
		/* mkstemp makes 0600; the caches are read like build output */
		fchmod(fd, 0644);
		af->f = fdopen(fd, "w");
		if (!af->f) {
			close(fd);
			unlink(af->tmp);
		}
	}
	if (!af->f) {
		free(af->tmp);
		free(af->dest);
		af->tmp = af->dest = NULL;
	}
	return af->f;
}

bool atomic_close(struct atomic_file *af, bool ok)
{
	if (!af->f)
		return false;
	ok = !ferror(af->f) && ok;
	ok = fclose(af->f) == 0 && ok;
	ok = ok && rename(af->tmp, af->dest) == 0;
	if (!ok)
		unlink(af->tmp);
	free(af->tmp);
	free(af->dest);
	af->f = NULL;
	af->tmp = af->dest = NULL;
	return ok;
}

bool atomic_copy(const char *from, const char *dest)
{
	struct atomic_file af;
	char buf[65536];
	size_t n;
	FILE *in = fopen(from, "re");
	bool ok = in != NULL;

	/* through the stream mkstemp opened: the temporary file is never
	 * opened again by name */
	if (!in || !atomic_open(&af, dest)) {
		if (in)
			fclose(in);
		return false;
	}
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, af.f) == n;
	ok = ok && !ferror(in);
	fclose(in);
	return atomic_close(&af, ok);
}
