// SPDX-License-Identifier: GPL-2.0
/*
 * floatingpoint.stp's arithmetic (runtime/core/softfloat*.c) in user
 * space.  Two kinds of checks:
 *  - hand-computed cases: edge values, NaN and infinities, rounding modes
 *    of fp_to_long, SystemTap's fp_to_string format;
 *  - the host's IEEE-754 hardware as the oracle: random and chosen bit
 *    patterns through add, sub, mul, div, sqrt, remainder, comparisons,
 *    long conversions, and strtod() for string_to_fp.
 * Built and run by run-tapset-check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "softfloat.h"

static int failures;

static unsigned long long bits_of(double d)
{
	unsigned long long u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double double_of(unsigned long long u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static void want_bits(const char *what, unsigned long long got,
		      unsigned long long want)
{
	if (got != want) {
		printf("FAIL: %s = %#llx, want %#llx\n", what, got, want);
		failures++;
	}
}

static void want_long(const char *what, long long got, long long want)
{
	if (got != want) {
		printf("FAIL: %s = %lld, want %lld\n", what, got, want);
		failures++;
	}
}

static void want_text(unsigned long long a, long long prec, const char *want)
{
	char out[512];

	tap_fp_to_string(out, sizeof(out), a, prec);
	if (strcmp(out, want)) {
		printf("FAIL: fp_to_string(%#llx, %lld) = \"%s\", want \"%s\"\n",
		       a, prec, out, want);
		failures++;
	}
}

static void want_parse(const char *s, int ok, unsigned long long want)
{
	unsigned long long got = 0;
	int rc = tap_fp_from_string(s, &got);

	if ((rc == 0) != ok || (ok && got != want)) {
		printf("FAIL: string_to_fp(\"%s\") = %d/%#llx, want %s%#llx\n",
		       s, rc, got, ok ? "" : "error ", want);
		failures++;
	}
}

#define D(x) bits_of(x)
#define NAN_BITS 0x7ff8000000000000ULL
#define SNAN_BITS 0x7ff0000000000001ULL
#define INF 0x7ff0000000000000ULL
#define NINF 0xfff0000000000000ULL
#define NEG0 0x8000000000000000ULL
#define MIN_SUB 1ULL
#define MAX_FIN 0x7fefffffffffffffULL

static void hand_cases(void)
{
	/* arithmetic */
	want_bits("1+2", tap_fp_add(D(1), D(2)), D(3));
	want_bits("0.1+0.2", tap_fp_add(D(0.1), D(0.2)), 0x3fd3333333333334ULL);
	want_bits("1-1", tap_fp_sub(D(1), D(1)), 0);
	want_bits("-0+-0", tap_fp_add(NEG0, NEG0), NEG0);
	want_bits("-0+0", tap_fp_add(NEG0, 0), 0);
	want_bits("inf-inf", tap_fp_sub(INF, INF), NAN_BITS);
	want_bits("inf+inf", tap_fp_add(INF, INF), INF);
	want_bits("max+max", tap_fp_add(MAX_FIN, MAX_FIN), INF);
	want_bits("minsub+minsub", tap_fp_add(MIN_SUB, MIN_SUB), 2);
	want_bits("1+2^-53 ties to even", tap_fp_add(D(1), D(0x1p-53)), D(1));
	want_bits("1+3*2^-53", tap_fp_add(D(1), D(0x3p-53)),
		  0x3ff0000000000002ULL);
	want_bits("3*-2", tap_fp_mul(D(3), D(-2)), D(-6));
	want_bits("inf*0", tap_fp_mul(INF, 0), NAN_BITS);
	want_bits("-0*5", tap_fp_mul(NEG0, D(5)), NEG0);
	want_bits("minsub*0.5", tap_fp_mul(MIN_SUB, D(0.5)), 0);
	want_bits("3*minsub*0.5", tap_fp_mul(3, D(0.5)), 2);
	want_bits("1/3", tap_fp_div(D(1), D(3)), 0x3fd5555555555555ULL);
	want_bits("1/0", tap_fp_div(D(1), 0), INF);
	want_bits("-1/0", tap_fp_div(D(-1), 0), NINF);
	want_bits("0/0", tap_fp_div(0, 0), NAN_BITS);
	want_bits("inf/inf", tap_fp_div(INF, INF), NAN_BITS);
	want_bits("sqrt 2", tap_fp_sqrt(D(2)), 0x3ff6a09e667f3bcdULL);
	want_bits("sqrt 16", tap_fp_sqrt(D(16)), D(4));
	want_bits("sqrt -1", tap_fp_sqrt(D(-1)), NAN_BITS);
	want_bits("sqrt -0", tap_fp_sqrt(NEG0), NEG0);
	want_bits("sqrt inf", tap_fp_sqrt(INF), INF);
	want_bits("sqrt minsub", tap_fp_sqrt(MIN_SUB), D(0x1p-537));
	want_bits("rem 5 3", tap_fp_rem(D(5), D(3)), D(-1));
	want_bits("rem 7 2", tap_fp_rem(D(7), D(2)), D(-1));
	want_bits("rem 5 2", tap_fp_rem(D(5), D(2)), D(1));
	want_bits("rem -6 3", tap_fp_rem(D(-6), D(3)), NEG0);
	want_bits("rem 1 0", tap_fp_rem(D(1), 0), NAN_BITS);
	want_bits("rem 1 inf", tap_fp_rem(D(1), INF), D(1));
	/* NaN propagation: quieted, first operand first */
	want_bits("snan+1", tap_fp_add(SNAN_BITS, D(1)), 0x7ff8000000000001ULL);
	want_bits("1*-nan", tap_fp_mul(D(1), 0xfff8000000000005ULL),
		  0xfff8000000000005ULL);
	want_bits("nan(1)-nan(2)", tap_fp_sub(0x7ff8000000000001ULL,
					      0x7ff8000000000002ULL),
		  0x7ff8000000000001ULL);
	/* comparisons */
	want_long("eq 0 -0", tap_fp_eq(0, NEG0), 1);
	want_long("eq nan nan", tap_fp_eq(NAN_BITS, NAN_BITS), 0);
	want_long("lt -1 1", tap_fp_lt(D(-1), D(1)), 1);
	want_long("lt -2 -1", tap_fp_lt(D(-2), D(-1)), 1);
	want_long("lt -1 -2", tap_fp_lt(D(-1), D(-2)), 0);
	want_long("lt -0 0", tap_fp_lt(NEG0, 0), 0);
	want_long("le -0 0", tap_fp_le(NEG0, 0), 1);
	want_long("le nan 1", tap_fp_le(NAN_BITS, D(1)), 0);
	want_long("lt -inf minsub", tap_fp_lt(NINF, MIN_SUB), 1);
	/* long conversions */
	want_bits("long_to_fp 0", tap_fp_from_long(0), 0);
	want_bits("long_to_fp -7", tap_fp_from_long(-7), D(-7));
	want_bits("long_to_fp min", tap_fp_from_long(-0x7fffffffffffffffLL - 1),
		  0xc3e0000000000000ULL);
	want_bits("long_to_fp max", tap_fp_from_long(0x7fffffffffffffffLL),
		  0x43e0000000000000ULL);
	want_bits("long_to_fp 2^53+1", tap_fp_from_long(9007199254740993LL),
		  D(9007199254740992.0));
	want_bits("long_to_fp 2^53+3", tap_fp_from_long(9007199254740995LL),
		  D(9007199254740996.0));
	want_long("2.5 even", tap_fp_to_long(D(2.5), 0), 2);
	want_long("3.5 even", tap_fp_to_long(D(3.5), 0), 4);
	want_long("-2.5 even", tap_fp_to_long(D(-2.5), 0), -2);
	want_long("2.7 minMag", tap_fp_to_long(D(2.7), 1), 2);
	want_long("-2.7 minMag", tap_fp_to_long(D(-2.7), 1), -2);
	want_long("2.2 min", tap_fp_to_long(D(2.2), 2), 2);
	want_long("-2.2 min", tap_fp_to_long(D(-2.2), 2), -3);
	want_long("2.2 max", tap_fp_to_long(D(2.2), 3), 3);
	want_long("-2.2 max", tap_fp_to_long(D(-2.2), 3), -2);
	want_long("2.5 maxMag", tap_fp_to_long(D(2.5), 4), 3);
	want_long("-2.5 maxMag", tap_fp_to_long(D(-2.5), 4), -3);
	want_long("2.2 odd", tap_fp_to_long(D(2.2), 6), 3);
	want_long("4.0 odd", tap_fp_to_long(D(4.0), 6), 4);
	want_long("0.3 max", tap_fp_to_long(D(0.3), 3), 1);
	want_long("1e-300 max", tap_fp_to_long(D(1e-300), 3), 1);
	want_long("-1e-300 max", tap_fp_to_long(D(-1e-300), 3), 0);
	want_long("nan", tap_fp_to_long(NAN_BITS, 0), 0);
	want_long("inf", tap_fp_to_long(INF, 0), 0x7fffffffffffffffLL);
	want_long("-inf", tap_fp_to_long(NINF, 0), -0x7fffffffffffffffLL - 1);
	want_long("2^63", tap_fp_to_long(D(0x1p63), 0), 0x7fffffffffffffffLL);
	want_long("-2^63", tap_fp_to_long(D(-0x1p63), 0),
		  -0x7fffffffffffffffLL - 1);
	want_long("1e18", tap_fp_to_long(D(1e18), 0), 1000000000000000000LL);
	/* fp32 */
	want_bits("fp32 1.5", tap_fp_from_fp32(0x3fc00000), D(1.5));
	want_bits("fp32 -0", tap_fp_from_fp32(0x80000000), NEG0);
	want_bits("fp32 min sub", tap_fp_from_fp32(1), D(0x1p-149));
	want_bits("fp32 -inf", tap_fp_from_fp32(0xff800000), NINF);
	want_bits("fp32 snan", tap_fp_from_fp32(0x7f800001),
		  0x7ff8000020000000ULL);
	want_bits("fp32 high bits ignored", tap_fp_from_fp32(0xffffffff3f800000ULL),
		  D(1));
	/* fp_to_string: SystemTap's "I.F", the last digit rounded half up */
	want_text(D(3.14159), 2, "3.14");
	want_text(D(3.14159), 4, "3.1416");
	want_text(D(-2.5), 3, "-2.500");
	want_text(D(0.125), 2, "0.13");
	want_text(D(-0.125), 2, "-0.13");
	want_text(D(0.96), 1, "1.0");
	want_text(D(9.99), 1, "10.0");
	want_text(D(0.5), 0, "0.5");
	want_text(D(2), -3, "2.0");
	want_text(NEG0, 2, "-0.00");
	want_text(0, 1, "0.0");
	want_text(D(0.1), 20, "0.10000000000000000555");
	want_text(D(1e20), 1, "100000000000000000000.0");
	want_text(D(123456789.0), 3, "123456789.000");
	want_text(MIN_SUB, 3, "0.000");
	want_text(D(0x1p-20), 20, "0.00000095367431640625");
	want_text(INF, 2, "inf");
	want_text(NINF, 2, "-inf");
	want_text(NAN_BITS, 2, "nan");
	{
		char small[6];

		tap_fp_to_string(small, sizeof(small), D(123.456), 3);
		if (strcmp(small, "123.4")) {
			printf("FAIL: fp_to_string into 6 bytes: \"%s\"\n", small);
			failures++;
		}
		tap_fp_to_string(small, sizeof(small), D(99.9999), 3);
		if (strcmp(small, "100.0")) {
			printf("FAIL: cut 99.9999 into 6 bytes: \"%s\"\n", small);
			failures++;
		}
	}
	/* string_to_fp: SystemTap's grammar */
	want_parse("3.14", 1, D(3.14));
	want_parse("-0.5", 1, D(-0.5));
	want_parse("+2", 1, D(2));
	want_parse("1e3", 1, D(1000));
	want_parse("1E-3", 1, D(0.001));
	want_parse("2.5e+2", 1, D(250));
	want_parse(".5", 1, D(0.5));
	want_parse("5.", 1, D(5));
	want_parse("-0", 1, NEG0);
	want_parse("", 1, 0);
	want_parse("1e400", 1, INF);
	want_parse("-1e400", 1, NINF);
	want_parse("1e-400", 1, 0);
	want_parse("4.9406564584124654e-324", 1, MIN_SUB);
	want_parse("2.4703282292062328e-324", 1, MIN_SUB);
	want_parse("2.4703282292062327e-324", 1, 0);
	want_parse("1.7976931348623157e308", 1, MAX_FIN);
	want_parse("1.7976931348623159e308", 1, INF);
	want_parse("9007199254740993", 1, D(9007199254740992.0));
	want_parse("abc", 0, 0);
	want_parse("1.2.3", 0, 0);
	want_parse(" 1", 0, 0);
	want_parse("1 ", 0, 0);
	want_parse("inf", 0, 0);
	want_parse("1e", 1, D(1));
}

