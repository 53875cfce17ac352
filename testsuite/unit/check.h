/* The unit tests' one assertion: CHECK(cond, fmt, ...) counts a pass, or
 * counts a failure and prints "FILE:LINE: FAIL: message".  A test program
 * ends with check_summary(), which prints the "N passed, N failed" line
 * that run-unit-tests adds up and returns the exit status. */
#ifndef TAPC_UNIT_CHECK_H
#define TAPC_UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_passed, check_failed;

static void check_at(int ok, const char *file, int line, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

static void check_at(int ok, const char *file, int line, const char *fmt,
		     ...)
{
	va_list ap;

	if (ok) {
		check_passed++;
		return;
	}
	check_failed++;
	printf("%s:%d: FAIL: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define CHECK(cond, ...) check_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Print the result line, prefixed with @label when it is not NULL. */
static inline int check_summary(const char *label)
{
	if (label)
		printf("%s: ", label);
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
