/* Finding tapset files. */
#include "tapsets.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

static const char *const arch_dirs[] = {
	"x86_64", "i386", "arm", "arm64", "powerpc", "s390", "mips",
	"riscv", "ia64",
};

/* A subdirectory for an architecture other than ours is not ours. */
static bool foreign_arch_dir(const char *name, const char *arch)
{
	for (size_t i = 0; i < sizeof(arch_dirs) / sizeof(arch_dirs[0]); i++)
		if (strcmp(name, arch_dirs[i]) == 0)
			return strcmp(name, arch) != 0;
	return false;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int tapset_scan(const char *dir, const char *arch, struct strlist *files,
		struct strlist *macro_files)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *path = xasprintf("%s/%s", dir, name);
		struct stat st;

		if (name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				if (!foreign_arch_dir(name, arch))
					tapset_scan(path, arch, files, macro_files);
			} else if (has_suffix(name, ".stp")) {
				strlist_add(files, path);
			} else if (has_suffix(name, ".stpm")) {
				strlist_add(macro_files, path);
			}
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return 0;
}
