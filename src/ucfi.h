/* Call frame information of a user binary (.eh_frame, .debug_frame),
 * interpreted at translation time into the rows the runtime's user
 * unwinder (runtime/linux/uunwind.c) needs on x86-64: where the CFA is,
 * where the return address and the caller's rbp are saved.
 *
 * Interpreting here rather than in the kernel keeps the runtime's part a
 * binary search and three fault-safe reads per frame, and lets the unit
 * tests compare every row with `readelf --debug-dump=frames-interp`.
 */
#ifndef TAPC_UCFI_H
#define TAPC_UCFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CFA rule of a row (DWARF register numbers of x86-64). */
enum ucfi_cfa {
	UCFI_CFA_RBP = 6,	/* rbp + cfa_off */
	UCFI_CFA_RSP = 7,	/* rsp + cfa_off */
	UCFI_CFA_END = 0xfe,	/* the return address is undefined: outermost frame */
	UCFI_CFA_NONE = 0xff,	/* no rule we follow (expression, other register, no FDE) */
};

/* The rule of the caller's rbp. */
enum ucfi_rbp {
	UCFI_RBP_SAME = 0,	/* unchanged (or undefined) */
	UCFI_RBP_SAVED = 1,	/* saved at CFA + rbp_off */
	UCFI_RBP_LOST = 2,	/* in a register or an expression: unknown */
};

/* From pc on (up to the next row), this rule holds. */
struct ucfi_row {
	uint64_t pc;		/* link-time address */
	int32_t cfa_off;
	int16_t ra_off;		/* return address at CFA + ra_off */
	int16_t rbp_off;
	uint8_t cfa_reg;	/* enum ucfi_cfa */
	uint8_t rbp_rule;	/* enum ucfi_rbp */
};

struct ucfi_table {
	struct ucfi_row *rows;
	size_t count, cap;
	size_t fdes;		/* FDEs read */
};

/*
 * Add the rows of one frame section: @data (@len bytes) loaded at
 * link-time address @addr; @is_eh for .eh_frame (CIE pointers relative,
 * pointer encodings), else .debug_frame.  False with @err on a malformed
 * section (what was read before stays).
 */
bool ucfi_add_section(struct ucfi_table *t, const uint8_t *data, size_t len,
		      uint64_t addr, bool is_eh, char *err, size_t errlen);

/* Sort by pc, keep the first of the sections' rows for a pc, merge equal
 * neighbours, keep an FDE's end only where no other FDE starts. */
void ucfi_finish(struct ucfi_table *t);

/* The row that holds at @pc, or NULL. */
const struct ucfi_row *ucfi_lookup(const struct ucfi_table *t, uint64_t pc);

void ucfi_free(struct ucfi_table *t);

#endif
