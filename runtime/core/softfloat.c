// SPDX-License-Identifier: GPL-2.0
/*
 * Binary64 arithmetic in integers (see softfloat.h).
 *
 * A finite operand is unpacked to sig * 2^exp with sig's top bit at bit
 * 52 (subnormals are normalised).  Each operation computes its exact
 * result, or enough of it plus a sticky bit (bit 0 set when anything
 * nonzero was dropped), and tap_fp_round_pack() rounds that once.  Only
 * shifts, adds, 64x64 multiplies and 64-bit divides are used: no 128-bit
 * division, which the kernel does not link.
 */
#include "port.h"
#include "softfloat.h"

#define SIGN_BIT	0x8000000000000000ULL
#define EXP_MASK	0x7ff0000000000000ULL
#define FRAC_MASK	0x000fffffffffffffULL
#define QUIET_BIT	0x0008000000000000ULL
#define HIDDEN_BIT	0x0010000000000000ULL
#define INF_BITS	EXP_MASK


struct fp_num {
	int sign;
	int exp;	/* value = sig * 2^exp */
	bits64 sig;	/* top bit at 52 for nonzero finite numbers */
};

static int fp_is_nan(bits64 a)
{
	return (a & EXP_MASK) == EXP_MASK && (a & FRAC_MASK);
}

static int fp_is_inf(bits64 a)
{
	return (a & ~SIGN_BIT) == INF_BITS;
}

static int fp_is_zero(bits64 a)
{
	return !(a & ~SIGN_BIT);
}

static int fp_is_snan(bits64 a)
{
	return fp_is_nan(a) && !(a & QUIET_BIT);
}

/* SoftFloat's rule: a signaling NaN is quieted and returned first,
 * otherwise the first NaN operand is returned as it is. */
static bits64 fp_propagate_nan(bits64 a, bits64 b)
{
	if (fp_is_snan(a) || fp_is_snan(b))
		return (fp_is_snan(a) ? a : b) | QUIET_BIT;
	return fp_is_nan(a) ? a : b;
}

static int fp_clz64(bits64 x)
{
	return x ? __builtin_clzll(x) : 64;
}

static bits64 fp_shift_right_jam(bits64 x, int dist)
{
	if (dist <= 0)
		return x;
	if (dist >= 64)
		return x != 0;
	return (x >> dist) | ((x & ((1ULL << dist) - 1)) != 0);
}

/* A finite, nonzero @a as sig * 2^exp, sig normalised to bit 52. */
static struct fp_num fp_unpack(bits64 a)
{
	struct fp_num n;
	int biased = (int)((a & EXP_MASK) >> 52);

	n.sign = (a & SIGN_BIT) != 0;
	n.sig = a & FRAC_MASK;
	if (biased) {
		n.sig |= HIDDEN_BIT;
		n.exp = biased - 1075;
	} else {
		int shift = fp_clz64(n.sig) - 11;

		n.sig <<= shift;
		n.exp = -1074 - shift;
	}
	return n;
}

static bits64 fp_overflow(int sign, int mode)
{
	bits64 max_finite = EXP_MASK - 1;
	int to_inf;

	switch (mode) {
	case TAP_FP_ROUND_NEAR_EVEN:
	case TAP_FP_ROUND_NEAR_MAX_MAG:
		to_inf = 1;
		break;
	case TAP_FP_ROUND_MIN:
		to_inf = sign;
		break;
	case TAP_FP_ROUND_MAX:
		to_inf = !sign;
		break;
	default:
		to_inf = 0;
	}
	return ((bits64)sign << 63) | (to_inf ? INF_BITS : max_finite);
}

/* Whether a magnitude whose dropped part is @rest out of 2^@bits (the top
 * one the half) rounds away from zero; @odd is the kept lsb. */
static int fp_round_up(int sign, int mode, bits64 rest, int bits, int odd)
{
	bits64 half = 1ULL << (bits - 1);

	if (!rest)
		return 0;
	switch (mode) {
	case TAP_FP_ROUND_NEAR_EVEN:
		return rest > half || (rest == half && odd);
	case TAP_FP_ROUND_NEAR_MAX_MAG:
		return rest >= half;
	case TAP_FP_ROUND_MIN:
		return sign;
	case TAP_FP_ROUND_MAX:
		return !sign;
	default:
		return 0;
	}
}

