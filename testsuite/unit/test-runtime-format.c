/* Unit tests for the runtime's printf engine (runtime/core/format.c) and
 * string functions (runtime/core/strings.c), built in user space.
 *
 * Expected outputs are SystemTap's.  Where SystemTap and C's printf agree
 * the test says nothing; where they differ the comment says what C would
 * print, so a reader can tell a deliberate difference from a slip.  The
 * byte order of %b is the host's, as SystemTap's is the target's.
 *
 * Prints one line per failed check and ends with "N passed, N failed";
 * exits non-zero when anything failed.
 *
 * Build: gcc -std=gnu11 -Wall -Wextra -Werror -I runtime/core \
 *   testsuite/unit/test-runtime-format.c runtime/core/format.c \
 *   runtime/core/strings.c
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format.h"
#include "strfn.h"

#define MAXSTRINGLEN 512

/* CHECK() and check_summary(): check.h */

/* Show bytes readably in failure messages. */
static const char *show(const char *s, int n)
{
	static char bufs[2][2048];
	static int which;
	char *b = bufs[which ^= 1];
	int i, o = 0;

	if (n < 0)
		return "(error)";
	b[o++] = '"';
	for (i = 0; i < n && o < (int)sizeof(bufs[0]) - 8; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			b[o++] = (char)c;
		else
			o += sprintf(b + o, "\\x%02x", c);
	}
	b[o++] = '"';
	b[o] = '\0';
	return b;
}

/* ---- a fake address space for %m and %M ---------------------------- */

#define MEM_BASE 0x1000u
static const unsigned char mem_bytes[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ\x01\xff";
static int mem_calls;
static bool mem_last_user;
static u64 mem_highest;		/* one past the highest byte read */

static int fake_read(void *priv, void *dst, u64 addr, size_t len, bool user)
{
	(void)priv;
	mem_calls++;
	mem_last_user = user;
	if (addr < MEM_BASE || addr - MEM_BASE + len > sizeof(mem_bytes))
		return -EFAULT;
	memcpy(dst, mem_bytes + (addr - MEM_BASE), len);
	if (addr + len > mem_highest)
		mem_highest = addr + len;
	return 0;
}

static const struct tap_mem_ops fake_mem = { .read = fake_read };

/* ---- format checks ---------------------------------------------------- */

/*
 * Format into a MAXSTRINGLEN buffer and compare @n bytes with @want; also
 * check that the sizing pass agrees, since nothing is cut here.
 */
static void fmt_check(int line, const char *want, int n, const char *fmt,
		      const struct tap_arg *args, int nargs)
{
	char buf[MAXSTRINGLEN];
	int got, len;

	memset(buf, 'Z', sizeof(buf));
	got = tap_format(buf, sizeof(buf), fmt, args, nargs, &fake_mem);
	check_at(got == n && !memcmp(buf, want, (size_t)n) && buf[n] == '\0',
		 __FILE__, line, "format \"%s\": got %s, want %s", fmt, show(buf, got),
	      show(want, n));
	len = tap_format_len(fmt, args, nargs, 4096);
	check_at(len == n, __FILE__, line,
		 "format_len \"%s\": got %d, want %d", fmt, len, n);
}

#define A(...) ((const struct tap_arg[]){ __VA_ARGS__ })
#define NA(...) ((int)(sizeof(A(__VA_ARGS__)) / sizeof(struct tap_arg)))
/* FMT(want, fmt, args...): want is a C string. */
#define FMT(want, fmt, ...) \
	fmt_check(__LINE__, want, (int)strlen(want), fmt, A(__VA_ARGS__), \
		  NA(__VA_ARGS__))
/* FMTN(want, n, fmt, args...): want holds n bytes, NULs allowed. */
#define FMTN(want, n, fmt, ...) \
	fmt_check(__LINE__, want, n, fmt, A(__VA_ARGS__), NA(__VA_ARGS__))
#define FMT0(want, fmt) fmt_check(__LINE__, want, (int)strlen(want), fmt, \
				  NULL, 0)

/* Format into a buffer of @size bytes and compare the string. */
static void cut_check(int line, size_t size, const char *want,
		      const char *fmt, const struct tap_arg *args, int nargs)
{
	char buf[64];
	int got;

	memset(buf, 'Z', sizeof(buf));
	got = tap_format(buf, size, fmt, args, nargs, &fake_mem);
	check_at(got == (int)strlen(want) && !strcmp(buf, want) &&
		 buf[size] == 'Z', __FILE__, line,
	      "format \"%s\" in %zu bytes: got %s (%d), want %s", fmt, size,
	      show(buf, got), got, show(want, (int)strlen(want)));
}

#define CUT(size, want, fmt, ...) \
	cut_check(__LINE__, size, want, fmt, A(__VA_ARGS__), NA(__VA_ARGS__))

