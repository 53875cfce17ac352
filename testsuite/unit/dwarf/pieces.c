/* DW_OP_piece fixture (test-dwvar): at -O2 gcc keeps each of p and s in
 * two registers, "DW_OP_regA; DW_OP_piece: N; DW_OP_regB; DW_OP_piece: N",
 * and for a while only p's first half ("DW_OP_piece: 8" alone after it). */
struct pair {
	long a;
	long b;
};

struct small {
	int lo;
	int hi;
};

__attribute__((noinline)) long sink(long x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x;
}

__attribute__((noinline)) long pieces_me(long x, long y)
{
	struct pair p = { x + 1, y * 2 };
	struct small s = { (int)x, (int)y };

	sink(p.a);
	sink(s.lo);
	sink(p.b);
	sink(s.hi);
	return p.a + p.b + s.lo + s.hi;
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)pieces_me(argc, argc + 1);
}
