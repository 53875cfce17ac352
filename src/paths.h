/* Where tapc finds its own files: the tapset library and the runtime. */
#ifndef TAPC_PATHS_H
#define TAPC_PATHS_H

#include <stdbool.h>

/* The directory holding `what` ("tapsets" or "runtime"), malloc'ed:
 * 1. the environment (TAPC_TAPSET, TAPC_RUNTIME) when set;
 * 2. the source tree, when tapc runs from its build tree;
 * 3. PREFIX/share/tapc/WHAT, PREFIX being the parent of tapc's own bin
 *    directory, so that an installed tree can be moved;
 * 4. the directory configure was told (pkgdatadir). */
char *tapc_data_dir(const char *what);

/* The directory holding the running tapc executable (malloc'ed), or NULL. */
char *tapc_exe_dir(void);
/* Does dir (from tapc_exe_dir) mean tapc runs from its build tree? */
bool tapc_in_build_tree(const char *dir);

bool path_is_dir(const char *path);

#endif
