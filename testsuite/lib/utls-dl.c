/*
 * The test program of tapc.uprobe/tls_lib.stp: for each library named
 * (lib/utls-lib.c's builds), dlopen() it, then call its lib_work(1) in
 * the main thread, lib_work(10) in a thread of its own, and, once that
 * thread is joined, lib_work(2) in the main thread again.  Each thread
 * has its own lib_counter: 6, 15, then 8.  Last, close(-1) sets libc's
 * errno (its thread-local variable) to EBADF.
 *
 * It prints nothing: the test's output is the script's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

static int (*lib_work)(int);

static void *thread_main(void *arg)
{
	(void)arg;
	lib_work(10);
	return NULL;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		void *lib = dlopen(argv[i], RTLD_NOW);
		pthread_t t;

		if (!lib || !(lib_work = (int (*)(int))dlsym(lib, "lib_work")))
			return 1;
		lib_work(1);
		if (pthread_create(&t, NULL, thread_main, NULL) != 0 ||
		    pthread_join(t, NULL) != 0)
			return 1;
		if (lib_work(2) != 8)
			return 1;
	}
	return close(-1) == -1 && errno == EBADF ? 0 : 1;
}
