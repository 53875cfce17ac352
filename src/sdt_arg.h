/* The argument descriptors of an SDT marker (x86-64), as <sys/sdt.h>
 * writes them with the assembler's operand syntax behind a size and
 * sign prefix ("-4@" a signed int, "8@" an unsigned 64-bit value):
 *
 *   -4@%edi            a register (any width: %rax %eax %ax %al %r8d ...)
 *   -4@$5              a constant
 *   8@-16(%rbp)        memory at a register plus a displacement
 *   8@8(%rax,%rdx,8)   memory at base + index * scale + displacement
 *   4@counter(%rip)    a global (with an optional +N): its address is
 *   4@counter+8(%rip)  the symbol's, found in the file's symbol table
 *
 * Without a prefix (markers written in assembly) the value is 8 bytes,
 * unsigned, as SystemTap reads such operands.  Parsed into struct
 * sdt_arg, which the .mark family turns into an access path (tvar.h)
 * that pass 3 prints with user-memory reads.
 */
#ifndef TAPC_SDT_ARG_H
#define TAPC_SDT_ARG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sdt_arg_kind {
	SDT_ARG_CONST,		/* value */
	SDT_ARG_REG,		/* register reg, reg_size bytes of it */
	SDT_ARG_MEM,		/* size bytes at reg + index * scale + value */
	SDT_ARG_SYMBOL,		/* size bytes at symbol + value */
};

/* x86-64 DWARF register numbers. */
#define SDT_REG_RIP 16

struct sdt_arg {
	enum sdt_arg_kind kind;
	int size;		/* 1, 2, 4 or 8 */
	bool is_signed;
	bool is_float;		/* "Nf@": the value's bits, unsigned */
	unsigned reg;		/* REG; MEM's base */
	int reg_size;		/* REG: 1, 2, 4 or 8 (%al, %ax, %eax, %rax) */
	bool has_index;		/* MEM */
	unsigned index_reg;
	unsigned scale;
	int64_t value;		/* CONST: the constant; MEM, SYMBOL: displacement */
	char *symbol;		/* SYMBOL (malloc'd) */
};

/* Parse the whitespace-separated descriptors of text into *out (a
 * malloc'd array of *n).  Returns 0, or -1 with *err (malloc'd) naming
 * the descriptor and what is wrong with it. */
int sdt_args_parse(const char *text, struct sdt_arg **out, size_t *n, char **err);
/* One descriptor (len bytes at text). */
int sdt_arg_parse(const char *text, size_t len, struct sdt_arg *out, char **err);
void sdt_args_free(struct sdt_arg *args, size_t n);

/* The DWARF number and width of an x86-64 register name without its '%'
 * ("eax": 0, 4); false if it is none of the general registers. */
bool sdt_register(const char *name, size_t len, unsigned *regno, int *bytes);

#endif