static void test_integers(void)
{
	FMT("42", "%d", TAP_LONG(42));
	FMT("-42", "%i", TAP_LONG(-42));
	FMT("9223372036854775807", "%d", TAP_LONG(INT64_MAX));
	FMT("-9223372036854775808", "%d", TAP_LONG(INT64_MIN));
	FMT("18446744073709551615", "%u", TAP_LONG(-1));
	FMT("ffffffffffffffff", "%x", TAP_LONG(-1));
	FMT("FF", "%X", TAP_LONG(255));
	FMT("10", "%o", TAP_LONG(8));
	FMT("1777777777777777777777", "%o", TAP_LONG(-1));
	FMT("5", "%ld", TAP_LONG(5));
	FMT("5", "%lx", TAP_LONG(5));

	/* '#': SystemTap prefixes zero too (C prints "0" for both). */
	FMT("00", "%#o", TAP_LONG(0));
	FMT("0x0", "%#x", TAP_LONG(0));
	FMT("010", "%#o", TAP_LONG(8));
	FMT("0xff", "%#x", TAP_LONG(255));
	FMT("0XFF", "%#X", TAP_LONG(255));
	FMT("42", "%#d", TAP_LONG(42));

	/* %p is %#x of the 64-bit value (C's %p differs by libc). */
	FMT("0x0", "%p", TAP_LONG(0));
	FMT("0x1234", "%p", TAP_LONG(0x1234));
	FMT("0xffffffff81000000", "%p", TAP_LONG((s64)0xffffffff81000000ull));
	FMT("              0x1234", "%20p", TAP_LONG(0x1234));
	FMT("0x1234              |", "%-20p|", TAP_LONG(0x1234));
	FMT("0x000000000000001234", "%020p", TAP_LONG(0x1234));

	/* Widths, signs, precision. */
	FMT("   42", "%5d", TAP_LONG(42));
	FMT("42   |", "%-5d|", TAP_LONG(42));
	FMT("-0042", "%05d", TAP_LONG(-42));
	FMT("+5", "%+d", TAP_LONG(5));
	FMT("-5", "%+d", TAP_LONG(-5));
	FMT(" 5", "% d", TAP_LONG(5));
	FMT("   42", "% 5d", TAP_LONG(42));
	FMT("5", "%+u", TAP_LONG(5));
	FMT("ff", "%+x", TAP_LONG(255));
	FMT("007", "%.3d", TAP_LONG(7));
	FMT("    -007", "%8.3d", TAP_LONG(-7));
	FMT("0000beef", "%08x", TAP_LONG(0xbeef));
	/* One flag only: "08" after '#' is the width (C: "0x00beef"). */
	FMT("  0xbeef", "%#08x", TAP_LONG(0xbeef));
	FMT("   0xbeef", "%#9x", TAP_LONG(0xbeef));
	/* A zero precision still prints the zero (C prints ""). */
	FMT("0", "%.0d", TAP_LONG(0));
	/* '0' pads even with a precision (C: "  007"). */
	FMT("00007", "%05.3d", TAP_LONG(7));
	/* One flag only: "05" after '+' is the width (C: "+0042"). */
	FMT("  +42", "%+05d", TAP_LONG(42));
	FMT("42   |", "%-05d|", TAP_LONG(42));
	/* "%.d": a '.' without digits leaves the precision unspecified. */
	FMT("0", "%.d", TAP_LONG(0));

	/* '*' widths and precisions. */
	FMT("   42", "%*d", TAP_LONG(5), TAP_LONG(42));
	FMT("00042", "%.*d", TAP_LONG(5), TAP_LONG(42));
	FMT("  007", "%*.*d", TAP_LONG(5), TAP_LONG(3), TAP_LONG(7));
	/* A negative '*' width is 0, not left alignment (C: "42   "). */
	FMT("42", "%*d", TAP_LONG(-5), TAP_LONG(42));
	/* ...taken as a 32-bit int first: 2^32 + 3 is 3. */
	FMT("  7", "%*d", TAP_LONG(0x100000003ll), TAP_LONG(7));
}

static void test_chars(void)
{
	char want[4];

	FMT("A", "%c", TAP_LONG(65));
	FMT("A", "%c", TAP_LONG(256 + 65));	/* the low byte only */
	FMT("  x", "%3c", TAP_LONG('x'));
	FMT("x  |", "%-3c|", TAP_LONG('x'));
	FMTN("\0", 1, "%c", TAP_LONG(0));
	want[0] = (char)0xc8;
	FMTN(want, 1, "%c", TAP_LONG(200));
	/* '#' escapes as a C character literal. */
	FMT("\\n", "%#c", TAP_LONG('\n'));
	FMT("\\001", "%#c", TAP_LONG(1));
	FMT("\\000", "%#c", TAP_LONG(0));
	FMT("\\'", "%#c", TAP_LONG('\''));
	FMT("\\\\", "%#c", TAP_LONG('\\'));
	FMT("\"", "%#c", TAP_LONG('"'));
	FMT("\\310", "%#c", TAP_LONG(200));
	FMT("\\177", "%#c", TAP_LONG(127));
	FMT("a", "%#c", TAP_LONG('a'));
	FMT("   \\t", "%#5c", TAP_LONG('\t'));
	FMT("  \\001", "%#6c", TAP_LONG(1));
	FMT("\xff     |", "%-6c|", TAP_LONG(-1));
}

