/* Computed locations fixture (test-dwvar): at -O2 gcc describes values
 * the code no longer holds in terms of what it does hold, e.g. "twice"
 * as x shifted, "narrow" as x cut to an int, "first" as memory read
 * through p. */
__attribute__((noinline)) long sink(long x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x;
}

__attribute__((noinline)) long exprs_me(long x, long *p, unsigned long u)
{
	long twice = x << 3;
	int narrow = (int)x;
	long first = p[1];
	unsigned long masked = u & 0xff0;
	long sum = x + (long)u;
	long loaded = p[1] * 5;
	int shrunk = (int)(u >> 4);

	sink(0);
	sink(1);
	(void)twice; (void)narrow; (void)first; (void)masked; (void)sum; (void)loaded; (void)shrunk;
	return sink(2);
}

int main(int argc, char **argv)
{
	long v[2] = { argc, argc + 5 };

	(void)argv;
	return (int)exprs_me(argc, v, (unsigned long)argc * 3);
}
