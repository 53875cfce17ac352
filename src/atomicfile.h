/* Files that readers see whole or not at all.
 *
 * The caches (modules, kbuild recipes, the tapset index) are shared by
 * concurrent tapc runs, so a file is written under a temporary name in
 * its final directory and renamed into place only once it is complete: a
 * reader sees the old file or the new one, never a torn one.
 */
#ifndef TAPC_ATOMICFILE_H
#define TAPC_ATOMICFILE_H

#include <stdbool.h>
#include <stdio.h>

struct atomic_file {
	FILE *f;	/* write here */
	char *tmp;	/* the temporary name beside dest */
	char *dest;
};

/* Open a temporary file beside DEST, created exclusively (mkstemp), mode
 * 0644; NULL on failure. */
FILE *atomic_open(struct atomic_file *af, const char *dest);
/* Close and rename into place if OK and every write succeeded, else
 * remove the temporary file; true when DEST now holds the new file. */
bool atomic_close(struct atomic_file *af, bool ok);
/* Copy FROM to DEST that way. */
bool atomic_copy(const char *from, const char *dest);

#endif
