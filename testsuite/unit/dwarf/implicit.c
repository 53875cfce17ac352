/* DW_OP_implicit_pointer fixture (test-dwvar): at -O2, peek() is inlined
 * into ip_me() and its parameter bp, &b, becomes an implicit pointer to b,
 * which itself lives in pieces (x in rdi, then rdi + 3). */
struct box {
	long a;
	long b;
};

__attribute__((noinline)) long sink(long x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x;
}

static inline long peek(const struct box *bp)
{
	sink(bp->a);
	return bp->b;
}

__attribute__((noinline)) long ip_me(long x)
{
	struct box b = { x, x + 3 };

	return peek(&b) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)ip_me(argc);
}
