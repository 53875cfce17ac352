// SPDX-License-Identifier: GPL-2.0
/*
 * Values an entry probe computes (runtime/linux/entryval.c): a parameter
 * a compiler clone no longer receives (DW_OP_GNU_parameter_ref), read
 * away from the function's entry, is what its call site passed.  At the
 * entry the return address on the stack names the call site and the
 * caller's frame is whole, so the companion probe there computes the
 * value, as pass 2 lowered it (struct tap_ev_op), and saves it for the
 * task.  The probed point cannot: by then the registers and the stack
 * slot of the return address may hold other things.
 *
 * Memory is read without faulting (the kernel's, or in a uprobe the
 * task's own); what goes wrong is kept as a status the later read turns
 * into the error, never as a value.
 */
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include "tap_internal.h"

static long tap_ev_read(bool user, void *dst, unsigned long addr, size_t len)
{
	if (user)
		return copy_from_user_nofault(dst, (const void __user *)addr, len) ? -EFAULT : 0;
	return tap_read_kernel(dst, addr, len);
}

/* @size bytes at @addr, zero-extended, into *@out; false on a fault. */
static bool tap_ev_deref(bool user, unsigned long addr, unsigned int size, u64 *out)
{
	union {
		u8 b;
		u16 h;
		u32 w;
		u64 q;
	} v;

	if ((size != 1 && size != 2 && size != 4 && size != 8) || tap_ev_read(user, &v, addr, size))
		return false;
	*out = size == 1 ? v.b : size == 2 ? v.h : size == 4 ? v.w : v.q;
	return true;
}

/* DWARF's arithmetic on its generic type; false for a division by 0. */
static bool tap_ev_arith(unsigned int op, u64 a, u64 b, u64 *r)
{
	s64 sa = (s64)a, sb = (s64)b;

	switch (op) {
	case TAP_EVA_ADD: *r = a + b; break;
	case TAP_EVA_SUB: *r = a - b; break;
	case TAP_EVA_MUL: *r = a * b; break;
	case TAP_EVA_AND: *r = a & b; break;
	case TAP_EVA_OR: *r = a | b; break;
	case TAP_EVA_XOR: *r = a ^ b; break;
	case TAP_EVA_SHL: *r = b >= 64 ? 0 : a << b; break;
	case TAP_EVA_SHR: *r = b >= 64 ? 0 : a >> b; break;
	case TAP_EVA_SHRA: *r = (u64)(sa >> (b >= 63 ? 63 : b)); break;
	case TAP_EVA_EQ: *r = a == b; break;
	case TAP_EVA_NE: *r = a != b; break;
	case TAP_EVA_LT: *r = sa < sb; break;
	case TAP_EVA_GT: *r = sa > sb; break;
	case TAP_EVA_LE: *r = sa <= sb; break;
	case TAP_EVA_GE: *r = sa >= sb; break;
	case TAP_EVA_NEG: *r = -a; break;
	case TAP_EVA_NOT: *r = ~a; break;
	case TAP_EVA_ABS: *r = sa < 0 ? -a : a; break;
	case TAP_EVA_DIV:
		if (!b)
			return false;
		*r = sb == -1 ? -a : (u64)div64_s64(sa, sb);
		break;
	case TAP_EVA_MOD:
		if (!b)
			return false;
		*r = sb == -1 ? 0 : (u64)(sa - div64_s64(sa, sb) * sb);
		break;
	default:
		return false;
	}
	return true;
}

static u64 tap_ev_convert(u64 v, unsigned int size, bool is_signed)
{
	unsigned int sh = 64 - 8 * size;

	if (size >= 8)
		return v;
	return is_signed ? (u64)((s64)(v << sh) >> sh) : v & ((1ULL << (8 * size)) - 1);
}

/* Register @reg at the entry whose own address is @entry. */
static u64 tap_ev_reg(const struct pt_regs *regs, unsigned int reg, unsigned long entry)
{
	/* a kprobe's ip is past its breakpoint: the entry is the probe's */
	return reg == 16 ? entry : tap_regs_dwarf(regs, reg);
}

enum tap_ev_status tap_ev_compute(const struct tap_entryval *ev, const struct pt_regs *regs,
				  unsigned long entry, unsigned long *val)
{
	u64 v[TAP_EV_MAX_OPS];
	unsigned int i;

	if (!ev->nops || ev->nops > TAP_EV_MAX_OPS)
		return TAP_EVS_BAD;
	for (i = 0; i < ev->nops; i++) {
		const struct tap_ev_op *o = &ev->ops[i];

		if (o->a >= i && o->kind != TAP_EVOP_REG && o->kind != TAP_EVOP_CONST &&
		    o->kind != TAP_EVOP_MODSYM)
			return TAP_EVS_BAD;
		if ((o->kind == TAP_EVOP_BINARY || o->kind == TAP_EVOP_CALLSITE) && o->b >= i)
			return TAP_EVS_BAD;
		switch (o->kind) {
		case TAP_EVOP_REG:
			v[i] = tap_ev_reg(regs, o->a, entry) + o->val;
			break;
		case TAP_EVOP_CONST:
			v[i] = o->val;
			break;
		case TAP_EVOP_MODSYM:
			v[i] = o->a < tap_nmodsyms ? tap_modsym_addr(o->a) : 0;
			if (!v[i])
				return TAP_EVS_NOMOD;
			v[i] += o->val;
			break;
		case TAP_EVOP_DEREF:
			if (o->guard && (o->guard > i || !v[o->guard - 1])) {
				if (o->guard > i)
					return TAP_EVS_BAD;
				v[i] = 0;
				break;
			}
			if (!tap_ev_deref(ev->user, v[o->a], o->size, &v[i])) {
				*val = v[o->a];
				return TAP_EVS_FAULT;
			}
			break;
		case TAP_EVOP_BINARY:
			if (!tap_ev_arith(o->op, v[o->a], v[o->b], &v[i]))
				return TAP_EVS_DIV0;
			break;
		case TAP_EVOP_UNARY:
			if (!tap_ev_arith(o->op, v[o->a], 0, &v[i]))
				return TAP_EVS_BAD;
			break;
		case TAP_EVOP_CONVERT:
			v[i] = tap_ev_convert(v[o->a], o->size, o->is_signed);
			break;
		case TAP_EVOP_CALLSITE:
			if (!v[o->b])
				return TAP_EVS_CALLSITE;
			v[i] = v[o->a];
			break;
		default:
			return TAP_EVS_BAD;
		}
	}
	*val = v[ev->nops - 1];
	return TAP_EVS_OK;
}
