/* What the uprobe families read from a user binary's ELF file itself,
 * without DWARF: where its loadable segments lie in the file (uprobes
 * are registered at file offsets), its function symbols (SystemTap's
 * fallback when a binary has no debuginfo) and its PLT entries.
 */
#ifndef TAPC_UELF_H
#define TAPC_UELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uelf;

/* One function symbol (or PLT entry: "NAME" of "NAME@plt"). */
struct usym {
	const char *name;
	uint64_t addr;		/* link-time virtual address */
	uint64_t size;
	bool global;		/* STB_GLOBAL or STB_WEAK */
};

/* PATH's ELF, read; NULL with a message in ERR. */
struct uelf *uelf_open(const char *path, char *err, size_t errlen);
void uelf_free(struct uelf *u);

/* Whether it is position-independent (ET_DYN: a PIE or a library). */
bool uelf_is_dyn(const struct uelf *u);

/* The lowest address a PT_LOAD segment is linked at (0 without one):
 * where SystemTap counts a fixed-address binary's ".absolute" from. */
uint64_t uelf_base(const struct uelf *u);

/* The binary's ELF handle (libelf), open as long as u. */
struct Elf;
struct Elf *uelf_elf(const struct uelf *u);

/* The file offset of link-time address ADDR: in the PT_LOAD segment
 * that holds it, ADDR - p_vaddr + p_offset; false when none does. */
bool uelf_offset(const struct uelf *u, uint64_t addr, uint64_t *off);

/* The function symbols (.symtab, else .dynsym; an alias is one more)
 * whose names match the glob PAT, by name; how many, the array
 * (malloc'd) of pointers in *out. */
size_t uelf_functions(const struct uelf *u, const char *pat, const struct usym ***out);
/* The PLT entries whose names match PAT, by name. */
size_t uelf_plt(const struct uelf *u, const char *pat, const struct usym ***out);
/* Whether NAME is a function of the dynamic symbol table (exported). */
bool uelf_exported(const struct uelf *u, const char *name);
/* The function symbol that contains ADDR, or NULL. */
const struct usym *uelf_function_at(const struct uelf *u, uint64_t addr);
struct nearest;
/* Offer every function symbol's name to nr (suggest.h). */
void uelf_offer_names(const struct uelf *u, struct nearest *nr);

#endif
