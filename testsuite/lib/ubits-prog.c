/*
 * The test program of tapc.uprobe/bitfield_writes.stp, built with -g -O0:
 * a struct of bit fields that share one 32-bit word, which use() reads
 * after a guru-mode script has written some of them at its entry.
 *
 *   ubits-prog		use({ready 1, mode 5, delta -3, wide 0x12345})
 *
 * It prints nothing: the test's output is the script's.
 */
struct ubits_flags {
	unsigned int ready:1;
	unsigned int mode:3;
	int delta:5;
	unsigned int wide:20;
};

/* a value that shows every field: ready + 10 * mode + 100 * delta + wide */
__attribute__((noinline)) int use(struct ubits_flags *f)
{
	return f->ready + 10 * f->mode + 100 * f->delta + (int)f->wide;
}

int main(void)
{
	struct ubits_flags f = { .ready = 1, .mode = 5, .delta = -3, .wide = 0x12345 };

	return use(&f) == 0;
}
