/* The tapset library: which script files make it up. */
#ifndef TAPC_TAPSETS_H
#define TAPC_TAPSETS_H

#include "options.h"

/* Append to `files` every *.stp file (to `macro_files` every *.stpm file)
 * found below dir, recursively, in a stable sorted order. Subdirectories
 * named after another architecture than `arch` are skipped, as SystemTap
 * does for tapset/<arch>/. Returns -1 if dir cannot be read. */
int tapset_scan(const char *dir, const char *arch, struct strlist *files,
		struct strlist *macro_files);

#endif
