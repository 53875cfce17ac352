/* The target kernel's function names, for checking kprobe.function("NAME")
 * and its globs before building anything.
 *
 * Four sources, best first: /proc/kallsyms when the target is the running
 * kernel (every text symbol, static ones included); else a copy of the
 * target's kallsyms saved while it ran (tapc-vm keeps one per guest
 * kernel and hands over, see debuginfo.h); else the .symtab of the
 * target's vmlinux when it has one (distribution images are stripped);
 * else the FUNC entries of its BTF, which name the functions that have
 * debug information: nearly all, but not those written in assembly.
 * Module symbols are not included.
 */
#ifndef TAPC_KSYMS_H
#define TAPC_KSYMS_H

#include <stdbool.h>
#include <stddef.h>

struct btf;

enum ksyms_source { KSYMS_KALLSYMS, KSYMS_SYMTAB, KSYMS_BTF };

struct ksyms;

/* Text symbols of the kernel proper from a kallsyms file. */
struct ksyms *ksyms_from_kallsyms(const char *path, char *err, size_t errlen);
/* Function symbols of an ELF file's .symtab; NULL with ERR set when it
 * has none. */
struct ksyms *ksyms_from_elf(const char *path, char *err, size_t errlen);
/* Names of the FUNC entries of BTF. */
struct ksyms *ksyms_from_btf(const struct btf *btf, char *err, size_t errlen);
/* The best source for kernel RELEASE: /proc/kallsyms if RELEASE is the
 * running kernel's, else the saved copy KALLSYMS, else VMLINUX's .symtab,
 * else BTF (any of the three may be NULL). */
struct ksyms *ksyms_load(const char *release, const char *kallsyms, const char *vmlinux,
			 const struct btf *btf, char *err, size_t errlen);
void ksyms_free(struct ksyms *ks);

enum ksyms_source ksyms_source(const struct ksyms *ks);
/* Where the names came from, for -v: "/proc/kallsyms", ... */
const char *ksyms_origin(const struct ksyms *ks);
size_t ksyms_count(const struct ksyms *ks);
/* Names in sorted order, without duplicates. */
const char *ksyms_at(const struct ksyms *ks, size_t index);
bool ksyms_has(const struct ksyms *ks, const char *name);
/* Call FN (if not NULL) for each name matching the glob PATTERN, in sorted
 * order; returns the number of matches. */
size_t ksyms_match(const struct ksyms *ks, const char *pattern,
		   void (*fn)(const char *name, void *arg), void *arg);

#endif
