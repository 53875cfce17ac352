/* SPDX-License-Identifier: GPL-2.0 */
/*
 * floatingpoint.stp: IEEE-754 binary64 arithmetic on bit patterns held in
 * a script's long, in integer arithmetic only (the kernel must not touch
 * the FPU in a probe).  Every result is correctly rounded to nearest,
 * ties to even, as SystemTap's SoftFloat-based tapset computes it; NaNs
 * propagate as SystemTap's SoftFloat does (a signaling NaN is quieted,
 * the first NaN operand wins) and invalid operations give the default
 * NaN 0x7ff8000000000000.  Portable: builds in the kernel and in user
 * space (testsuite/unit/run-tapset-check tests it there).
 *
 * The types are spelled long long so that generated code, which sees
 * these prototypes through tapc_tapset.h, and the core agree.
 */
#ifndef TAPC_RUNTIME_SOFTFLOAT_H
#define TAPC_RUNTIME_SOFTFLOAT_H

/* fp_to_long()'s rounding modes, SoftFloat's numbers. */
#define TAP_FP_ROUND_NEAR_EVEN		0
#define TAP_FP_ROUND_MIN_MAG		1
#define TAP_FP_ROUND_MIN		2
#define TAP_FP_ROUND_MAX		3
#define TAP_FP_ROUND_NEAR_MAX_MAG	4
#define TAP_FP_ROUND_ODD		6

#define TAP_FP_DEFAULT_NAN	0x7ff8000000000000ULL

/* string_to_fp()'s error, SystemTap's text. */
#define TAP_FP_ERR_FORMAT	"invalid format"

/* Inputs with more significant digits are cut to this many (plus a
 * sticky digit); up to it string_to_fp() rounds exactly. */
#define TAP_FP_MAX_DIGITS	120

unsigned long long tap_fp_add(unsigned long long a, unsigned long long b);
unsigned long long tap_fp_sub(unsigned long long a, unsigned long long b);
unsigned long long tap_fp_mul(unsigned long long a, unsigned long long b);
unsigned long long tap_fp_div(unsigned long long a, unsigned long long b);
/* IEEE remainder: a - n*b, n the quotient rounded to nearest even. */
unsigned long long tap_fp_rem(unsigned long long a, unsigned long long b);
unsigned long long tap_fp_sqrt(unsigned long long a);
int tap_fp_eq(unsigned long long a, unsigned long long b);
int tap_fp_le(unsigned long long a, unsigned long long b);
int tap_fp_lt(unsigned long long a, unsigned long long b);

unsigned long long tap_fp_from_long(long long n);
/* Rounded with @mode; NaN gives 0, too large values the nearest end of
 * the long range; an unknown mode truncates, as SoftFloat's does. */
long long tap_fp_to_long(unsigned long long a, long long mode);
/* The binary32 pattern in the low 32 bits of @f32, widened exactly. */
unsigned long long tap_fp_from_fp32(unsigned long long f32);

/**
 * tap_fp_to_string() - @a as "[-]I.F" with @precision digits in F.
 *
 * Digits are exact and the last one rounded half away from zero, as
 * SystemTap prints them; a @precision below 1 gives one digit.  NaN and
 * infinities are "nan", "-nan", "inf", "-inf".  The text is cut to
 * @size - 1 bytes; @precision is reduced so that the fraction fits.
 */
void tap_fp_to_string(char *out, unsigned long size, unsigned long long a,
		      long long precision);

/**
 * tap_fp_from_string() - The number @s writes, correctly rounded.
 *
 * Accepts SystemTap's grammar: [+-]digits[.digits][(e|E)[+-]digits],
 * each part possibly empty, nothing before or after.
 *
 * Return: 0 and the bits in *@out, or -1 for any other text.
 */
int tap_fp_from_string(const char *s, unsigned long long *out);

/* Shared by softfloat.c and softfloat_dec.c: round (-1)^@sign * @sig *
 * 2^@exp, bit 0 of @sig a sticky bit, to binary64 with @mode. */
typedef unsigned long long bits64;
bits64 tap_fp_round_pack(int sign, int exp, bits64 sig, int mode);

#endif /* TAPC_RUNTIME_SOFTFLOAT_H */