/*
 * Round (-1)^sign * sig * 2^exp, sig's bit 0 possibly a sticky bit, to a
 * binary64 with @mode.  The mantissa is added to the exponent field so
 * that a carry out of it, or out of a subnormal, moves the exponent.
 */
bits64 tap_fp_round_pack(int sign, int exp, bits64 sig, int mode)
{
	int shift, biased;
	bits64 mant, rest, packed;

	if (!sig)
		return (bits64)sign << 63;
	shift = fp_clz64(sig);
	sig <<= shift;
	exp -= shift;
	if (exp > 2000)
		return fp_overflow(sign, mode);
	biased = exp + 63 + 1023;
	if (biased < 1) {
		sig = fp_shift_right_jam(sig, 1 - biased);
		biased = 1;
	}
	mant = sig >> 11;
	rest = sig & 0x7ff;
	if (fp_round_up(sign, mode, rest, 11, (int)(mant & 1)))
		mant++;
	else if (rest && mode == TAP_FP_ROUND_ODD)
		mant |= 1;
	if (biased >= 0x7ff)
		return fp_overflow(sign, mode);
	packed = ((bits64)(biased - 1) << 52) + mant;
	if (packed >= INF_BITS)
		return fp_overflow(sign, mode);
	return ((bits64)sign << 63) | packed;
}

static bits64 fp_add_finite(struct fp_num x, struct fp_num y)
{
	bits64 sx, sy, sum;
	int sign = x.sign;

	if (x.exp < y.exp || (x.exp == y.exp && x.sig < y.sig)) {
		struct fp_num t = x;

		x = y;
		y = t;
		sign = x.sign;
	}
	/* nine spare bits below the 53 keep the jammed subtraction exact
	 * enough: it loses at most one bit of the larger operand */
	sx = x.sig << 9;
	sy = fp_shift_right_jam(y.sig << 9, x.exp - y.exp);
	if (x.sign == y.sign) {
		sum = sx + sy;
	} else {
		sum = sx - sy;
		if (!sum)
			return 0;	/* exact zero is +0 to nearest */
	}
	return tap_fp_round_pack(sign, x.exp - 9, sum, TAP_FP_ROUND_NEAR_EVEN);
}

unsigned long long tap_fp_add(unsigned long long a, unsigned long long b)
{
	if (fp_is_nan(a) || fp_is_nan(b))
		return fp_propagate_nan(a, b);
	if (fp_is_inf(a)) {
		if (fp_is_inf(b) && ((a ^ b) & SIGN_BIT))
			return TAP_FP_DEFAULT_NAN;
		return a;
	}
	if (fp_is_inf(b))
		return b;
	if (fp_is_zero(a)) {
		if (fp_is_zero(b))
			return a & b;	/* -0 only for -0 + -0 */
		return b;
	}
	if (fp_is_zero(b))
		return a;
	return fp_add_finite(fp_unpack(a), fp_unpack(b));
}

unsigned long long tap_fp_sub(unsigned long long a, unsigned long long b)
{
	if (fp_is_nan(a) || fp_is_nan(b))
		return fp_propagate_nan(a, b);
	return tap_fp_add(a, b ^ SIGN_BIT);
}

unsigned long long tap_fp_mul(unsigned long long a, unsigned long long b)
{
	bits64 sign = (a ^ b) & SIGN_BIT;
	struct fp_num x, y;
	unsigned __int128 prod;
	bits64 hi;

	if (fp_is_nan(a) || fp_is_nan(b))
		return fp_propagate_nan(a, b);
	if (fp_is_inf(a) || fp_is_inf(b)) {
		if (fp_is_zero(a) || fp_is_zero(b))
			return TAP_FP_DEFAULT_NAN;
		return sign | INF_BITS;
	}
	if (fp_is_zero(a) || fp_is_zero(b))
		return sign;
	x = fp_unpack(a);
	y = fp_unpack(b);
	prod = (unsigned __int128)x.sig * y.sig;	/* below 2^106 */
	hi = (bits64)(prod >> 42) | (((bits64)prod & ((1ULL << 42) - 1)) != 0);
	return tap_fp_round_pack(sign != 0, x.exp + y.exp + 42, hi,
			     TAP_FP_ROUND_NEAR_EVEN);
}