static void test_strings(void)
{
	FMT("hello", "%s", TAP_STR("hello"));
	FMT("     hello", "%10s", TAP_STR("hello"));
	FMT("hello     |", "%-10s|", TAP_STR("hello"));
	FMT("hel", "%.3s", TAP_STR("hello"));
	FMT("", "%.0s", TAP_STR("hello"));
	FMT("  hel", "%5.3s", TAP_STR("hello"));
	FMT("<NULL>", "%s", TAP_STR(NULL));
	FMT("    ab", "%*s", TAP_LONG(6), TAP_STR("ab"));
	FMT("ab    |", "%-*s|", TAP_LONG(6), TAP_STR("ab"));
	FMT("he", "%.*s", TAP_LONG(2), TAP_STR("hello"));
	FMT("", "%.*s", TAP_LONG(-2), TAP_STR("hello"));
	FMT("ab", "%*s", TAP_LONG(-6), TAP_STR("ab"));	/* C: "ab    " */
	FMT("a\nb", "%#s", TAP_STR("a\nb"));
	FMT("x", "%ls", TAP_STR("x"));
	/* '0' appends a NUL byte to a string field. */
	FMTN("ab\0", 3, "%0s", TAP_STR("ab"));
	FMTN("   ab\0|", 7, "%05s|", TAP_STR("ab"));
	FMT("a=1 b=two c=0x3", "a=%d b=%s c=%p",
	    TAP_LONG(1), TAP_STR("two"), TAP_LONG(3));
}

static void test_literals(void)
{
	FMT0("plain", "plain");
	FMT0("", "");
	FMT0("100%", "100%%");
	FMT0("%%", "%%%%");
	FMT0("a%b", "a%%b");
	/* A lone '%' at the end is text; "%." and "%l" there vanish. */
	FMT0("100%", "100%");
	FMT0("ab", "ab%.");
	FMT0("ab", "ab%l");
	FMT("x=5%", "x=%d%%", TAP_LONG(5));
}

static void test_binary(void)
{
	union {
		s64 v8;
		s32 v4;
		s16 v2;
		s8 v1;
		char b[8];
	} u;
	char want[16];
	const s64 v = 0x0102030405060708ll;

	u.v8 = v;
	FMTN(u.b, 8, "%b", TAP_LONG(v));
	FMTN(u.b, 8, "%8b", TAP_LONG(v));
	FMTN(u.b, 8, "%.3b", TAP_LONG(v));	/* bad precision: 8 */
	FMTN(u.b, 8, "%3b", TAP_LONG(v));	/* bad width: 8, no pad */
	u.v4 = (s32)v;
	FMTN(u.b, 4, "%4b", TAP_LONG(v));
	FMTN(u.b, 4, "%.4b", TAP_LONG(v));
	u.v2 = (s16)v;
	FMTN(u.b, 2, "%2b", TAP_LONG(v));
	FMT("A", "%1b", TAP_LONG(0x41));
	FMT("A", "%.1b", TAP_LONG(0x4241));
	memset(want, 0, sizeof(want));
	memcpy(want + 8, u.b, 2);
	FMTN(want, 10, "%10.2b", TAP_LONG(v));
	memset(want, 0, sizeof(want));
	memcpy(want, u.b, 2);
	FMTN(want, 10, "%-10.2b", TAP_LONG(v));
	FMTN("a\0\0\0\0\0\0\0\0b", 10, "a%bb", TAP_LONG(0));
}

