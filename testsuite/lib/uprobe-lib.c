/* The shared library of the uprobe tests (tapc.uprobe/): a function with
 * known arguments and result, and a global the probes read. */
int uplib_calls;

__attribute__((noinline)) int uplib_mul(int a, int b)
{
	uplib_calls++;
	return a * b;
}