unsigned long long tap_fp_div(unsigned long long a, unsigned long long b)
{
	bits64 sign = (a ^ b) & SIGN_BIT;
	struct fp_num x, y;
	bits64 rem, quot = 0;
	int i;

	if (fp_is_nan(a) || fp_is_nan(b))
		return fp_propagate_nan(a, b);
	if (fp_is_inf(a)) {
		if (fp_is_inf(b))
			return TAP_FP_DEFAULT_NAN;
		return sign | INF_BITS;
	}
	if (fp_is_inf(b))
		return sign;
	if (fp_is_zero(b))
		return fp_is_zero(a) ? TAP_FP_DEFAULT_NAN : (sign | INF_BITS);
	if (fp_is_zero(a))
		return sign;
	x = fp_unpack(a);
	y = fp_unpack(b);
	/* restoring division: 64 quotient bits of x.sig / y.sig, the first
	 * one the integer part, so quot = x.sig / y.sig * 2^63 */
	rem = x.sig;
	for (i = 0; i < 64; i++) {
		quot <<= 1;
		if (rem >= y.sig) {
			rem -= y.sig;
			quot |= 1;
		}
		rem <<= 1;
	}
	return tap_fp_round_pack(sign != 0, x.exp - y.exp - 63, quot | (rem != 0),
			     TAP_FP_ROUND_NEAR_EVEN);
}

/* |x| rem |y| for finite nonzero operands, exactly. */
static bits64 fp_rem_finite(struct fp_num x, struct fp_num y)
{
	int diff = x.exp - y.exp;
	int sign = x.sign;
	bits64 r, q_odd = 0;

	if (diff < -1)
		return tap_fp_round_pack(sign, x.exp, x.sig, TAP_FP_ROUND_NEAR_EVEN);
	if (diff == -1) {
		/* |x| < |y|: the quotient rounds to 1 only past the half */
		if (x.sig <= y.sig)
			return tap_fp_round_pack(sign, x.exp, x.sig,
					     TAP_FP_ROUND_NEAR_EVEN);
		return tap_fp_round_pack(!sign, x.exp, 2 * y.sig - x.sig,
				     TAP_FP_ROUND_NEAR_EVEN);
	}
	r = x.sig % y.sig;
	q_odd = (x.sig / y.sig) & 1;
	while (diff > 0) {
		int step = diff > 10 ? 10 : diff;

		r <<= step;
		q_odd = (r / y.sig) & 1;
		r %= y.sig;
		diff -= step;
	}
	/* r in units of 2^y.exp; the quotient rounds up past half, or at
	 * half when it is odd */
	if (2 * r > y.sig || (2 * r == y.sig && q_odd)) {
		r = y.sig - r;
		sign = !sign;
	}
	if (!r)
		return (bits64)x.sign << 63;
	return tap_fp_round_pack(sign, y.exp, r, TAP_FP_ROUND_NEAR_EVEN);
}

unsigned long long tap_fp_rem(unsigned long long a, unsigned long long b)
{
	if (fp_is_nan(a) || fp_is_nan(b))
		return fp_propagate_nan(a, b);
	if (fp_is_inf(a) || fp_is_zero(b))
		return TAP_FP_DEFAULT_NAN;
	if (fp_is_inf(b) || fp_is_zero(a))
		return a;
	return fp_rem_finite(fp_unpack(a), fp_unpack(b));
}

unsigned long long tap_fp_sqrt(unsigned long long a)
{
	struct fp_num x;
	unsigned __int128 v, root = 0, bit;

	if (fp_is_nan(a))
		return fp_propagate_nan(a, 0);
	if (fp_is_zero(a))
		return a;
	if (a & SIGN_BIT)
		return TAP_FP_DEFAULT_NAN;
	if (fp_is_inf(a))
		return a;
	x = fp_unpack(a);
	/* sqrt(sig * 2^exp) = sqrt(sig * 2^64) * 2^((exp - 64) / 2) with
	 * exp even: the integer root has 58 or more bits */
	v = (unsigned __int128)x.sig << 64;
	if (x.exp & 1) {
		v <<= 1;
		x.exp--;
	}
	bit = (unsigned __int128)1 << 126;
	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= root + bit) {
			v -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return tap_fp_round_pack(0, (x.exp - 64) / 2, (bits64)root | (v != 0),
			     TAP_FP_ROUND_NEAR_EVEN);
}

