/* The DWARF of one binary probes go into (the kernel's vmlinux or a
 * kernel module's .ko), opened through libdwfl's offline reporting (which
 * relocates a module's ET_REL debug sections), with an index of its
 * functions by name: every subprogram with code, and every inline
 * instance of an inlined function, with its entry address.
 *
 * Functions the kernel will not kprobe are left out of the index (see
 * dwindex.c for the rules).  The Dwfl stays open until dwindex_free, so
 * the DIEs the index hands out (and their Dwarf handles) stay valid.
 */
#ifndef TAPC_DWINDEX_H
#define TAPC_DWINDEX_H

#include <stdbool.h>
#include <stddef.h>

#include <elfutils/libdw.h>

struct dwindex;

/* One function of the index. */
struct dwfunc {
	const char *name;	/* valid while the index is */
	Dwarf_Off die;		/* DW_TAG_subprogram or DW_TAG_inlined_subroutine */
	Dwarf_Addr entry;	/* its entry pc, as the DWARF gives addresses */
	bool inline_instance;	/* a DW_TAG_inlined_subroutine */
	bool external;		/* DW_AT_external */
	/* Its declaration, as dwindex_decl_file gives it: kept in the index
	 * because reading it from the DWARF loads the line table of the
	 * function's compile unit, which for kernel.function("*") means
	 * every line table of the vmlinux (hundreds of MB). */
	const char *decl_file;	/* NULL when unknown */
	int decl_line;		/* 0 when unknown */
};

/* The DWARF of the file PATH (a vmlinux when MODULE is NULL, else the .ko
 * of module MODULE), indexed; NULL with a message in ERR. */
struct dwindex *dwindex_open(const char *path, const char *module, char *err, size_t errlen);
void dwindex_free(struct dwindex *ix);
/* The DWARF of the user binary PATH (an executable or shared library):
 * its own, else a separate debug file found by build-id or debuglink;
 * addresses are its link-time ones.  NULL with a message in ERR, also
 * when it has no DWARF. */
struct dwindex *dwindex_open_user(const char *path, char *err, size_t errlen);
/* The ELF file the index was opened on (not the debug file). */
Elf *dwindex_elf(const struct dwindex *ix);
/* Where a probe on F goes past its prologue, as SystemTap places
 * process(...).function probes: in code compiled without optimisation,
 * the first statement of another line than the entry's (the parameters
 * are in their stack slots there); else, and for an inline instance,
 * F's entry. */
Dwarf_Addr dwindex_prologue_end(const struct dwindex *ix, const struct dwfunc *f);
/* -P / --prologue-searching=WHEN (enum prologue_mode of options.h: 0
 * auto, the default: only in unoptimised code; 1 never; 2 always). */
void dwindex_set_prologue_searching(int when);

/* The functions named NAME, or matching it when it is a glob, in the
 * index's order (by name, then address); returns how many, the array
 * (malloc'd) of pointers into the index in *out. */
size_t dwindex_match(const struct dwindex *ix, const char *name, const struct dwfunc ***out);
/* The out-of-line function entered at ENTRY, or NULL (a scan: for the
 * few symbols the DWARF knows under another name). */
const struct dwfunc *dwindex_at(const struct dwindex *ix, Dwarf_Addr entry);
/* Whether the function entered at ENTRY is the part of another that
 * GCC's partial inlining split off ("NAME.part.N"): SystemTap does not
 * probe it under NAME (it is no entry of NAME's). */
bool dwindex_split_part(const struct dwindex *ix, Dwarf_Addr entry);
/* A function of the symbol table only: its name and address. */
struct dwsym {
	const char *name;	/* valid while the index is */
	Dwarf_Addr addr;
	/* the DWARF's function when the symbol is another name of it,
	 * which SystemTap probes as that function; else NULL */
	const struct dwfunc *alias;
};
/* The function symbols SystemTap probes for the name or glob PAT beside
 * the DWARF's functions (a function point without a file): those whose
 * name no out-of-line function of the DWARF has, such as "NAME.cold",
 * "NAME.part.N", functions without DWARF and other names of a DWARF
 * function (struct dwsym's alias); for a glob, not those where
 * a function the glob matches in the DWARF starts (at its DW_AT_low_pc:
 * the "NAME.isra.N" and "NAME.constprop.N" clones it probes as NAME).
 * One per address, by address; returns how many, the array (malloc'd)
 * in *out. */
size_t dwindex_symtab_funcs(const struct dwindex *ix, const char *pat, struct dwsym **out);
/* Whether the DWARF defines a function NAME without code of its own
 * (SYMTAB_DWARF_CODELESS): SystemTap probes no symbol NAME. */
bool dwindex_codeless(const struct dwindex *ix, const char *name);
struct nearest;
/* Offer every function name of the index to nr (suggest.h). */
void dwindex_offer_names(const struct dwindex *ix, struct nearest *nr);

/* The DIE at offset OFF (a struct dwfunc's die) and the DIE of its
 * compile unit; false when unreadable. */
