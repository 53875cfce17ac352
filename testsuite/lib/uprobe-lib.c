/* The shared library of the uprobe tests (tapc.uprobe/): a function with
 * known arguments and result, and a global the probes read; SDT markers
 * in it for process(...).library(...).mark: uplib:mul with the two
 * integers, uplib:ratio with a / b as a double and as a float. */
#include <sys/sdt.h>

int uplib_calls;

__attribute__((noinline)) int uplib_mul(int a, int b)
{
	uplib_calls++;
	STAP_PROBE2(uplib, mul, a, b);
	STAP_PROBE2(uplib, ratio, (double)a / b, (float)a / b);
	return a * b;
}