static void test_memory(void)
{
	char buf[MAXSTRINGLEN];
	int rc;

	FMT("A", "%m", TAP_LONG(MEM_BASE));
	FMT("A", "%.0m", TAP_LONG(MEM_BASE));
	FMT("BCDEF", "%.5m", TAP_LONG(MEM_BASE + 1));
	FMT("41424344", "%.4M", TAP_LONG(MEM_BASE));
	FMT("41", "%M", TAP_LONG(MEM_BASE));
	FMT("01ff", "%.2M", TAP_LONG(MEM_BASE + 26));
	FMT("      4142", "%10.2M", TAP_LONG(MEM_BASE));
	FMT("4142      |", "%-10.2M|", TAP_LONG(MEM_BASE));
	FMT("     AB", "%7.2m", TAP_LONG(MEM_BASE));
	FMT("XYZ", "%.*m", TAP_LONG(3), TAP_LONG(MEM_BASE + 23));
	FMTN("ABC\0", 4, "%0.3m", TAP_LONG(MEM_BASE));

	/* '#' reads user memory. */
	mem_last_user = false;
	FMT("ABC", "%#.3m", TAP_LONG(MEM_BASE));
	CHECK(mem_last_user, "%%#m should read user memory");
	FMT("ABC", "%.3m", TAP_LONG(MEM_BASE));
	CHECK(!mem_last_user, "%%m should read kernel memory");

	/* Faults and a missing reader are errors. */
	rc = tap_format(buf, sizeof(buf), "x%.4m", A(TAP_LONG(0x10)), 1,
			&fake_mem);
	CHECK(rc == -EFAULT, "fault: got %d", rc);
	CHECK(!strcmp(buf, "x"), "fault keeps the prefix: got %s",
	      show(buf, (int)strlen(buf)));
	rc = tap_format(buf, sizeof(buf), "%M", A(TAP_LONG(MEM_BASE)), 1,
			NULL);
	CHECK(rc == -EFAULT, "no reader: got %d", rc);

	/* Sizing reads nothing. */
	mem_calls = 0;
	rc = tap_format_len("%.100m%.100M", A(TAP_LONG(0), TAP_LONG(0)), 2,
			    4096);
	CHECK(rc == 300 && mem_calls == 0, "len of %%m/%%M: %d, %d reads",
	      rc, mem_calls);

	/* A long %m is read in pieces; all of it arrives. */
	rc = tap_format(buf, sizeof(buf), "%.28m", A(TAP_LONG(MEM_BASE)), 1,
			&fake_mem);
	CHECK(rc == 28 && !memcmp(buf, mem_bytes, 28), "%%.28m: %d", rc);
}

static void test_cut(void)
{
	char buf[16];
	int rc;

	CUT(8, "hello w", "%s", TAP_STR("hello world"));
	CUT(8, "hello w", "hello %s", TAP_STR("world"));
	CUT(1, "", "%d", TAP_LONG(12345));
	/* Widths are clamped to the space left, so the value still ends
	 * the field; 5 spaces and "12345" fill 10 bytes, the last is NUL. */
	CUT(10, "     1234", "%20d", TAP_LONG(12345));
	CUT(10, "ab       ", "%-20s|", TAP_STR("ab"));
	CUT(10, "ab:  1234", "ab:%20d", TAP_LONG(12345));
	/* A %b value that does not fit is left out; what follows is kept. */
	CUT(6, "abcd", "ab%bcd", TAP_LONG(0x4141414141414141ll));
	/*
	 * %M writes a pair while a byte is left after its first digit and
	 * reads only the bytes it writes; the final NUL then takes the last.
	 */
	mem_highest = 0;
	CUT(6, "41424", "%.8M", TAP_LONG(MEM_BASE));
	CHECK(mem_highest == MEM_BASE + 3, "cut %%M read up to %#llx",
	      (unsigned long long)mem_highest);
	mem_highest = 0;
	CUT(4, "ABC", "%.8m", TAP_LONG(MEM_BASE));
	CHECK(mem_highest == MEM_BASE + 4, "cut %%m read up to %#llx",
	      (unsigned long long)mem_highest);
	/* Nothing is read when nothing fits... */
	mem_calls = 0;
	CUT(2, "a", "ab%.8m", TAP_LONG(0x10));
	CHECK(mem_calls == 0, "cut %%m with no room read %d times",
	      mem_calls);
	/* ...but SystemTap reads into the last byte, which the NUL takes. */
	rc = tap_format(buf, 3, "ab%.8m", A(TAP_LONG(0x10)), 1, &fake_mem);
	CHECK(rc == -EFAULT, "fault in the last byte: %d", rc);

	/* size 0 stores nothing at all. */
	buf[0] = 'Q';
	rc = tap_format(buf, 0, "%s", A(TAP_STR("x")), 1, NULL);
	CHECK(rc == 0 && buf[0] == 'Q', "size 0: %d %c", rc, buf[0]);

	/* The sizing pass clamps widths to its limit. */
	rc = tap_format_len("%5000d", A(TAP_LONG(1)), 1, 100);
	CHECK(rc == 100, "len with limit: %d", rc);
	rc = tap_format_len("%.*s", A(TAP_LONG(9999), TAP_STR("abc")), 2, 10);
	CHECK(rc == 3, "len of %%.*s: %d", rc);
	rc = tap_format_len("x%20sy", A(TAP_STR("abc")), 1, 10);
	CHECK(rc == 12, "len of x%%20sy with limit 10: %d", rc);
	/* printf's recipe: size it, then format into exactly that. */
	rc = tap_format_len("%-6d|%#x", A(TAP_LONG(42), TAP_LONG(255)), 2,
			    4096);
	CHECK(rc == 11, "len: %d", rc);
	rc = tap_format(buf, (size_t)rc + 1, "%-6d|%#x",
			A(TAP_LONG(42), TAP_LONG(255)), 2, NULL);
	CHECK(rc == 11 && !strcmp(buf, "42    |0xff"), "exact: %d %s", rc,
	      buf);
}

