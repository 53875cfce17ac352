/* Target variables as pass 2 hands them to pass 3: access paths.
 *
 * Pass 2 resolves each target expression ($x->a[i]->b, $x$, $$parms,
 * $$name ...) once, over the type interface (tvar_resolve.h), into a
 * struct tvar: where the value starts (its base), the steps that lead
 * from there to it, and what is read at the end (its leaf).  Pass 3
 * (translate_tvar.c) prints that as C with nothing else to look up: no
 * types, no kernel, no errors.
 *
 * A walk holds either a value (the base's raw unsigned long, or a pointer
 * just read) or an address in kernel memory.  Every read of kernel memory
 * in the generated code goes through the fault-safe tap_deref* calls of
 * tapc_tapset.h, which raise SystemTap's "read fault" instead of faulting.
 */
#ifndef TAPC_TVAR_H
#define TAPC_TVAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "ctypes.h"
#include "types.h"

enum tvar_base {
	TVAR_BASE_NONE,		/* no value: TVAR_TEXT and TVAR_FORMAT */
	TVAR_BASE_SLOT,		/* slot N of the event's arguments, each an
				 * unsigned long (a tracepoint's) */
	TVAR_BASE_PARENT,	/* an argument of TVAR_PRETTY: where the
				 * pretty-printed walk stands */
	TVAR_BASE_EXPR,		/* the value of a long expression (@cast's
				 * pointer), evaluated once */
	TVAR_BASE_REG,		/* DWARF register slot (x86-64 numbering) of
				 * the probed point's pt_regs, plus addr */
	TVAR_BASE_STATIC,	/* the kernel's link-time address addr,
				 * moved to where the kernel runs (KASLR);
				 * reloc_ref: jiffies_64's link-time address */
	TVAR_BASE_CONST,	/* the constant addr */
	TVAR_BASE_MODSYM,	/* a loaded module's symbol modsym ("MOD:NAME")
				 * plus addr, as the module's symbol table has
				 * it where it runs (looked up when the script
				 * starts, as module probes are) */
	TVAR_BASE_PIECES,	/* a variable the DWARF puts in pieces
				 * (DW_OP_piece): each copied into a scratch
				 * buffer of the probe's frame, whose address
				 * the walk starts at */
	TVAR_BASE_DWEXPR,	/* a DWARF location computed when the probe
				 * hits (dwops: memory reads, arithmetic on
				 * registers) */
};

/*
 * One operation of a location computed at run time (TVAR_BASE_DWEXPR),
 * as a DWARF expression lowered by pass 2 into single assignments: each
 * defines value number i (its index) from constants and earlier values,
 * and the last one is the location.  Values are 64-bit, as DWARF's
 * generic type.
 */
enum tvar_dwop_kind {
	TVAR_DW_REG,		/* register reg's value plus val */
	TVAR_DW_CONST,		/* val */
	TVAR_DW_STATIC,		/* link-time address val, moved as
				 * TVAR_BASE_STATIC's (the tvar's reloc_ref) */
	TVAR_DW_DEREF,		/* size bytes of memory at value a, zero-extended;
				 * with guard, 0 without a read when value
				 * guard - 1 is 0 */
	TVAR_DW_BINARY,		/* value a op value b */
	TVAR_DW_UNARY,		/* op value a */
	TVAR_DW_CONVERT,	/* value a cut to size bytes, sign-extended if
				 * is_signed (DWARF's typed stack) */
	TVAR_DW_ENTRY,		/* register reg's value when the current task
				 * last entered the function whose kprobe
				 * symbol is sym (plus val bytes): saved by a
				 * companion kprobe there (DW_OP_entry_value
				 * away from the entry); user: sym is a user
				 * binary's path and val the entry's offset
				 * in it, saved by a companion uprobe; with
				 * expr, not a register but the value of
				 * expr[nexpr - 1] computed there (entry_expr) */
	TVAR_DW_MODSYM,		/* module symbol sym ("MOD:NAME") where it is
				 * loaded, plus val (a module's static) */
	TVAR_DW_TLS,		/* value a, an offset in the executable's
				 * thread-local block, as an address in the
				 * current thread: its thread pointer less
				 * val, where x86-64 puts that block
				 * (DW_OP_form_tls_address; of a shared
				 * library in the static TLS, value a is
				 * its GOT slot's offset from the thread
				 * pointer plus the variable's, and val the
				 * slot's own block offset) */
	TVAR_DW_DTV,		/* the current thread's thread-local block of
				 * the module whose id is value a (the
				 * dynamic linker's, from the DTV) plus
				 * value b: a shared library's variable */
	TVAR_DW_CALLSITE,	/* value a when value b (whether the return
				 * address is one of the call sites the
				 * DWARF knows) is not 0, else the error
				 * "unknown callsite" (DW_OP_GNU_parameter_ref) */
};

