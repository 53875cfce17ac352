/* Whole-file helpers, for the passes and the caches. */
#ifndef TAPC_FILEUTIL_H
#define TAPC_FILEUTIL_H

#include <stdbool.h>
#include <stdio.h>

/* Copy a file (false with errno set); print a file to out. */
bool copy_file(const char *from, const char *to);
bool print_file(const char *path, FILE *out);

/* A new directory of mode 0700 named PREFIX plus six random characters
 * under $TMPDIR (else /tmp), by mkdtemp, so no other user's file or link
 * can stand in for it: its malloc'd absolute path, or NULL with errno
 * set and *tried (malloc'd, the caller frees it) naming the template. */
char *make_private_dir(const char *prefix, char **tried);

/* Remove DIR and everything under it, never following a symbolic link
 * (a private build directory: what kbuild or a compiler left there). */
void remove_tree(const char *dir);

#endif
