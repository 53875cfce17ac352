/*
 * The test program of tapc.uprobe/entryval.stp, built by the harness with
 * -g -O2: once entry_me's parameters are dead, gcc describes them by the
 * registers they came in (DW_OP_entry_value(rdi), (rsi)), and the inline
 * instance of scaled() inside outer() describes its parameter by outer's
 * (readelf --debug-dump=loc shows both).  A probe on the line after the
 * first call reads them as saved by a companion uprobe at the entry.
 *
 *   uentry-prog N	entry_me(i, 7 * i) for i = 1..N, then outer(10 * i)
 *			for i = 1..N
 *
 * It prints nothing: the test's output is the script's.
 */
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (long i = 1; i <= n; i++)
		entry_me(i, 7 * i);
	for (long i = 1; i <= n; i++)
		outer(10 * i);
	return 0;
}