int tap_fp_eq(unsigned long long a, unsigned long long b)
{
	if (fp_is_nan(a) || fp_is_nan(b))
		return 0;
	return a == b || !((a | b) & ~SIGN_BIT);
}

/* a < b (or a <= b with @or_equal) for two non-NaN numbers. */
static int fp_less(bits64 a, bits64 b, int or_equal)
{
	int sa = (a & SIGN_BIT) != 0, sb = (b & SIGN_BIT) != 0;

	if (!((a | b) & ~SIGN_BIT))
		return or_equal;	/* +0 == -0 */
	if (a == b)
		return or_equal;
	if (sa != sb)
		return sa;
	return sa ? a > b : a < b;
}

int tap_fp_le(unsigned long long a, unsigned long long b)
{
	if (fp_is_nan(a) || fp_is_nan(b))
		return 0;
	return fp_less(a, b, 1);
}

int tap_fp_lt(unsigned long long a, unsigned long long b)
{
	if (fp_is_nan(a) || fp_is_nan(b))
		return 0;
	return fp_less(a, b, 0);
}

unsigned long long tap_fp_from_long(long long n)
{
	bits64 mag = n < 0 ? -(bits64)n : (bits64)n;

	return tap_fp_round_pack(n < 0, 0, mag, TAP_FP_ROUND_NEAR_EVEN);
}

long long tap_fp_to_long(unsigned long long a, long long mode)
{
	struct fp_num x;
	bits64 mag, rest = 0;
	int sign = (a & SIGN_BIT) != 0;

	if (fp_is_nan(a))
		return 0;
	if (fp_is_zero(a))
		return 0;
	if (fp_is_inf(a))
		goto overflow;
	x = fp_unpack(a);
	if (x.exp >= 0) {
		if (x.exp > 11)	/* -2^63 alone has exp 11 */
			goto overflow;
		mag = x.sig << x.exp;
	} else if (x.exp > -64) {
		mag = x.sig >> -x.exp;
		rest = x.sig & ((1ULL << -x.exp) - 1);
		if (fp_round_up(sign, (int)mode, rest, -x.exp, (int)(mag & 1)))
			mag++;
		else if (rest && mode == TAP_FP_ROUND_ODD)
			mag |= 1;
	} else {
		/* |a| < 2^-11: only the directed modes leave zero */
		mag = 0;
		if ((mode == TAP_FP_ROUND_MIN && sign) ||
		    (mode == TAP_FP_ROUND_MAX && !sign) ||
		    mode == TAP_FP_ROUND_ODD)
			mag = 1;
	}
	if (sign) {
		if (mag > SIGN_BIT)
			goto overflow;
		return (long long)(0 - mag);
	}
	if (mag >= SIGN_BIT)
		goto overflow;
	return (long long)mag;
overflow:
	return sign ? (-0x7fffffffffffffffLL - 1) : 0x7fffffffffffffffLL;
}

unsigned long long tap_fp_from_fp32(unsigned long long f32)
{
	u32 v = (u32)f32;
	int sign = v >> 31;
	int biased = (v >> 23) & 0xff;
	bits64 frac = v & 0x7fffff;

	if (biased == 0xff) {
		if (frac)	/* quieted, payload kept */
			return ((bits64)sign << 63) | TAP_FP_DEFAULT_NAN |
			       (frac << 29);
		return ((bits64)sign << 63) | INF_BITS;
	}
	if (!biased && !frac)
		return (bits64)sign << 63;
	if (biased)
		return tap_fp_round_pack(sign, biased - 150, frac | 0x800000,
				     TAP_FP_ROUND_NEAR_EVEN);
	return tap_fp_round_pack(sign, -149, frac, TAP_FP_ROUND_NEAR_EVEN);
}