/* DWARF's arithmetic: division, modulo, the arithmetic right shift and
 * comparisons are signed, a shift by 64 or more gives 0 (or the sign). */
enum tvar_dwarith {
	TVAR_OP_ADD, TVAR_OP_SUB, TVAR_OP_MUL, TVAR_OP_DIV, TVAR_OP_MOD,
	TVAR_OP_AND, TVAR_OP_OR, TVAR_OP_XOR, TVAR_OP_SHL, TVAR_OP_SHR, TVAR_OP_SHRA,
	TVAR_OP_EQ, TVAR_OP_NE, TVAR_OP_LT, TVAR_OP_GT, TVAR_OP_LE, TVAR_OP_GE,
	TVAR_OP_NEG, TVAR_OP_NOT, TVAR_OP_ABS,
};

struct tvar_dwop {
	enum tvar_dwop_kind kind;
	enum tvar_dwarith op;	/* TVAR_DW_BINARY, TVAR_DW_UNARY */
	unsigned reg;		/* TVAR_DW_REG */
	unsigned a, b;		/* operands: value numbers */
	uint64_t val;		/* TVAR_DW_REG, _CONST, _STATIC, _ENTRY, _MODSYM */
	const char *sym;	/* TVAR_DW_ENTRY, _MODSYM: interned for the
				 * session (dwloc_intern), never freed */
	unsigned size;		/* TVAR_DW_DEREF, TVAR_DW_CONVERT: bytes */
	bool is_signed;		/* TVAR_DW_CONVERT */
	bool user;		/* TVAR_DW_ENTRY: in a user binary */
	unsigned guard;		/* TVAR_DW_DEREF: 0, or a value number + 1 */
	/* TVAR_DW_ENTRY: NULL (register reg), or values computed at the
	 * function's entry by the companion probe (numbered among
	 * themselves), where register 16 is the entry's own address; the
	 * session's (dwloc_intern_ops), never freed, equal ones shared */
	const struct tvar_dwop *expr;
	unsigned nexpr;
};

/* One DW_OP_piece of a variable: size bytes from a register's value, a
 * constant, a value computed at run time, or memory (at a register plus
 * addr, a kernel static, or an address computed at run time). */
struct tvar_piece {
	enum tvar_base base;		/* TVAR_BASE_REG, _STATIC, _CONST or _DWEXPR */
	unsigned slot;			/* TVAR_BASE_REG */
	uint64_t addr, reloc_ref;	/* as in struct tvar */
	/* TVAR_BASE_DWEXPR: the values of the tvar's dwops[dwop_first ..
	 * + ndwops) (operands numbered from dwop_first), the last one the
	 * piece's value or address */
	size_t dwop_first, ndwops;
	bool in_mem;			/* the bytes at the address */
	unsigned size;			/* bytes */
};

enum tvar_step_kind {
	TVAR_LOAD,		/* read the pointer at the address: it becomes the value */
	TVAR_ADD,		/* the address (or pointer value) plus bytes */
	TVAR_INDEX,		/* plus index * bytes; load first: the index is
				 * evaluated, then the pointer at the address is
				 * read (TVAR_LOAD's), then added to */
	TVAR_ADD_REG,		/* plus DWARF register reg of the probed
				 * point's pt_regs times bytes (an SDT
				 * argument's index register) */
};

struct tvar_step {
	enum tvar_step_kind kind;
	uint64_t bytes;			/* TVAR_ADD: offset; TVAR_INDEX: element size */
	const struct expr *index;	/* TVAR_INDEX: a long expression */
	bool load_first;		/* TVAR_INDEX */
	unsigned reg;			/* TVAR_ADD_REG */
};

enum tvar_leaf {
	TVAR_VALUE,	/* the value, cast to size bytes of sign (size 0: as is) */
	TVAR_READ,	/* size bytes (bits of a bit field at bitpos) at the address */
	TVAR_ADDRESS,	/* the address, as a long */
	TVAR_RAW,	/* the address as the walk holds it (an unsigned long);
			 * only as a TVAR_PRETTY string argument */
	TVAR_TEXT,	/* the string text */
	TVAR_FORMAT,	/* sprintf(text, args...): $$parms */
	TVAR_PRETTY,	/* as TVAR_FORMAT, after the steps in pretty_steps, with
			 * "ERROR" for the whole string on any fault: $x$ */
};

