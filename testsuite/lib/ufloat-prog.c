/*
 * The test program of tapc.uprobe/float_vars.stp, built with -g -O0:
 * floating-point parameters and members, which the DWARF keeps in stack
 * slots and memory at -O0; and of float_regs.stp, built with -O2, where
 * the parameters are xmm0 and xmm1 at the entry and the return value is
 * xmm0.
 *
 *   ufloat-prog	scale(1.5, 2.0f, &{ 0.5f, 2.25 }) once
 *
 * It prints nothing: the test's output is the script's.
 */
struct ufloat_pair {
	float f;
	double d;
};

/* noipa: -O2 must not clone it for main's constant arguments */
__attribute__((noipa)) double scale(double d, float f, struct ufloat_pair *p)
{
	return d * f + p->d + p->f;
}

int main(void)
{
	struct ufloat_pair pair = { 0.5f, 2.25 };

	return scale(1.5, 2.0f, &pair) != 5.75;
}
