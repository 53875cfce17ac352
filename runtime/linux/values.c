// SPDX-License-Identifier: GPL-2.0
/*
 * Arithmetic that can fail and the C library's string basics, for
 * generated code, which includes no kernel header.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/limits.h>
#include "tap_internal.h"

long long tap_div(struct tap_context *c, long long a, long long b)
{
	if (b == 0) {
		tap_error(c, "division by 0");
		return 0;
	}
	/* LLONG_MIN / -1 traps on x86; SystemTap's result wraps to LLONG_MIN. */
	if (b == -1)
		return (long long)(0 - (unsigned long long)a);
	return a / b;
}

long long tap_callsite_value(struct tap_context *c, long long value, long long matched)
{
	if (!matched) {
		tap_error(c, "unknown callsite");
		return 0;
	}
	return value;
}

long long tap_mod(struct tap_context *c, long long a, long long b)
{
	if (b == 0) {
		tap_error(c, "division by 0");
		return 0;
	}
	if (b == -1)
		return 0;
	return a % b;
}

unsigned long tap_strlen(const char *s)
{
	return strlen(s);
}

unsigned long tap_strlcpy(char *dst, const char *src, unsigned long size)
{
	unsigned long len = strlen(src), n;

	if (size) {
		n = min(len, size - 1);
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

unsigned long tap_strlcat(char *dst, const char *src, unsigned long size)
{
	unsigned long have = strnlen(dst, size);

	if (have == size)
		return size + strlen(src);
	return have + tap_strlcpy(dst + have, src, size - have);
}

int tap_strcmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

void *tap_memset(void *s, int ch, unsigned long n)
{
	return memset(s, ch, n);
}

void *tap_memcpy(void *dst, const void *src, unsigned long n)
{
	return memcpy(dst, src, n);
}
