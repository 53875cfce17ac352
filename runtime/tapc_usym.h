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
};

/* The module's user binaries (-d, --ldd, process("PATH"), -c). */
extern const struct tap_umod tap_umods[];
extern const unsigned int tap_umod_count;

#endif
