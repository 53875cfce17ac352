// SPDX-License-Identifier: GPL-2.0
/*
 * Decimal text to and from binary64 (see softfloat.h), exactly, with a
 * small fixed-size big integer: a binary64 is a 53-bit integer times a
 * power of two, so its decimal expansion is finite and computable with
 * multiplications by 10; a decimal number D * 10^E is rounded from
 * D * 10^E (E >= 0) or from 64 bits of the quotient D * 2^s / 10^-E.
 * The big integers live on the stack (about 200 bytes each), no heap.
 */
#include "port.h"
#include "softfloat.h"

/* 32-bit limbs, least significant first: 1664 bits, enough for 10^448
 * shifted by 64 bits (the largest divisor string_to_fp needs) and for
 * the 1126 fraction bits of the smallest subnormal. */
#define BN_LIMBS 52

struct bignum {
	int len;		/* limbs in use; the top one nonzero */
	u32 limb[BN_LIMBS];
};

static void bn_set_u64(struct bignum *b, bits64 v)
{
	b->len = 0;
	while (v) {
		b->limb[b->len++] = (u32)v;
		v >>= 32;
	}
}

static void bn_trim(struct bignum *b)
{
	while (b->len && !b->limb[b->len - 1])
		b->len--;
}

/* b = b * mul + add; the callers' bounds keep it within BN_LIMBS. */
static void bn_mul_add(struct bignum *b, u32 mul, u32 add)
{
	bits64 carry = add;
	int i;

	for (i = 0; i < b->len; i++) {
		carry += (bits64)b->limb[i] * mul;
		b->limb[i] = (u32)carry;
		carry >>= 32;
	}
	if (carry && b->len < BN_LIMBS)
		b->limb[b->len++] = (u32)carry;
}

/* b = b / div, returning the remainder. */
static u32 bn_div_small(struct bignum *b, u32 div)
{
	bits64 rem = 0;
	int i;

	for (i = b->len - 1; i >= 0; i--) {
		bits64 cur = (rem << 32) | b->limb[i];

		b->limb[i] = (u32)(cur / div);
		rem = cur % div;
	}
	bn_trim(b);
	return (u32)rem;
}

static int bn_bitlen(const struct bignum *b)
{
	if (!b->len)
		return 0;
	return (b->len - 1) * 32 + 32 - __builtin_clz(b->limb[b->len - 1]);
}

static int bn_bit(const struct bignum *b, int i)
{
	if (i < 0 || i / 32 >= b->len)
		return 0;
	return (b->limb[i / 32] >> (i % 32)) & 1;
}

