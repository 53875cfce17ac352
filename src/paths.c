/* Locating tapsets and runtime relative to the tapc executable. */
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util.h"

bool path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *tapc_exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

bool tapc_in_build_tree(const char *dir)
{
	return strcmp(dir, TAPC_BUILD_BINDIR) == 0;
}

static const char *env_name(const char *what)
{
	return strcmp(what, "tapsets") == 0 ? "TAPC_TAPSET" : "TAPC_RUNTIME";
}

char *tapc_data_dir(const char *what)
{
	const char *env = getenv(env_name(what));
	char *dir, *path;

	if (env && *env)
		return xstrdup(env);
	dir = tapc_exe_dir();
	if (dir && tapc_in_build_tree(dir)) {
		free(dir);
		return xasprintf("%s/%s", TAPC_SOURCE_DIR, what);
	}
	if (dir) {
		char *slash = strrchr(dir, '/');

		if (slash) {
			*slash = '\0';
			path = xasprintf("%s/share/tapc/%s", dir, what);
			if (path_is_dir(path)) {
				free(dir);
				return path;
			}
			free(path);
		}
		free(dir);
	}
	return xasprintf("%s/%s", TAPC_PKGDATADIR, what);
}
