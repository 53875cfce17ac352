/* User binaries whose symbols and unwind rows go into the module (-d
 * PATH, --ldd, process("PATH") probes, -c's program): what pass 3 needs of
 * each, read from its ELF file (and its separate debuginfo's symbol table,
 * found by build-id) at translation time. */
#ifndef TAPC_UMOD_H
#define TAPC_UMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linetab.h"
#include "options.h"
#include "ucfi.h"

#define UMOD_MAX_LOADS 16
#define UMOD_MAX_BUILD_ID 64

struct umod_sym {
	uint64_t addr;		/* link-time address */
	uint64_t size;
	uint32_t name;		/* offset into the module's strtab */
	uint8_t bind;		/* STB_* */
};

/* A PT_LOAD segment: file offsets to link-time addresses. */
struct umod_load {
	uint64_t off, vaddr, filesz;
};

struct umod {
	char *path;		/* canonical (realpath) */
	uint8_t build_id[UMOD_MAX_BUILD_ID];
	size_t build_id_len;
	bool is_dyn;		/* ET_DYN: PIE or a shared library */
	struct umod_load loads[UMOD_MAX_LOADS];
	int nloads;
	struct umod_sym *syms;	/* functions, sorted by address, one per address */
	size_t nsyms;
	char *strtab;
	size_t strtab_len, strtab_cap;
	const char *symsrc;	/* where the symbols came from, for -v */
	struct ucfi_table cfi;
	const char *cfisrc;	/* ".eh_frame", ".debug_frame" or NULL */
	struct strlist needed;	/* DT_NEEDED */
	char *runpath;		/* DT_RUNPATH or DT_RPATH, or NULL */
	struct linetab lines;	/* .debug_line rows, when asked for */
	bool have_lines;	/* (umod_load_lines found DWARF) */
};

/* Read @path into @m; false with @err (the file's name included). */
bool umod_load(struct umod *m, const char *path, char *err, size_t errlen);
void umod_free(struct umod *m);

/* @m's line table, from its DWARF or its separate debuginfo's; false
 * when there is none (the table stays empty). */
bool umod_load_lines(struct umod *m);

/* The symbol covering link-time address @addr (a symbol of size 0
 * covers up to the next one), or NULL. */
const struct umod_sym *umod_symbol(const struct umod *m, uint64_t addr);

/* A kernel module's line rows (klines.h): those of its probed functions
 * that lie in the section of the symbol "MOD:NAME" they are kept
 * relative to, as a module's sections are placed each on its own. */
struct kmod_lines {
	char *modsym;		/* "MOD:NAME", found by the runtime at load */
	uint64_t anchor;	/* NAME's address in the module's DWARF */
	uint64_t sec_lo, sec_hi;	/* its section */
	struct linetab rows;
};

/* The binaries of a run. */
struct umod_set {
	struct umod *mods;
	size_t count;
	/* and the kernel's line rows (klines.h), when the script asks */
	struct linetab kernel_lines;
	uint64_t kernel_reloc_ref;
	/* and the kernel modules' */
	struct kmod_lines *kmods;
	size_t nkmods;
};

/*
 * The binaries of this run: -d PATHs, the programs of process("PATH")
 * probes (@probe_paths), -c's program (@with_command), and with --ldd
 * every library they need; with @with_lines, their line tables too.  Errors (a -d file that is no ELF file) are
 * printed; false then.
 */
bool umod_collect(struct umod_set *set, const struct tapc_options *o,
		  char *const *probe_paths, size_t n_probe_paths,
		  bool with_command, bool with_lines, bool verbose);
void umod_set_free(struct umod_set *set);

/* What makes @set's tables what they are, for the module cache key. */
struct hash128;
void umod_set_hash(const struct umod_set *set, struct hash128 *h);

/* A library @name (DT_NEEDED) as the dynamic loader would find it for
 * @m, or NULL (malloc'd). */
char *umod_find_library(const struct umod *m, const char *name);

#endif