static void test_bad_args(void)
{
	char buf[32];
	int rc;

#define BAD(fmt, ...) do { \
	rc = tap_format(buf, sizeof(buf), fmt, A(__VA_ARGS__), \
			NA(__VA_ARGS__), NULL); \
	CHECK(rc == -EINVAL, "\"%s\" with bad args: %d", fmt, rc); \
	rc = tap_format_len(fmt, A(__VA_ARGS__), NA(__VA_ARGS__), 100); \
	CHECK(rc == -EINVAL, "len \"%s\" with bad args: %d", fmt, rc); \
} while (0)
	BAD("%d", TAP_STR("x"));
	BAD("%s", TAP_LONG(1));
	BAD("%d %d", TAP_LONG(1));
	BAD("%d", TAP_LONG(1), TAP_LONG(2));
	BAD("%*d", TAP_LONG(1));
	BAD("%*d", TAP_STR("1"), TAP_LONG(1));
	BAD("%.*s", TAP_STR("1"), TAP_STR("x"));
	BAD("%k", TAP_LONG(1));
	BAD("%5", TAP_LONG(1));
#undef BAD
	rc = tap_format(buf, sizeof(buf), "%d", NULL, 0, NULL);
	CHECK(rc == -EINVAL, "no args: %d", rc);
}

/* ---- the format checker ------------------------------------------------ */

static void test_check(void)
{
	enum tap_arg_kind k[16];
	const char *err;
	int off, n, i;
	static const enum tap_arg_kind want[] = {
		TAP_ARG_LONG, TAP_ARG_STRING, TAP_ARG_LONG, TAP_ARG_LONG,
		TAP_ARG_LONG, TAP_ARG_LONG, TAP_ARG_LONG, TAP_ARG_LONG,
		TAP_ARG_LONG, TAP_ARG_LONG, TAP_ARG_LONG, TAP_ARG_LONG,
		TAP_ARG_STRING,
	};

	n = tap_format_check("%d %s %*.*x %c %p %b %m %M %% %i%-*s", k, 16,
			     &err, &off);
	CHECK(n == 13, "count: %d", n);
	for (i = 0; i < n && i < 13; i++)
		CHECK(k[i] == want[i], "kind %d: %d", i, k[i]);
	n = tap_format_check("%d %d %d", k, 2, &err, &off);
	CHECK(n == 3, "count beyond room: %d", n);
	n = tap_format_check("%d %s", NULL, 0, &err, &off);
	CHECK(n == 2, "count without kinds: %d", n);

#define OK(fmt, count) do { \
	n = tap_format_check(fmt, k, 16, &err, &off); \
	CHECK(n == (count), "\"%s\": %d args, want %d", fmt, n, count); \
} while (0)
	OK("", 0);
	OK("no directives", 0);
	OK("100%%", 0);
	OK("100%", 0);
	OK("%d %", 1);
	OK("abc%.", 0);
	OK("%l", 0);
	OK("%ld %lu %lx", 3);
	OK("%-5d %+d % d %#x %05d", 5);
	OK("%-*.*s", 3);
	OK("%.d", 1);
#undef OK

#define BAD(fmt, msg, at) do { \
	err = NULL; \
	off = -1; \
	n = tap_format_check(fmt, k, 16, &err, &off); \
	CHECK(n == -1 && err && !strcmp(err, msg) && off == (at), \
	      "\"%s\": %d, \"%s\" at %d; want \"%s\" at %d", fmt, n, \
	      err ? err : "(none)", off, msg, at); \
} while (0)
	BAD("%k", TAP_FMT_ERR_CONVERSION, 1);
	BAD("ab %q", TAP_FMT_ERR_CONVERSION, 4);
	BAD("%lld", TAP_FMT_ERR_CONVERSION, 2);
	BAD("%hd", TAP_FMT_ERR_CONVERSION, 1);
	BAD("%-+d", TAP_FMT_ERR_CONVERSION, 2);	/* one flag only */
	BAD("%0#8x", TAP_FMT_ERR_CONVERSION, 2);
	BAD("%5%", TAP_FMT_ERR_CONVERSION, 2);
	BAD("%*5d", TAP_FMT_ERR_CONVERSION, 2);
	BAD("%f", TAP_FMT_ERR_CONVERSION, 1);
	BAD("%n", TAP_FMT_ERR_CONVERSION, 1);
	BAD("%d % ", TAP_FMT_ERR_TRAILING, 5);	/* flag , then end */
	BAD("%5", TAP_FMT_ERR_TRAILING, 2);
	BAD("%-", TAP_FMT_ERR_TRAILING, 2);
	BAD("%.5", TAP_FMT_ERR_TRAILING, 3);
	BAD("%*", TAP_FMT_ERR_TRAILING, 2);
	BAD("%.*", TAP_FMT_ERR_TRAILING, 3);
	BAD("%5l", TAP_FMT_ERR_TRAILING, 3);
	BAD("%#", TAP_FMT_ERR_TRAILING, 2);