static unsigned long long rnd_state = 0x2545f4914f6cdd1dULL;

static unsigned long long rnd64(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Random patterns biased to the interesting: near exponents, specials. */
static unsigned long long rnd_double(void)
{
	static const unsigned long long special[] = {
		0, NEG0, INF, NINF, NAN_BITS, MIN_SUB, MAX_FIN,
		0x000fffffffffffffULL, 0x0010000000000000ULL, 0x3ff0000000000000ULL,
	};
	unsigned long long r = rnd64();

	switch (r % 8) {
	case 0:
		return special[(r >> 8) % 10];
	case 1:	/* subnormal */
		return (r & 0x800fffffffffffffULL);
	case 2:	/* near 1 */
		return (r & 0x800fffffffffffffULL) | 0x3ff0000000000000ULL;
	default: {
		unsigned long long e = 1023 + (long long)((r >> 52) % 120) - 60;

		return (r & 0x800fffffffffffffULL) | e << 52;
	}
	}
}

static int same(unsigned long long got, double want)
{
	unsigned long long w = bits_of(want);

	if (isnan(want))	/* hardware NaN payloads differ from SoftFloat */
		return (got & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL &&
		       (got & 0x000fffffffffffffULL);
	return got == w;
}

static void oracle_cases(void)
{
	int bad = 0;

	for (int i = 0; i < 200000 && bad < 10; i++) {
		unsigned long long a = rnd_double(), b = rnd_double();
		double x = double_of(a), y = double_of(b);
		long long n = (long long)rnd64() >> (rnd64() % 64);
		char text[64];
		unsigned long long parsed;

		if (!same(tap_fp_add(a, b), x + y) ||
		    !same(tap_fp_sub(a, b), x - y) ||
		    !same(tap_fp_mul(a, b), x * y) ||
		    !same(tap_fp_div(a, b), x / y) ||
		    !same(tap_fp_sqrt(a), sqrt(x)) ||
		    !same(tap_fp_rem(a, b), remainder(x, y)) ||
		    tap_fp_eq(a, b) != (x == y) || tap_fp_lt(a, b) != (x < y) ||
		    tap_fp_le(a, b) != (x <= y) ||
		    tap_fp_from_long(n) != bits_of((double)n)) {
			printf("FAIL: %#llx op %#llx (or long %lld) disagrees with the hardware\n",
			       a, b, n);
			bad++;
		}
		if (!isnan(x) && fabs(x) < 9.2e18 &&
		    tap_fp_to_long(a, 1) != (long long)x) {
			printf("FAIL: fp_to_long(%#llx, 1) = %lld, want %lld\n", a,
			       tap_fp_to_long(a, 1), (long long)x);
			bad++;
		}
		if (!isnan(x) && !isinf(x)) {
			snprintf(text, sizeof(text), "%.*e", (int)(rnd64() % 20), x);
			if (tap_fp_from_string(text, &parsed) ||
			    parsed != bits_of(strtod(text, NULL))) {
				printf("FAIL: string_to_fp(\"%s\") = %#llx, strtod %#llx\n",
				       text, parsed, bits_of(strtod(text, NULL)));
				bad++;
			}
		}
	}
	failures += bad;
}

int main(void)
{
	hand_cases();
	oracle_cases();
	return failures != 0;
}
