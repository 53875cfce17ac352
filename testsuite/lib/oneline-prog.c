/*
 * The test program of tapc.uprobe/oneline.stp and of test-uprobe's
 * "one-line" cases, built with -g -O0: functions written on one line.
 * GCC's line table gives such a function two rows of the same line, the
 * entry and the first instruction after the prologue has stored the
 * parameters in their stack slots, and the DWARF locates the parameters
 * in those slots.  A probe must go at the second row, as SystemTap's
 * does: at the entry the slots still hold whatever was there.
 *
 *   oneline-prog N	scale(i, 3) and then shift(i) for i = 1..N
 *
 * It prints nothing: the test's output is the script's.
 */
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) int scale(int a, int b) { return a * b; }
__attribute__((noinline)) long shift(long v) { long r = v << 4; return r + 1; }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 1; i <= n; i++) {
		sink += scale(i, 3);
		sink += shift(i);
	}
	return 0;
}