#undef BAD
	CHECK(!strcmp(TAP_FMT_ERR_NARGS,
		      "Wrong number of args to formatted print operator"),
	      "nargs message");
}

/* ---- string functions -------------------------------------------------- */

#define STREQ(got, want) CHECK(!strcmp(got, want), "got %s, want %s", \
			       show(got, (int)strlen(got)), \
			       show(want, (int)strlen(want)))

static void test_basic_strings(void)
{
	char out[MAXSTRINGLEN];
	const char *err;
	size_t n;

	CHECK(tap_str_length("hello", MAXSTRINGLEN) == 5, "strlen");
	CHECK(tap_str_length("", MAXSTRINGLEN) == 0, "strlen empty");
	CHECK(tap_str_length("hello", 3) == 3, "strlen bounded");

	n = tap_substr(out, MAXSTRINGLEN, "hello", 1, 3);
	STREQ(out, "ell");
	CHECK(n == 3, "substr length %zu", n);
	tap_substr(out, MAXSTRINGLEN, "hello", 0, 100);
	STREQ(out, "hello");
	tap_substr(out, MAXSTRINGLEN, "hello", 4, 100);
	STREQ(out, "o");
	tap_substr(out, MAXSTRINGLEN, "hello", 5, 1);
	STREQ(out, "");
	tap_substr(out, MAXSTRINGLEN, "hello", -1, 2);
	STREQ(out, "");
	tap_substr(out, MAXSTRINGLEN, "hello", 2, 0);
	STREQ(out, "");
	tap_substr(out, MAXSTRINGLEN, "hello", 2, -5);
	STREQ(out, "");
	tap_substr(out, MAXSTRINGLEN, "hello", 1, INT64_MAX);
	STREQ(out, "");		/* length + 1 wraps */
	tap_substr(out, MAXSTRINGLEN, "hello", 1, INT64_MAX - 1);
	STREQ(out, "ello");
	tap_substr(out, 4, "hello", 0, 10);
	STREQ(out, "hel");

	err = NULL;
	CHECK(tap_stringat("abc", 1, &err) == 'b' && !err, "stringat");
	CHECK(tap_stringat("abc", 3, &err) == 0 && err &&
	      !strcmp(err, "Position out of bounds"), "stringat past end");
	err = NULL;
	CHECK(tap_stringat("abc", -1, &err) == 0 && err, "stringat -1");
	err = NULL;
	CHECK(tap_stringat("\xff", 0, &err) == -1 && !err,
	      "stringat of 0xff is a signed char");

	CHECK(tap_isinstr("hello", "ll") == 1, "isinstr");
	CHECK(tap_isinstr("hello", "") == 1, "isinstr empty");
	CHECK(tap_isinstr("hello", "xyz") == 0, "isinstr none");
	CHECK(tap_isinstr("", "a") == 0, "isinstr in empty");

	CHECK(tap_strpos("hello", "l") == 2, "strpos");
	CHECK(tap_strpos("hello", "") == 0, "strpos empty");
	CHECK(tap_strpos("hello", "z") == -1, "strpos none");
	CHECK(tap_strpos("hello", "hello") == 0, "strpos whole");
	CHECK(tap_strpos("hello", "lo") == 3, "strpos lo");

	tap_str_replace(out, MAXSTRINGLEN, "hello world", "o", "0");
	STREQ(out, "hell0 w0rld");
	tap_str_replace(out, MAXSTRINGLEN, "aaa", "aa", "b");
	STREQ(out, "ba");
	tap_str_replace(out, MAXSTRINGLEN, "abc", "", "x");
	STREQ(out, "abc");
	tap_str_replace(out, MAXSTRINGLEN, "abc", "b", "");
	STREQ(out, "ac");
	tap_str_replace(out, MAXSTRINGLEN, "abc", "abc", "xyz");
	STREQ(out, "xyz");
	tap_str_replace(out, MAXSTRINGLEN, "", "a", "b");
	STREQ(out, "");
	n = tap_str_replace(out, 8, "abcabc", "b", "XYZ");
	STREQ(out, "aXYZcaX");
	CHECK(n == 7, "str_replace cut length %zu", n);
	tap_str_replace(out, 4, "abcdef", "", "x");
	STREQ(out, "abc");

	CHECK(tap_isdigit("5a") == 1, "isdigit");
	CHECK(tap_isdigit("a5") == 0, "isdigit letter");
	CHECK(tap_isdigit("") == 0, "isdigit empty");
}

