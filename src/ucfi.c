/* Call frame information into unwind rows (ucfi.h).  The DWARF CFI
 * format (DWARF 4 section 6.4, and the LSB's .eh_frame) read without
 * libdw: we need every row of every FDE, in one pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucfi.h"
#include "util.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16
#define STATE_STACK 16		/* remember_state depth we follow */

/* A byte cursor over a section with its link-time address. */
struct cur {
	const uint8_t *base, *p, *end;
	uint64_t addr;		/* link-time address of base */
	bool bad;
};

static uint64_t rd_u(struct cur *c, int n)
{
	uint64_t v = 0;

	if (c->bad || c->end - c->p < n) {
		c->bad = true;
		return 0;
	}
	for (int i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t rd_uleb(struct cur *c)
{
	uint64_t v = 0;
	int shift = 0;

	while (!c->bad) {
		if (c->p >= c->end) {
			c->bad = true;
			break;
		}
		uint8_t b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static int64_t rd_sleb(struct cur *c)
{
	uint64_t v = 0;
	int shift = 0;
	uint8_t b = 0;

	while (!c->bad) {
		if (c->p >= c->end) {
			c->bad = true;
			return 0;
		}
		b = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* A pointer in DW_EH_PE encoding @enc (pcrel relative to where it is). */
static uint64_t rd_encoded(struct cur *c, uint8_t enc)
{
	uint64_t at = c->addr + (uint64_t)(c->p - c->base), v;

	if (enc == 0xff)
		return 0;
	switch (enc & 0x0f) {
	case 0x00: v = rd_u(c, 8); break;
	case 0x01: v = rd_uleb(c); break;
	case 0x02: v = rd_u(c, 2); break;
	case 0x03: v = rd_u(c, 4); break;
	case 0x04: v = rd_u(c, 8); break;
	case 0x09: v = (uint64_t)rd_sleb(c); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd_u(c, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd_u(c, 4); break;
	case 0x0c: v = rd_u(c, 8); break;
	default: c->bad = true; return 0;
	}
	if ((enc & 0x70) == 0x10)
		v += at;
	return v;
}

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_reg;
	uint8_t fde_enc;
	bool has_aug_data;
	const uint8_t *insns, *insns_end;
};

/* The rules we track: the CFA's, rbp's and the return address's. */
enum rule { R_SAME, R_UNDEF, R_OFFSET, R_OTHER };

struct state {
	uint64_t cfa_reg;
	int64_t cfa_off;
	bool cfa_expr;
	enum rule rbp, ra;
	int64_t rbp_off, ra_off;
};

static void push_row(struct ucfi_table *t, uint64_t pc, const struct state *s,
		     bool none)
{
	struct ucfi_row r = { .pc = pc, .cfa_reg = UCFI_CFA_NONE };

	if (t->count == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->rows = xrealloc(t->rows, t->cap * sizeof(*t->rows));
	}
	if (!none && s->ra == R_UNDEF) {
		r.cfa_reg = UCFI_CFA_END;
	} else if (!none && !s->cfa_expr && s->ra == R_OFFSET &&
		   (s->cfa_reg == REG_RSP || s->cfa_reg == REG_RBP) &&
		   s->cfa_off == (int32_t)s->cfa_off &&
		   s->ra_off == (int16_t)s->ra_off) {
		r.cfa_reg = (uint8_t)s->cfa_reg;
		r.cfa_off = (int32_t)s->cfa_off;
		r.ra_off = (int16_t)s->ra_off;
		if (s->rbp == R_OFFSET && s->rbp_off == (int16_t)s->rbp_off) {
			r.rbp_rule = UCFI_RBP_SAVED;
			r.rbp_off = (int16_t)s->rbp_off;
		} else if (s->rbp == R_OFFSET || s->rbp == R_OTHER) {
			r.rbp_rule = UCFI_RBP_LOST;
		}
	}
	t->rows[t->count++] = r;
}

static void set_rule(struct state *s, uint64_t reg, enum rule rule, int64_t off)
{
	if (reg == REG_RBP) {
		s->rbp = rule;
		s->rbp_off = off;
	} else if (reg == REG_RA) {
		s->ra = rule;
		s->ra_off = off;
	}
}

/* Restore register @reg to its rule in the CIE's initial state @init. */
static void restore_rule(struct state *s, const struct state *init, uint64_t reg)
{
	if (reg == REG_RBP)
		set_rule(s, reg, init->rbp, init->rbp_off);
	else if (reg == REG_RA)
		set_rule(s, reg, init->ra, init->ra_off);
}

struct interp {
	struct ucfi_table *t;	/* NULL: the CIE's initial instructions */
	const struct cie *cie;
	const struct state *init;
	uint64_t loc, end;
	struct state stack[STATE_STACK];
	int depth, lost;	/* lost: remember_state past our stack */
};

/* Move to @to, giving the state so far its row. */
static void advance(struct interp *in, struct state *s, uint64_t to)
{
	if (in->t && to > in->loc && in->loc < in->end)
		push_row(in->t, in->loc, s, false);
	in->loc = to;
}

/* Run the instructions of @c on @s; false on an unknown opcode. */
static bool run_insns(struct interp *in, struct cur *c, struct state *s)
{
	const struct cie *cie = in->cie;

	while (c->p < c->end && !c->bad) {
		uint8_t op = *c->p++;
		uint64_t reg, off;

		switch (op & 0xc0) {
		case 0x40:
			advance(in, s, in->loc + (op & 0x3f) * cie->code_align);
			continue;
		case 0x80:
			off = rd_uleb(c);
			set_rule(s, op & 0x3f, R_OFFSET, (int64_t)off * cie->data_align);
			continue;
		case 0xc0:
			restore_rule(s, in->init, op & 0x3f);
			continue;
		}
		switch (op) {
		case 0x00: break;	/* nop */
		case 0x01: advance(in, s, rd_encoded(c, cie->fde_enc)); break;
		case 0x02: advance(in, s, in->loc + rd_u(c, 1) * cie->code_align); break;
		case 0x03: advance(in, s, in->loc + rd_u(c, 2) * cie->code_align); break;
		case 0x04: advance(in, s, in->loc + rd_u(c, 4) * cie->code_align); break;
		case 0x05:
			reg = rd_uleb(c);
			off = rd_uleb(c);
			set_rule(s, reg, R_OFFSET, (int64_t)off * cie->data_align);
			break;
		case 0x06: restore_rule(s, in->init, rd_uleb(c)); break;
		case 0x07: set_rule(s, rd_uleb(c), R_UNDEF, 0); break;
		case 0x08: set_rule(s, rd_uleb(c), R_SAME, 0); break;
		case 0x09:
			reg = rd_uleb(c);
			rd_uleb(c);
			set_rule(s, reg, R_OTHER, 0);
			break;
		case 0x0a:
			if (in->depth < STATE_STACK)
				in->stack[in->depth++] = *s;
			else
				in->lost++;
			break;
		case 0x0b:
			if (in->lost) {
				in->lost--;
			} else if (in->depth) {
				/* the CFA is not part of the remembered state
				 * in DWARF, but GCC and readelf restore it */
				*s = in->stack[--in->depth];
			}
			break;
		case 0x0c:
			s->cfa_reg = rd_uleb(c);
			s->cfa_off = (int64_t)rd_uleb(c);
			s->cfa_expr = false;
			break;
		case 0x0d: s->cfa_reg = rd_uleb(c); s->cfa_expr = false; break;
		case 0x0e: s->cfa_off = (int64_t)rd_uleb(c); break;
		case 0x0f:
			off = rd_uleb(c);
			c->p += off <= (uint64_t)(c->end - c->p) ? off : 0;
			s->cfa_expr = true;
			break;
		case 0x10: case 0x16:
			reg = rd_uleb(c);
			off = rd_uleb(c);
			if (off > (uint64_t)(c->end - c->p))
				return false;
			c->p += off;
			set_rule(s, reg, R_OTHER, 0);
			break;
		case 0x11:
			reg = rd_uleb(c);
			set_rule(s, reg, R_OFFSET, rd_sleb(c) * cie->data_align);
			break;
		case 0x12:
			s->cfa_reg = rd_uleb(c);
			s->cfa_off = rd_sleb(c) * cie->data_align;
			s->cfa_expr = false;
			break;
		case 0x13: s->cfa_off = rd_sleb(c) * cie->data_align; break;
		case 0x14:
			reg = rd_uleb(c);
			rd_uleb(c);
			set_rule(s, reg, R_OTHER, 0);
			break;
		case 0x15:
			reg = rd_uleb(c);
			rd_sleb(c);
			set_rule(s, reg, R_OTHER, 0);
			break;
		case 0x2e: rd_uleb(c); break;	/* GNU_args_size */
		case 0x2f:
			reg = rd_uleb(c);
			off = rd_uleb(c);
			set_rule(s, reg, R_OFFSET, -(int64_t)off * cie->data_align);
			break;
		default:
			return false;
		}
	}
	return !c->bad;
}

/* Parse the CIE at @p; false when malformed or of an unknown kind. */
static bool read_cie(struct cur *sec, const uint8_t *p, const uint8_t *end,
		     struct cie *cie)
{
	struct cur c = { .base = sec->base, .p = p, .end = end, .addr = sec->addr };
	uint8_t version = (uint8_t)rd_u(&c, 1);
	const char *aug = (const char *)c.p;
	size_t auglen = strnlen(aug, (size_t)(c.end - c.p));

	memset(cie, 0, sizeof(*cie));
	if (c.bad || auglen == (size_t)(c.end - c.p))
		return false;
	c.p += auglen + 1;
	if (strstr(aug, "eh"))
		rd_u(&c, 8);
	if (version >= 4) {
		if (rd_u(&c, 1) != 8)	/* address size */
			return false;
		rd_u(&c, 1);		/* segment selector size */
	}
	cie->code_align = rd_uleb(&c);
	cie->data_align = rd_sleb(&c);
	cie->ra_reg = version == 1 ? rd_u(&c, 1) : rd_uleb(&c);
	cie->fde_enc = 0x00;	/* absolute, unless 'R' says otherwise */
	if (aug[0] == 'z') {
		uint64_t alen = rd_uleb(&c);
		const uint8_t *aend = c.p + alen;

		if (alen > (uint64_t)(c.end - c.p))
			return false;
		cie->has_aug_data = true;
		for (const char *a = aug + 1; *a && !c.bad; a++) {
			if (*a == 'L') {
				rd_u(&c, 1);
			} else if (*a == 'R') {
				cie->fde_enc = (uint8_t)rd_u(&c, 1);
			} else if (*a == 'P') {
				uint8_t enc = (uint8_t)rd_u(&c, 1);

				rd_encoded(&c, enc & 0x7f);
			} else if (*a != 'S' && *a != 'B') {
				break;	/* the rest is skipped by its length */
			}
		}
		c.p = aend;
	} else if (aug[0]) {
		return false;	/* an augmentation we cannot skip */
	}
	if (c.bad || cie->ra_reg != REG_RA)
		return false;
	cie->insns = c.p;
	cie->insns_end = end;
	return true;
}

/* The FDE at @p (after its CIE pointer) with @cie: its rows. */
static bool read_fde(struct ucfi_table *t, struct cur *sec, const uint8_t *p,
		     const uint8_t *end, const struct cie *cie, bool is_eh)
{
	struct cur c = { .base = sec->base, .p = p, .end = end, .addr = sec->addr };
	struct cur ci = { .base = sec->base, .p = cie->insns, .end = cie->insns_end,
			  .addr = sec->addr };
	struct state init = { .cfa_reg = REG_RSP, .rbp = R_SAME, .ra = R_SAME };
	struct state s;
	struct interp in = { .t = NULL, .cie = cie, .init = &init };
	uint64_t start = is_eh ? rd_encoded(&c, cie->fde_enc) : rd_u(&c, 8);
	uint64_t range = is_eh ? rd_encoded(&c, cie->fde_enc & 0x0f) : rd_u(&c, 8);

	if (cie->has_aug_data) {
		uint64_t alen = rd_uleb(&c);

		if (alen > (uint64_t)(c.end - c.p))
			return false;
		c.p += alen;
	}
	if (c.bad)
		return false;
	if (!start || !range)
		return true;	/* a discarded function's FDE */
	in.loc = start;
	in.end = start + range;
	if (!run_insns(&in, &ci, &init))
		return false;
	s = init;
	in.t = t;
	in.loc = start;
	in.depth = in.lost = 0;
	if (!run_insns(&in, &c, &s))
		return false;
	if (in.loc < in.end)
		push_row(t, in.loc, &s, false);
	push_row(t, in.end, &s, true);
	t->fdes++;
	return true;
}

bool ucfi_add_section(struct ucfi_table *t, const uint8_t *data, size_t len,
		      uint64_t addr, bool is_eh, char *err, size_t errlen)
{
	struct cur sec = { .base = data, .p = data, .end = data + len, .addr = addr };

	while (sec.p < sec.end) {
		const uint8_t *entry = sec.p;
		uint64_t length = rd_u(&sec, 4);
		bool is64 = length == 0xffffffffu;
		const uint8_t *body, *end;
		uint64_t id;
		struct cie cie;

		if (is64)
			length = rd_u(&sec, 8);
		if (sec.bad)
			break;
		if (length == 0) {
			if (is_eh)
				return true;	/* the terminator */
			continue;
		}
		if (length > (uint64_t)(sec.end - sec.p)) {
			snprintf(err, errlen, "entry at 0x%zx runs past the section",
				 (size_t)(entry - data));
			return false;
		}
		body = sec.p;
		end = body + length;
		id = rd_u(&sec, is64 ? 8 : 4);
		if ((is_eh && id == 0) ||
		    (!is_eh && id == (is64 ? ~(uint64_t)0 : 0xffffffffu))) {
			sec.p = end;	/* a CIE: read with its FDEs */
			continue;
		}
		{
			const uint8_t *cie_at = is_eh ? body - id : data + id;
			struct cur cc = { .base = data, .p = cie_at, .end = sec.end,
					  .addr = addr };
			uint64_t clen;
			bool c64;

			if (cie_at < data || cie_at >= sec.end) {
				snprintf(err, errlen, "FDE at 0x%zx names no CIE",
					 (size_t)(entry - data));
				return false;
			}
			clen = rd_u(&cc, 4);
			c64 = clen == 0xffffffffu;
			if (c64)
				clen = rd_u(&cc, 8);
			if (cc.bad || clen > (uint64_t)(cc.end - cc.p) ||
			    clen < (c64 ? 8u : 4u)) {
				snprintf(err, errlen, "bad CIE at 0x%zx",
					 (size_t)(cie_at - data));
				return false;
			}
			if (read_cie(&sec, cc.p + (c64 ? 8 : 4), cc.p + clen, &cie))
				read_fde(t, &sec, sec.p, end, &cie, is_eh);
		}
		sec.p = end;
	}
	return true;
}

static int row_cmp(const void *a, const void *b)
{
	const struct ucfi_row *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	/* an FDE's end before a row that starts there */
	if ((x->cfa_reg == UCFI_CFA_NONE) != (y->cfa_reg == UCFI_CFA_NONE))
		return x->cfa_reg == UCFI_CFA_NONE ? -1 : 1;
	return 0;
}

static bool same_rule(const struct ucfi_row *a, const struct ucfi_row *b)
{
	return a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->ra_off == b->ra_off && a->rbp_rule == b->rbp_rule &&
	       a->rbp_off == b->rbp_off;
}

void ucfi_finish(struct ucfi_table *t)
{
	size_t out = 0;

	if (t->count == 0)	/* no rows (and maybe no array): nothing to sort */
		return;
	qsort(t->rows, t->count, sizeof(*t->rows), row_cmp);
	for (size_t i = 0; i < t->count; i++) {
		struct ucfi_row *r = &t->rows[i];

		if (i + 1 < t->count && t->rows[i + 1].pc == r->pc)
			continue;	/* the later (real) row at this pc wins */
		if (out && same_rule(&t->rows[out - 1], r))
			continue;
		t->rows[out++] = *r;
	}
	t->count = out;
}

const struct ucfi_row *ucfi_lookup(const struct ucfi_table *t, uint64_t pc)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->rows[lo - 1] : NULL;
}

void ucfi_free(struct ucfi_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