/* The C type of the value a walk ends at, kept for SystemTap's autocast
 * (sem_autocast.h): a local, global or function return assigned the value
 * carries the type, and "->member" on it walks on from there as @cast
 * would.  ct.ops is NULL when the value has none (a pretty-printed
 * string, $$parms, a constant). */
struct tvar_ctype {
	struct ctypes ct;		/* the types' backend (pass 2 only) */
	ctype_id type;			/* typedefs kept */
	/* The value is the address of an object of the type (an array,
	 * &$p->member, &@cast(p, "type")); else it is a value of the type
	 * (a pointer, an integer). */
	bool object;
};

struct tvar {
	enum tvar_base base;
	const struct expr *base_expr;	/* TVAR_BASE_EXPR */
	unsigned slot;			/* TVAR_BASE_SLOT, TVAR_BASE_REG */
	uint64_t addr;			/* TVAR_BASE_REG, _STATIC, _CONST */
	uint64_t reloc_ref;		/* TVAR_BASE_STATIC */
	char *modsym;			/* TVAR_BASE_MODSYM */
	struct tvar_piece *pieces;	/* TVAR_BASE_PIECES, in byte order */
	size_t npieces;
	struct tvar_dwop *dwops;	/* TVAR_BASE_DWEXPR */
	size_t ndwops;
	struct tvar_step *steps;
	size_t nsteps;
	enum tvar_leaf leaf;
	enum sem_type type;		/* SEM_LONG or SEM_STRING */
	/* TVAR_VALUE, TVAR_READ */
	int size;
	bool is_signed;
	uint32_t bitpos, bits;		/* bits > 0: a bit field */
	/* A C float (4 bytes): the value is its binary32 widened to the
	 * binary64 that a double's value is, as SystemTap 4.5 and later
	 * give floating-point variables (the floatingpoint tapset's
	 * fp_to_string() ... take them). */
	bool fp32;
	/* A string argument of TVAR_PRETTY: the value (a pointer) or the
	 * address names a NUL-terminated kernel string. */
	bool cstring;
	char *text;			/* TVAR_TEXT, TVAR_FORMAT, TVAR_PRETTY */
	struct tvar **args;		/* TVAR_FORMAT, TVAR_PRETTY */
	size_t nargs;
	struct tvar_step *pretty_steps;	/* TVAR_PRETTY */
	size_t pretty_nsteps;
	/* Read when the function is entered, by a .return probe's entry
	 * half (SystemTap reads a return probe's parameters so): pass 2
	 * lists the expression with the probe's @entry operands. */
	bool at_entry;
	/* A user-space probe's: memory is the current task's (the
	 * tap_uderef* readers) and a static's address is moved by the
	 * binary's load bias in it (tvar_set_user). */
	bool user;
	/* What a read fault is reported near: "identifier 'NAME' at POS". */
	char *name;
	struct srcpos pos;
	struct tvar_ctype ctype;	/* the value's C type (pass 2 only) */
};

/* A path from base (slot) with no steps yet; name and pos as above. */
struct tvar *tvar_new(enum tvar_base base, unsigned slot, const char *name,
		      const struct srcpos *pos);
/* $$vars, $$parms, $$locals or $$return (with "$" after it or not) read
 * in a probe without DWARF: SystemTap's empty string, as no variable is
 * known; NULL for anything else. */
struct tvar *tvar_empty_context(const struct expr *e, bool write);
void tvar_push_step(struct tvar_step **steps, size_t *n, struct tvar_step step);
void tvar_add_arg(struct tvar *tv, struct tvar *arg);
void tvar_free(struct tvar *tv);
/* Mark tv and its arguments as a user-space probe's (see user). */
void tvar_set_user(struct tvar *tv);

/* tv as one line of stable text, for tests and debugging:
 * "base=reg:5+16 steps=[load,+8] leaf=read size=4 signed type=long"
 * (a static base: "static:ADDR@RELOC_REF"; a module's:
 * "modsym:MOD:NAME+OFFSET"). */
char *tvar_describe(const struct tvar *tv);

struct tr;

/* Pass 3 (translate_tvar.c): the C of tv, a long long expression or a
 * const char * for a string, with the statements it needs emitted
 * through T (see translate_int.h).  Cannot fail. */
char *tvar_c(struct tr *T, const struct tvar *tv);

/* Whether a guru-mode assignment can store into tv: an integer, bit
 * field or pointer in memory, or a register's value, not one read at
 * entry. */
bool tvar_writable(const struct tvar *tv);
/* Pass 3: store val (a long expression, evaluated once) where tv reads
 * from (tvar_writable): fault-safe in memory, or into the probed point's
 * pt_regs; the C of the value stored. */
char *tvar_store_c(struct tr *T, const struct tvar *tv, const char *val);

#endif
