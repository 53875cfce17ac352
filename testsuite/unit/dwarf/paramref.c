/* DW_OP_GNU_parameter_ref fixture (test-dwvar): at -O2 gcc drops pref's
 * unused tag from its clone and describes it by the values its call
 * sites state (DW_AT_call_value 17 and 23), each picked at the clone's
 * entry by the return address; pfb's unused where is the address of the
 * caller's v[1], which its call site states on the caller's frame base
 * (DW_OP_fbreg). */
static volatile long sink;

__attribute__((noinline, noipa)) long pr_sink(long v)
{
	sink += v;
	return v;
}

static __attribute__((noinline)) long pref(long *p, long k, long tag)
{
	pr_sink(p[0] * k);
	return p[1] + k;
}

static __attribute__((noinline)) long pfb(long *p, long k, long *where)
{
	pr_sink(p[1] - k);
	return p[0] + k;
}

__attribute__((noinline, noipa)) long prefs(long n)
{
	long v[2] = { n, 3 * n };
	long s = pref(v, n + 1, 17);

	s += pref(v, 2 * n, 23);
	s += pfb(v, n, &v[1]);
	return s + pr_sink(v[0]);
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)prefs(argc);
}
