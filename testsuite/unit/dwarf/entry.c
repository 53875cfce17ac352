/* Entry values fixture (test-dwvar): at -O2, once entry_me's parameters
 * are dead gcc describes them by the registers they came in
 * (DW_OP_entry_value), and an inline instance's by its caller's. */
__attribute__((noinline)) long ev_sink(long x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x;
}

__attribute__((noinline)) long entry_me(long a, long b)
{
	ev_sink(a + b);
	ev_sink(0);
	return 7;
}

/* A static's address in a computed location: &table[i] as table plus
 * i shifted (DW_OP_addr in an expression), relocated in a module. */
static long table[8];

__attribute__((noinline)) long addr_me(long i)
{
	long *slot = &table[i];

	ev_sink((long)slot);
	return ev_sink(i);
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)(entry_me(argc, argc * 2) + addr_me(argc & 7));
}