bool dwindex_die(const struct dwindex *ix, Dwarf_Off off, Dwarf_Die *die, Dwarf_Die *cu);
/* The DIE SystemTap names out-of-line function F's probe after, and its
 * name in NAME: an assembler file gives each name of one function a DIE
 * of its own (glibc's __chdir, __GI___chdir, chdir and __GI_chdir, in
 * that order, at one address), and SystemTap's probe on any of them is
 * named after the last.  F's own DIE and name otherwise. */
Dwarf_Off dwindex_last_alias(const struct dwindex *ix, const struct dwfunc *f, const char **name);
/* The names of the namespaces, classes and structures function F is
 * declared in, innermost first, at most MAX of them in NAMES (valid while
 * the index is; "" for an unnamed one): C++'s "ns::Sq::area" gives "Sq",
 * "ns".  A member defined outside its class is declared in the class, an
 * inline instance where its function is.  How many. */
size_t dwindex_scopes(const struct dwindex *ix, const struct dwfunc *f, const char **names,
		      size_t max);
/* F's declaration as SystemTap prints it: the file relative to its
 * compile unit's directory, and the line (0 when unknown). */
const char *dwindex_decl_file(const struct dwindex *ix, const struct dwfunc *f, int *line);

/* Whether a source file name matches the glob PAT: all of it, or a tail
 * of it after a '/' (SystemTap's "vfs_read@read_write.c"). */
bool dwindex_file_matches(const char *pat, const char *file);

/* One line of F's code: its lowest address, and the file as
 * dwindex_decl_file gives it. */
struct dwline {
	int line;
	Dwarf_Addr addr;
	const char *file;
};

/* The lines of F's code (its address ranges) in the files that FILE
 * matches (NULL: its declaration's file), from LO to HI, each once at its
 * lowest address, by line; returns how many, the array
 * (malloc'd) in *out. */
size_t dwindex_lines(const struct dwindex *ix, const struct dwfunc *f, const char *file,
		     int lo, int hi, struct dwline **out);

/*
 * F's lines for ":*", as SystemTap walks them: from the line of the row at
 * F's entry, each next line that has rows in F's declaration file anywhere
 * in its CU, at the lowest address F holds, up to the first such line F
 * holds none of.  So an inline instance can list the lines of what was
 * inlined in it from above in the file, and lines after a gap in F's code
 * are left out.  By line; the array (malloc'd) in *out.
 */
size_t dwindex_walk_lines(const struct dwindex *ix, const struct dwfunc *f, struct dwline **out);
/* The offset of F's compile unit (0 when unknown), and whether F's code
 * (its address ranges) holds ADDR. */
Dwarf_Off dwindex_cu_offset(const struct dwindex *ix, const struct dwfunc *f);
bool dwindex_holds(const struct dwindex *ix, const struct dwfunc *f, Dwarf_Addr addr);

/* A C label of a function (DW_TAG_label with an address): its name, its
 * line and file (as dwindex_decl_file gives them) and its address. */
struct dwlabel {
	const char *name;
	int line;
	const char *file;
	Dwarf_Addr addr;
};

/* F's labels whose names match the glob PAT, those of its nested blocks
 * included and those of the functions inlined into it left out, by line
 * and then name; returns how many, the array (malloc'd) in *out. */
size_t dwindex_labels(const struct dwindex *ix, const struct dwfunc *f, const char *pat,
		      struct dwlabel **out);

/* Where the kernel registers a probe at ADDR (an address of the DWARF):
 * a symbol whose name is unique, and the offset past it; NULL when no
 * such symbol contains ADDR (then, in the kernel, "_stext" and an offset
 * from it, which is what is returned). */
const char *dwindex_symbol(const struct dwindex *ix, Dwarf_Addr addr, unsigned long *offset);
/* The start of the symbol-table function whose code holds ADDR in
 * *start (unique name or not); false when none holds it. */
bool dwindex_function_start(const struct dwindex *ix, Dwarf_Addr addr, Dwarf_Addr *start);
/* The address of the line-table row that holds ADDR (the start of its
 * statement) in *start; false when no compile unit holds ADDR. */
bool dwindex_row_start(const struct dwindex *ix, Dwarf_Addr addr, Dwarf_Addr *start);
/* Whether ADDR lies in a kernel module's .init.text: code the kernel
 * frees once the module's init function has run. */
bool dwindex_in_init_text(const struct dwindex *ix, Dwarf_Addr addr);
/* The kernel's _stext address (0 elsewhere or without it): SystemTap
 * prints a kernel probe's address from it. */
Dwarf_Addr dwindex_stext(const struct dwindex *ix);
/* Whether NAME is exported (EXPORT_SYMBOL: a __ksymtab_NAME symbol). */
bool dwindex_exported(const struct dwindex *ix, const char *name);
/* The DWARF itself (its variables and types), valid until dwindex_free. */
Dwarf *dwindex_dwarf(const struct dwindex *ix);
/* The path of the file its DWARF was read from (for messages), or NULL. */
const char *dwindex_debug_file(const struct dwindex *ix);
/* How many functions the index holds (for -v and the benchmark). */
size_t dwindex_count(const struct dwindex *ix);

#endif
