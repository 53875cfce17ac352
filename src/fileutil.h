/* Whole-file helpers, for the passes and the caches. */
#ifndef TAPC_FILEUTIL_H
#define TAPC_FILEUTIL_H

#include <stdbool.h>
#include <stdio.h>

/* Copy a file (false with errno set); print a file to out. */
bool copy_file(const char *from, const char *to);
bool print_file(const char *path, FILE *out);

#endif
