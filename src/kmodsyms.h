/* A kernel module's own functions as its .ko's symbol table names them:
 * what SystemTap probes module("M").function("PAT") by when M has no
 * debuginfo installed (by name, at the symbol, without variables).
 */
#ifndef TAPC_KMODSYMS_H
#define TAPC_KMODSYMS_H

#include <stdbool.h>
#include <stddef.h>

struct kmodsym {
	const char *name;
	bool init;		/* in .init.text: gone once the module is loaded */
	bool exported;		/* EXPORT_SYMBOL()ed: it has a __ksymtab_ entry */
};

struct kmodsyms;

/* The function symbols of the module file KO (an uncompressed .ko);
 * NULL with a message in ERR. */
struct kmodsyms *kmodsyms_open(const char *ko, char *err, size_t errlen);
void kmodsyms_free(struct kmodsyms *s);

/* The functions whose names match the glob PAT, in the table's order,
 * each place once (of symbols at one address, the first); how many, the
 * array (malloc'd) of pointers in *out. */
size_t kmodsyms_match(const struct kmodsyms *s, const char *pat, const struct kmodsym ***out);

#endif