static void bn_shl(struct bignum *b, int dist)
{
	int words = dist / 32, bits = dist % 32, i;
	int len = b->len + words + 1;

	if (!b->len || !dist)
		return;
	if (len > BN_LIMBS)
		len = BN_LIMBS;
	for (i = len - 1; i >= 0; i--) {
		int src = i - words;
		u32 hi = src >= 0 && src < b->len ? b->limb[src] : 0;
		u32 lo = src - 1 >= 0 && src - 1 < b->len ? b->limb[src - 1] : 0;

		b->limb[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
	}
	b->len = len;
	bn_trim(b);
}

static void bn_shr1(struct bignum *b)
{
	int i;

	for (i = 0; i < b->len; i++) {
		u32 next = i + 1 < b->len ? b->limb[i + 1] : 0;

		b->limb[i] = (b->limb[i] >> 1) | (next << 31);
	}
	bn_trim(b);
}

static int bn_cmp(const struct bignum *a, const struct bignum *b)
{
	int i;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	for (i = a->len - 1; i >= 0; i--)
		if (a->limb[i] != b->limb[i])
			return a->limb[i] < b->limb[i] ? -1 : 1;
	return 0;
}

/* a -= b, for a >= b. */
static void bn_sub(struct bignum *a, const struct bignum *b)
{
	s64 borrow = 0;
	int i;

	for (i = 0; i < a->len; i++) {
		s64 cur = (s64)a->limb[i] - (i < b->len ? b->limb[i] : 0) - borrow;

		borrow = cur < 0;
		a->limb[i] = (u32)(cur + (borrow ? (1LL << 32) : 0));
	}
	bn_trim(a);
}

/* b *= 10^n */
static void bn_mul_pow10(struct bignum *b, int n)
{
	for (; n >= 9; n -= 9)
		bn_mul_add(b, 1000000000u, 0);
	while (n-- > 0)
		bn_mul_add(b, 10, 0);
}

/* ---- binary64 to text ------------------------------------------------ */

struct text {
	char *out;
	unsigned long cap;	/* bytes that may hold characters */
	unsigned long len;	/* characters written */
	unsigned long dropped;	/* characters past cap */
	int dropped_not_nine;	/* a dropped digit that stops a carry */
};

static void text_put(struct text *t, char ch)
{
	if (t->len < t->cap) {
		t->out[t->len++] = ch;
		return;
	}
	t->dropped++;
	if (ch != '9')
		t->dropped_not_nine = 1;
}

static void text_puts(struct text *t, const char *s)
{
	while (*s)
		text_put(t, *s++);
}

/* Add one to the last digit, carrying; @first is where the digits start. */
static void text_round_up(struct text *t, unsigned long first)
{
	unsigned long i = t->len;

	if (t->dropped) {
		/* the carry enters the kept text only through nines */
		if (t->dropped_not_nine)
			return;
	}
	while (i > first) {
		i--;
		if (t->out[i] == '.')
			continue;
		if (t->out[i] != '9') {
			t->out[i]++;
			return;
		}
		t->out[i] = '0';
	}
	/* all nines: a new leading 1 */
	if (t->len < t->cap)
		t->len++;
	memmove(t->out + first + 1, t->out + first, t->len - first - 1);
	t->out[first] = '1';
}

/* The decimal digits of the integer @i, most significant first. */
static void put_integer(struct text *t, struct bignum *i)
{
	char rev[330];	/* 2^1024 has 309 digits */
	int n = 0;

	if (!i->len) {
		text_put(t, '0');
		return;
	}
	while (i->len && n < (int)sizeof(rev) - 9) {
		u32 chunk = bn_div_small(i, 1000000000u);
		int k;

		for (k = 0; k < 9; k++) {
			rev[n++] = (char)('0' + chunk % 10);
			chunk /= 10;
		}
	}
	while (n > 1 && rev[n - 1] == '0')
		n--;
	while (n)
		text_put(t, rev[--n]);
}

void tap_fp_to_string(char *out, unsigned long size, unsigned long long a,
		      long long precision)
{
	struct text t = { out, size ? size - 1 : 0, 0, 0, 0 };
	struct bignum whole, frac;
	int sign = (a >> 63) != 0;
	int biased = (int)((a >> 52) & 0x7ff);
	bits64 sig = a & 0x000fffffffffffffULL;
	int exp, k, digits, round;
	unsigned long first;

	if (!size)
		return;
	if (biased == 0x7ff) {
		text_puts(&t, sign ? (sig ? "-nan" : "-inf") : (sig ? "nan" : "inf"));
		out[t.len] = '\0';
		return;
	}
	if (sign)
		text_put(&t, '-');
	first = t.len;
	exp = biased ? biased - 1075 : -1074;
	if (biased)
		sig |= 0x0010000000000000ULL;
	/* sig * 2^exp = whole + frac / 2^k */
	bn_set_u64(&whole, sig);
	frac.len = 0;
	k = 0;
	if (exp >= 0) {
		bn_shl(&whole, exp);
	} else {
		k = -exp;
		if (k < 64) {
			bn_set_u64(&whole, sig >> k);
			bn_set_u64(&frac, sig & ((1ULL << k) - 1));
		} else {
			whole.len = 0;
			bn_set_u64(&frac, sig);
		}
	}
	put_integer(&t, &whole);
	text_put(&t, '.');
	/* 1126 digits end every binary64 fraction: later ones are zeros */
	if (precision < 1)
		precision = 1;
	digits = precision > 1200 ? 1200 : (int)precision;
	while (digits--) {
		int d = 0;

		if (frac.len) {
			bn_mul_add(&frac, 10, 0);
			d = bn_bit(&frac, k) | bn_bit(&frac, k + 1) << 1 |
			    bn_bit(&frac, k + 2) << 2 | bn_bit(&frac, k + 3) << 3;
			frac.limb[k / 32] &= (1u << (k % 32)) - 1;
			frac.len = k / 32 + 1 < frac.len ? k / 32 + 1 : frac.len;
			bn_trim(&frac);
		}
		text_put(&t, (char)('0' + d));
	}
	/* SystemTap rounds on the next digit: 5 and up rounds away */
	round = 0;
	if (frac.len) {
		bn_mul_add(&frac, 10, 0);
		round = (bn_bit(&frac, k) | bn_bit(&frac, k + 1) << 1 |
			 bn_bit(&frac, k + 2) << 2 | bn_bit(&frac, k + 3) << 3) >= 5;
	}
	if (round)
		text_round_up(&t, first);
	out[t.len] = '\0';
}

/* ---- text to binary64 ------------------------------------------------ */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

struct decimal {
	struct bignum digits;	/* the significant digits, as an integer */
	int ndigits;
	int exp10;		/* value = digits * 10^exp10 */
	int sticky;		/* nonzero digits were cut */
};

static void decimal_digit(struct decimal *d, char c, int after_point)
{
	int v = c - '0';

	if (!d->ndigits && !v) {
		if (after_point)
			d->exp10--;
		return;
	}
	if (d->ndigits < TAP_FP_MAX_DIGITS) {
		if (!d->digits.len)
			bn_set_u64(&d->digits, v);
		else
			bn_mul_add(&d->digits, 10, v);
		d->ndigits++;
		if (after_point)
			d->exp10--;
		return;
	}
	if (v)
		d->sticky = 1;
	if (!after_point)
		d->exp10++;
}

/* Parse SystemTap's grammar; return the index past it. */
static int parse_decimal(const char *s, struct decimal *d, int *neg)
{
	int i = 0, esign = 1;
	long long e = 0;

	*neg = s[0] == '-';
	if (s[i] == '-' || s[i] == '+')
		i++;
	for (; is_digit(s[i]); i++)
		decimal_digit(d, s[i], 0);
	if (s[i] == '.')
		i++;
	for (; is_digit(s[i]); i++)
		decimal_digit(d, s[i], 1);
	if (s[i] == 'e' || s[i] == 'E') {
		i++;
		if (s[i] == '-')
			esign = -1;
		if (s[i] == '-' || s[i] == '+')
			i++;
		for (; is_digit(s[i]); i++)
			if (e < 100000)	/* far past any finite result */
				e = e * 10 + (s[i] - '0');
	}
	d->exp10 += (int)(esign * e);
	return i;
}

/* digits * 10^exp10, exp10 >= 0, the result below 10^311. */
static bits64 round_integer(int neg, struct bignum *n, int exp10)
{
	int bits, i;
	bits64 top = 0, sticky = 0;

	bn_mul_pow10(n, exp10);
	bits = bn_bitlen(n);
	if (bits <= 64) {
		for (i = bits - 1; i >= 0; i--)
			top = top << 1 | bn_bit(n, i);
		return tap_fp_round_pack(neg, 0, top, TAP_FP_ROUND_NEAR_EVEN);
	}
	for (i = bits - 1; i >= bits - 64; i--)
		top = top << 1 | bn_bit(n, i);
	for (i = 0; i < bits - 64 && !sticky; i++)
		sticky = bn_bit(n, i);
	return tap_fp_round_pack(neg, bits - 64, top | sticky,
				 TAP_FP_ROUND_NEAR_EVEN);
}

/* digits / 10^m: 64 quotient bits of digits * 2^s / 10^m, and a sticky
 * bit for the remainder. */
static bits64 round_quotient(int neg, struct bignum *num, int m)
{
	struct bignum den;
	bits64 q = 0;
	int s, i;

	bn_set_u64(&den, 1);
	bn_mul_pow10(&den, m);
	s = bn_bitlen(&den) - bn_bitlen(num) + 63;
	if (s > 0)
		bn_shl(num, s);
	else
		bn_shl(&den, -s);
	/* q = num / den lies in [2^62, 2^64) */
	bn_shl(&den, 63);
	for (i = 63; i >= 0; i--) {
		if (bn_cmp(num, &den) >= 0) {
			bn_sub(num, &den);
			q |= 1ULL << i;
		}
		bn_shr1(&den);
	}
	return tap_fp_round_pack(neg, -s, q | (num->len != 0),
				 TAP_FP_ROUND_NEAR_EVEN);
}

int tap_fp_from_string(const char *s, unsigned long long *out)
{
	struct decimal d;
	int neg, end, magnitude;

	d.digits.len = 0;
	d.ndigits = 0;
	d.exp10 = 0;
	d.sticky = 0;
	end = parse_decimal(s, &d, &neg);
	if (s[end])
		return -1;
	if (!d.ndigits) {
		*out = (bits64)neg << 63;
		return 0;
	}
	if (d.sticky) {
		/* a nonzero digit past the kept ones: enough to round right
		 * unless the input sits within 10^-120 of a halfway point */
		bn_mul_add(&d.digits, 10, 1);
		d.ndigits++;
		d.exp10--;
	}
	magnitude = d.exp10 + d.ndigits;	/* value < 10^magnitude */
	if (magnitude > 310) {
		*out = ((bits64)neg << 63) | 0x7ff0000000000000ULL;
		return 0;
	}
	if (magnitude < -326) {
		*out = (bits64)neg << 63;
		return 0;
	}
	if (d.exp10 >= 0)
		*out = round_integer(neg, &d.digits, d.exp10);
	else
		*out = round_quotient(neg, &d.digits, -d.exp10);
	return 0;
}
