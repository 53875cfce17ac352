/*
 * The test program of tapc.uprobe/entryval.stp, built by the harness with
 * -g -O2: once entry_me's parameters are dead, gcc describes them by the
 * registers they came in (DW_OP_entry_value(rdi), (rsi)), and the inline
 * instance of scaled() inside outer() describes its parameter by outer's
 * (readelf --debug-dump=loc shows both).  A probe on the line after the
 * first call reads them as saved by a companion uprobe at the entry.
 * pref's tag is never used: gcc drops it from pref's clone and describes
 * it by what each call site passed (DW_OP_GNU_parameter_ref, with the
 * call sites' DW_AT_call_value 17 and 23).
 *
 *   uentry-prog N	entry_me(i, 7 * i) for i = 1..N, then outer(10 * i)
 *			for i = 1..N, then prefs(i) for i = 1..N: pref({i, 3 * i},
 *			i + 1, 17), pref(.., 2 * i, 23) and pfb(.., i, &v[1])
 *
 * It prints nothing: the test's output is the script's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;

__attribute__((noinline, noipa)) long ue_sink(long x)
{
	sink += x;
	return x;
}

__attribute__((noinline, noipa)) long entry_me(long a, long b)
{
	ue_sink(a + b);
	ue_sink(a - b);
	ue_sink(0);
	return 7;
}

static inline __attribute__((always_inline)) long scaled(long v)
{
	ue_sink(v);
	ue_sink(1);
	return 3;
}

__attribute__((noinline, noipa)) long outer(long k)
{
	return scaled(k) + ue_sink(2);
}

static __attribute__((noinline)) long pref(long *p, long k, long tag)
{
	ue_sink(p[0] * k);
	return p[1] + k;
}

/* where is never used either: each call passes the caller's &v[1], which
 * the call site states on the caller's frame base (DW_OP_fbreg) */
static __attribute__((noinline)) long pfb(long *p, long k, long *where)
{
	ue_sink(p[1] - k);
	return p[0] + k;
}

__attribute__((noinline, noipa)) long prefs(long n)
{
	long v[2] = { n, 3 * n };
	long s = pref(v, n + 1, 17);

	s += pref(v, 2 * n, 23);
	s += pfb(v, n, &v[1]);
	return s + ue_sink(v[0]);
}

/*
 * uentry-prog N printf: also two fprintf calls with positional arguments
 * to /dev/null, after 3 and 5 plain characters, errno 7 and 9 then: libc's
 * printf_positional gets done 3 and 5, save_errno 7 and 9, nspecs_done 0,
 * mode_flags 0 as its 7th, 10th and 13th arguments, on the stack (a frame
 * base over the CFA, from libc's own .eh_frame when libc6-dbg's DWARF is
 * a separate file).
 */
static void positional(void)
{
	FILE *f = fopen("/dev/null", "w");

	if (!f)
		return;
	errno = 7;
	fprintf(f, "abc%1$ld", (long)sink);
	errno = 9;
	fprintf(f, "abcde%1$ld%2$s", (long)sink, "x");
	fclose(f);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (long i = 1; i <= n; i++)
		entry_me(i, 7 * i);
	for (long i = 1; i <= n; i++)
		outer(10 * i);
	for (long i = 1; i <= n; i++)
		prefs(i);
	if (argc > 2 && strcmp(argv[2], "printf") == 0)
		positional();
	return 0;
}
