/*
 * The test program of tapc.uprobe/tls_vars.stp, built with -g: thread-local
 * variables of the executable, different in each thread.
 *
 *   utls-prog	a thread sets counter 42 and tstatic -1 and calls work(1);
 *		once it is joined, the main thread calls work(2) with its
 *		own, the initial counter 5 and tstatic 7
 *
 * It prints nothing: the test's output is the script's.
 */
#include <pthread.h>

__thread int counter = 5;
static __thread long tstatic = 7;

/* noipa: at -O2 GCC would give the call work(1) a clone of its own
 * (work.constprop.0), which a probe on work does not see */
__attribute__((noipa)) int work(int n)
{
	return counter + (int)tstatic + n;
}

static void *thread_main(void *arg)
{
	(void)arg;
	counter = 42;
	tstatic = -1;
	work(1);
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_main, NULL) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	return work(2) != 14;
}