static void test_strtol(void)
{
#define STRTOL(s, base, want) do { \
	s64 got_ = tap_strtol(s, base); \
	CHECK(got_ == (s64)(want), "strtol(\"%s\", %lld) = %lld, want %lld", \
	      s, (long long)(base), (long long)got_, (long long)(want)); \
} while (0)
	STRTOL("123", 10, 123);
	STRTOL("-123", 10, -123);
	STRTOL("0x1f", 16, 31);
	STRTOL("0X1F", 16, 31);
	STRTOL("1f", 16, 31);
	STRTOL("0x1f", 0, 31);
	STRTOL("017", 0, 15);
	STRTOL("17", 0, 17);
	STRTOL("0x", 0, 0);		/* no hex digit: octal "0" */
	STRTOL("0xg", 16, 0);
	STRTOL("-0x10", 0, -16);
	STRTOL("101", 2, 5);
	STRTOL("12", 2, 1);
	STRTOL("777", 8, 511);
	STRTOL("8", 8, 0);
	STRTOL("f", 36, 15);
	STRTOL("z", 36, 0);		/* only hex digits are read */
	STRTOL("12abc", 10, 12);
	STRTOL("12abc", 0, 12);
	STRTOL(" 12", 10, 0);		/* no leading space */
	STRTOL("+12", 10, 0);		/* no '+' */
	STRTOL("--5", 10, 0);
	STRTOL("", 10, 0);
	STRTOL("-", 10, 0);
	STRTOL("10", 1, 0);
	STRTOL("9223372036854775807", 10, INT64_MAX);
	STRTOL("-9223372036854775808", 10, INT64_MIN);
	STRTOL("18446744073709551615", 10, -1);
	STRTOL("99999999999999999999", 10, 7766279631452241919ll);
	STRTOL("ff", -1, 64424509440ll);	/* base 0xffffffff */
	STRTOL("10", 0x100000010ll, 16);	/* base taken as 32-bit */
#undef STRTOL
}

