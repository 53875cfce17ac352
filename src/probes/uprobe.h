/* What the uprobe family's files share: its variants, its payload and
 * the query one probe point makes (src/probes/uprobe.c reads the point,
 * src/probes/ufunc.c finds the functions and places the probes). */
#ifndef TAPC_PROBES_UPROBE_H
#define TAPC_PROBES_UPROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "dwindex.h"
#include "dwscope.h"
#include "elaborate.h"

/* Variant bits of the patterns. */
enum {
	UV_LIBRARY = 1,		/* .library("LIB") */
	UV_CALL = 2,		/* .call */
	UV_EXPORTED = 4,	/* .exported */
	UV_INLINE = 8,		/* .inline */
	UV_RETURN = 16,		/* .return */
	UV_MAXACTIVE = 32,	/* .return.maxactive(N) */
	UV_STATEMENT = 64,	/* .statement("F@FILE:N") */
	UV_PLT = 128,		/* .plt("NAME") */
	UV_NEAREST = 256,	/* .statement(...).nearest */
	UV_LABEL = 512,		/* .function(...).label("PAT") */
	UV_CALLEE = 1024,	/* .function(...).callee("PAT") */
	UV_CALLEES = 2048,	/* .function(...).callees[(N)] */
	UV_ADDR = 4096,		/* .function(ADDR), .statement(ADDR) */
};

/* A probe's payload: one block, the strings at its end. */
struct uprobe_data {
	struct dwarf_scope scope;	/* first: the DWARF resolver's view,
					 * when has_dwarf */
	bool has_dwarf;
	const char *program;		/* process("...") as resolved */
	const char *library;		/* .library("...") as resolved, or NULL */
	const char *file;		/* the binary probed: library or program */
	uint64_t addr;			/* the probe's link-time address */
	uint64_t offset;		/* and its offset in file */
	/* -p2's "pc=": addr in the binary's section as SystemTap names
	 * it, ".dynamic" (position-independent: addr itself) or
	 * ".absolute" (fixed: from the lowest segment's address) */
	bool pie;
	uint64_t rel_addr;
	/* A .return probe whose entry half runs past the prologue (the
	 * parameters of unoptimised code are there): its address and
	 * offset; 0 when it runs at the entry. */
	uint64_t entry_addr, entry_offset;
	long long pid;			/* the process it is limited to, 0: any,
					 * -1: target() */
	bool plt;			/* a .plt entry: $$name is its symbol */
	char text[];
};

struct uelf;

/* One point's expansion. */
struct ufunc_query {
	const struct probe_point *pp;
	int variant;
	const struct pp_comp *func_comp;	/* function(), statement(), plt() */
	int func_index;			/* its index in the point */
	const char *label;		/* .label("PAT")'s PAT, or NULL */
	const struct pp_comp *callee;	/* .callee("PAT") or .callees[(N)] */
	char *program, *library;	/* resolved */
	long long pid;
	int64_t maxactive;
	struct vec *out;
	const struct uelf *elf;		/* the binary's ELF (ufunc.c's) */
};

/* The DWARF of the user binary PATH (kept for the run), or NULL with a
 * message in *why (@cast(..., "PATH")). */
const struct dwindex *ufunc_dwarf(const char *path, const char **why);

/* The programs process(...) of pp names: the one file of a path, each
 * file a glob matches, the program of process(PID) or of the -c/-x
 * target without an argument; and the process the probes are limited
 * to (0: any, -1: target()).  A list for upath_list_free, or NULL with
 * *err filled.  For the user-space families (uprobe.c, sdt.c). */
char **uprobe_programs(const struct probe_point *pp, long long *pid, size_t *n,
		       struct family_error *err);

/* Push the probes of the query onto q->out; how many, or -1 with *err. */
int ufunc_expand(struct ufunc_query *q, struct family_error *err);

#endif
