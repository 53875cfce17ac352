/*
 * User binaries' symbols and unwind rows, as pass 3 places them in the
 * module (src/translate_usym.c) and the user unwinder reads them
 * (runtime/linux/uunwind.c).  Addresses are link-time addresses less the
 * module's @base (its lowest PT_LOAD address), so 32 bits hold them.
 */
#ifndef TAPC_USYM_H
#define TAPC_USYM_H

/* A function symbol: [addr, addr + size) (size 0: up to the next one). */
struct tap_usym {
	unsigned int addr;
	unsigned int size;
	unsigned int name;		/* offset into tap_umod.strtab */
};

/* The CFA rules of struct tap_ucfi (DWARF register numbers). */
#define TAP_UCFA_RBP	6		/* CFA = rbp + cfa_off */
#define TAP_UCFA_RSP	7		/* CFA = rsp + cfa_off */
#define TAP_UCFA_END	0xfe		/* outermost frame: no caller */
#define TAP_UCFA_NONE	0xff		/* no unwind data here */
/* The caller's rbp */
#define TAP_URBP_SAME	0		/* unchanged */
#define TAP_URBP_SAVED	1		/* at CFA + rbp_off */
#define TAP_URBP_LOST	2		/* unknown */

/* From pc to the next row's pc, this rule holds. */
struct tap_ucfi {
	unsigned int pc;
	int cfa_off;
	short ra_off;			/* return address at CFA + ra_off */
	short rbp_off;
	unsigned char cfa_reg;
	unsigned char rbp_rule;
};

/* A PT_LOAD segment: file offset to link-time address. */
struct tap_uload {
	unsigned long long off, vaddr, filesz;
};

/*
 * A line table row (src/linetab.h): from addr to the next row's addr,
 * the code is of line TAP_ULINE_LINE() of file TAP_ULINE_FILE() (an
 * index into the table's files); line 0: no line there.
 */
struct tap_uline {
	unsigned int addr;
	unsigned int file_line;
};
#define TAP_ULINE_LINE_BITS	18
#define TAP_ULINE_LINE(r)	((r)->file_line & ((1u << TAP_ULINE_LINE_BITS) - 1))
#define TAP_ULINE_FILE(r)	((r)->file_line >> TAP_ULINE_LINE_BITS)

/* A binary's line table: rows sorted by addr, relative to a base. */
struct tap_ulines {
	const struct tap_uline *rows;
	unsigned int nrows;
	const char *const *files;
};

struct tap_umod {
	const char *path;		/* canonical path, as umodname() says */
	const unsigned char *build_id;
	unsigned int build_id_len;
	unsigned long long base;	/* lowest PT_LOAD address */
	const struct tap_uload *loads;
	unsigned int nloads;
	const struct tap_usym *syms;	/* sorted by addr */
	unsigned int nsyms;
	const char *strtab;
	const struct tap_ucfi *cfi;	/* sorted by pc */
	unsigned int ncfi;
	struct tap_ulines lines;	/* addr relative to base, as syms */
};

/* The module's user binaries (-d, --ldd, process("PATH"), -c). */
extern const struct tap_umod tap_umods[];
extern const unsigned int tap_umod_count;

/*
 * The kernel's line rows (symfileline() and print_backtrace_fileline()):
 * those of the vmlinux functions the script probes, when it asks for
 * lines.  Row addresses are link-time addresses less base; the kernel
 * image moved by tap_kernel_reloc(reloc_ref) at run time.
 */
struct tap_klines {
	unsigned long long base;
	unsigned long long reloc_ref;	/* jiffies_64's link-time address */
	struct tap_ulines lines;
};
extern const struct tap_klines tap_klines;

/*
 * A kernel module's line rows: those of its probed functions in the
 * section of the symbol tap_modsyms[modsym], relative to that symbol's
 * address (a module's sections are placed each on its own; the runtime
 * finds the symbol when the script starts and as the module comes).
 */
struct tap_kmod_lines {
	unsigned int modsym;
	struct tap_ulines lines;
};
extern const struct tap_kmod_lines tap_kmod_lines[];
extern const unsigned int tap_kmod_lines_count;

#endif
