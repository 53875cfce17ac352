/* The .callee tests' program (tapc.uprobe/callee*.stp): a call structure whose
 * calls per run are known, for N = argv[1] rounds:
 *
 *   main -> mid -> leaf          N times
 *   main -> other -> leaf        N times
 *   main -> twice -> leaf        2N times (two call sites)
 *   main -> leaf                 N times
 *   main -> helper -> mid -> leaf  N times (mid not called from main)
 *   main -> bump (inlined)       N times
 *
 * noipa keeps every call a call (no clones, no inlining, no tail calls
 * folded into callers' code); the empty asm keeps the bodies. */
#include <stdio.h>
#include <stdlib.h>

#define KEEP __attribute__((noinline, noipa))

static volatile int sink;

KEEP int leaf(int x)
{
	asm volatile("");
	return x * 3;
}

KEEP int mid(int x)
{
	int r = leaf(x);

	sink = r;
	return r + 1;
}

KEEP int other(int x)
{
	int r = leaf(x + 1);

	sink = r;
	return r + 2;
}

KEEP int twice(int x)
{
	int r = leaf(x);

	r += leaf(x + 2);
	sink = r;
	return r;
}

KEEP int helper(int x)
{
	int r = mid(x + 10);

	sink = r;
	return r;
}

static inline __attribute__((always_inline)) int bump(int x)
{
	sink = x;
	return x + 7;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;

	for (int i = 0; i < n; i++) {
		s += mid(i);
		s += other(i);
		s += twice(i);
		s += leaf(i);
		s += helper(i);
		s += bump(i);
	}
	printf("%d\n", s);
	return 0;
}
