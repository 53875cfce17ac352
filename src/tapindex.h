/* The tapset index: what each tapset file defines, so that pass 1 parses
 * only the files a script needs.
 *
 * For every library file the index records the functions, globals and
 * probe alias names (their first component) it defines, with the file's
 * size and modification time.  It is kept in the cache directory
 * ($XDG_CACHE_HOME/tapc/tapset-index/, or ~/.cache/...), one file per
 * (tapset directories, kernel release, architecture, language version,
 * tapc version), since conditionals in a tapset decide what it defines.
 * Only the caller's own cache is used (see cachedir.h).
 * A file whose size or time changed is parsed again and its entry
 * replaced, so the index stays fresh by itself; a file with parse errors
 * gets no entry and is parsed (and its errors reported) on every run.
 *
 * Loading starts from the names the user's scripts use (called
 * functions, variables, the first component of probe points, wildcards
 * included) and pulls in every file defining one of them, then the names
 * those files use, until nothing new is needed.
 */
#ifndef TAPC_TAPINDEX_H
#define TAPC_TAPINDEX_H

#include <stdbool.h>

#include "ast.h"
#include "options.h"

/* Parse a library file: NULL (errors reported) when it cannot be read or
 * parsed; the script otherwise, kept by the caller. */
typedef struct script *(*tapindex_parse_fn)(void *ctx, const char *path);

/* Parse, through parse, those of the library files paths that the user
 * scripts need (see above); key names the index (everything besides the
 * files' contents that decides what they define).  An index the caller
 * may not trust (cachedir.h) is neither read nor written: why says why
 * (else it is left empty), and every file is parsed. */
void tapindex_load(const struct strlist *paths, struct script **user, int n_user,
		   const char *key, tapindex_parse_fn parse, void *ctx, char *why,
		   size_t whylen);

#endif