static void test_text_str(void)
{
	char out[MAXSTRINGLEN];
	int rc;

	tap_text_str(out, MAXSTRINGLEN, "hello\n");
	STREQ(out, "hello\\n");
	tap_text_str(out, MAXSTRINGLEN, "a\"b\\c");
	STREQ(out, "a\\\"b\\\\c");
	tap_text_str(out, MAXSTRINGLEN, "'");
	STREQ(out, "'");
	tap_text_str(out, MAXSTRINGLEN, "\a\b\f\r\t\v");
	STREQ(out, "\\a\\b\\f\\r\\t\\v");
	tap_text_str(out, MAXSTRINGLEN, "\x01\x1b\x7f");
	STREQ(out, "\\001\\033\\177");
	tap_text_str(out, MAXSTRINGLEN, "\xc3\xa9");	/* e acute */
	STREQ(out, "\\u00E9");
	tap_text_str(out, MAXSTRINGLEN, "\xe2\x82\xac");	/* euro */
	STREQ(out, "\\u20AC");
	tap_text_str(out, MAXSTRINGLEN, "\xf0\x9f\x98\x80");	/* emoji */
	STREQ(out, "\\U0001F600");
	tap_text_str(out, MAXSTRINGLEN, "\xc3(");		/* bad tail */
	STREQ(out, "\\303(");
	tap_text_str(out, MAXSTRINGLEN, "\xc0\x80");	/* overlong */
	STREQ(out, "\\300\\200");
	tap_text_str(out, MAXSTRINGLEN, "\xed\xa0\x80");	/* surrogate */
	STREQ(out, "\\355\\240\\200");
	tap_text_str(out, MAXSTRINGLEN, "\xf4\x90\x80\x80"); /* >max */
	STREQ(out, "\\364\\220\\200\\200");
	tap_text_str(out, MAXSTRINGLEN, "\xe2\x82");		/* short */
	STREQ(out, "\\342\\202");
	tap_text_str(out, MAXSTRINGLEN, "");
	STREQ(out, "");
	tap_text_str(out, 4, "abcdef");
	STREQ(out, "abc");
	tap_text_str(out, 6, "a\xc3\xa9");	/* \u00E9 does not fit */
	STREQ(out, "a");
	tap_text_str(out, 5, "ab\n");		/* nor does a cut escape */
	STREQ(out, "ab\\n");
	tap_text_str(out, 4, "ab\n");
	STREQ(out, "ab");

	tap_text_strn(out, MAXSTRINGLEN, "hello", 0, 0);
	STREQ(out, "hello");
	tap_text_strn(out, MAXSTRINGLEN, "hello", 3, 0);
	STREQ(out, "hel");
	tap_text_strn(out, MAXSTRINGLEN, "hello", -3, 0);
	STREQ(out, "hello");
	tap_text_strn(out, MAXSTRINGLEN, "hello", 0, 1);
	STREQ(out, "\"hello\"");
	tap_text_strn(out, MAXSTRINGLEN, "hello", 7, 1);
	STREQ(out, "\"hello\"");
	tap_text_strn(out, MAXSTRINGLEN, "hello world", 8, 1);
	STREQ(out, "\"hel\"...");
	tap_text_strn(out, MAXSTRINGLEN, "hello", 3, 1);	/* 3 -> 5 */
	STREQ(out, "\"\"...");
	tap_text_strn(out, MAXSTRINGLEN, "a\nbcdef", 7, 1);
	STREQ(out, "\"a\"...");		/* not "a\ cut in half */
	tap_text_strn(out, MAXSTRINGLEN, "ab\ncdef", 7, 1);
	STREQ(out, "\"ab\"...");
	tap_text_strn(out, MAXSTRINGLEN, "hi", 0, 0x100000000ll);
	STREQ(out, "hi");		/* quoted's low 32 bits are 0 */

	tap_string_quoted(out, MAXSTRINGLEN, "hi\t");
	STREQ(out, "\"hi\\t\"");
	tap_string_quoted(out, MAXSTRINGLEN, "");
	STREQ(out, "\"\"");
	tap_string_quoted(out, 12, "abcdefghijklmnop");
	STREQ(out, "\"abcdef\"...");
	CHECK(strlen(out) == 11, "string_quoted fills the buffer");

	rc = tap_text_str_raw(out, MAXSTRINGLEN, "a\0b", 3, 0, false, true);
	STREQ(out, "a\\0b");
	CHECK(rc == 0, "buffer mode rc %d", rc);
	tap_text_str_raw(out, MAXSTRINGLEN, "abcdef", 3, 0, false, false);
	STREQ(out, "abc");
	rc = tap_text_str_raw(out, 5, "abc", 0, 0, true, false);
	CHECK(rc == -EINVAL && !out[0], "quoted in 5 bytes: %d", rc);
	rc = tap_text_str_raw(out, 0, "abc", 0, 0, false, false);
	CHECK(rc == -EINVAL, "size 0: %d", rc);
}

static void test_tokenize(void)
{
	char store[MAXSTRINGLEN], small[4], out[MAXSTRINGLEN];
	struct tap_tokenize_state st;

	tap_tokenize_init(&st, store, sizeof(store));
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "");
	CHECK(tap_tokenize(&st, "a,b,,c", ",", out, sizeof(out)) == 1,
	      "token length");
	STREQ(out, "a");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "b");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "c");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "");
	tap_tokenize(&st, ",,x,", ",", out, sizeof(out));
	STREQ(out, "x");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "");
	tap_tokenize(&st, "a b", "", out, sizeof(out));
	STREQ(out, "a b");
	tap_tokenize(&st, ",,,", ",", out, sizeof(out));
	STREQ(out, "");
	tap_tokenize(&st, "a;b c", "; ", out, sizeof(out));
	STREQ(out, "a");
	tap_tokenize(&st, "", "; ", out, sizeof(out));
	STREQ(out, "b");
	/* A new input starts over. */
	tap_tokenize(&st, "x:y", ":", out, sizeof(out));
	STREQ(out, "x");
	/* The delimiter set may change between calls. */
	tap_tokenize(&st, "p q,r", " ", out, sizeof(out));
	STREQ(out, "p");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "q");
	tap_tokenize(&st, "", ",", out, sizeof(out));
	STREQ(out, "r");

	/* The saved copy and the token are bounded by their buffers. */
	tap_tokenize_init(&st, small, sizeof(small));
	tap_tokenize(&st, "abcdef", ",", out, sizeof(out));
	STREQ(out, "abc");
	tap_tokenize_init(&st, store, sizeof(store));
	tap_tokenize(&st, "abcdef,g", ",", small, sizeof(small));
	STREQ(small, "abc");
	tap_tokenize(&st, "", ",", small, sizeof(small));
	STREQ(small, "g");
}

int main(void)
{
	test_integers();
	test_chars();
	test_strings();
	test_literals();
	test_binary();
	test_memory();
	test_cut();
	test_bad_args();
	test_check();
	test_basic_strings();
	test_strtol();
	test_text_str();
	test_tokenize();
	return check_summary(NULL);
}
