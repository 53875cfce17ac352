/* Line tables for the module: the rows of a binary's .debug_line (read
 * with libdw) that symfileline(), usymfileline() and the *_fileline
 * backtraces look addresses up in, made compact for pass 3.
 *
 * A row holds from its address up to the next row's: its file and line,
 * or line 0 for "no line here" (the end of a sequence or of a range
 * asked for, or DWARF's own line 0).  An address between a row's and the
 * next one's has that row's line, as SystemTap's runtime reads the
 * state machine; several rows at one address leave the last one. */
#ifndef TAPC_LINETAB_H
#define TAPC_LINETAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

/* What a module row can hold (runtime/tapc_usym.h, struct tap_uline):
 * a longer line or a later file makes the row "no line here". */
#define LINETAB_FILE_BITS 14
#define LINETAB_LINE_BITS 18
#define LINETAB_MAX_FILES (1u << LINETAB_FILE_BITS)
#define LINETAB_MAX_LINE ((1u << LINETAB_LINE_BITS) - 1)

struct linetab_row {
	uint64_t addr;
	uint32_t line;		/* 0: no line from here */
	uint32_t file;		/* index into files */
	uint32_t seq;		/* order of reading, to keep the last of equals */
};

struct linetab {
	struct linetab_row *rows;
	size_t count, cap;
	char **files;		/* as libdw names them: the directory joined */
	size_t nfiles, files_cap;
	uint32_t *slots;	/* open hash of files: index + 1, 0 empty */
	size_t nslots;
	bool finished;
};

/* The rows of compile unit @cu, all of them (@nranges 0) or those of the
 * address ranges [lo, hi) in @ranges (a function's). False when the CU
 * has no line table. */
bool linetab_add_cu(struct linetab *t, Dwarf_Die *cu,
		    const uint64_t (*ranges)[2], size_t nranges);

/* Every compile unit of @dbg; the number of CUs with rows. */
size_t linetab_add_all(struct linetab *t, Dwarf *dbg);

/* Sort, keep the last row of an address, drop rows that repeat the
 * previous one's file and line.  Call once, after the adds. */
void linetab_finish(struct linetab *t);

/* The row that holds @addr, or NULL (no row, or "no line here"). */
const struct linetab_row *linetab_lookup(const struct linetab *t, uint64_t addr);

void linetab_free(struct linetab *t);

/* Keep only the rows from @lo to @hi, both included (a finished table:
 * it stays sorted). */
void linetab_keep(struct linetab *t, uint64_t lo, uint64_t hi);

/* The rows of the user binary @path: its own DWARF, else that of its
 * separate debuginfo found by @build_id (/usr/lib/debug/.build-id).
 * False (and nothing added) when neither has DWARF. */
bool linetab_read_user(struct linetab *t, const char *path,
		       const uint8_t *build_id, size_t build_id_len);

/* The rows of the function of @dbg whose code holds @pc (its whole
 * ranges, inline callees included).  False when no CU or function
 * holds it. */
bool linetab_add_function(struct linetab *t, Dwarf *dbg, uint64_t pc);

#endif
