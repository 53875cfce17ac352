/* The workload of tapc.perf's per-process tests: page faults and CPU
 * time a test knows exactly or nearly.
 *
 *   tapc-perf-proc pages N M: the main thread touches N fresh anonymous
 *	pages between mark(1) and mark(2), then a second thread touches M
 *	between mark(10) and mark(11); each write to a fresh page is one
 *	page fault of the task that makes it
 *   tapc-perf-proc sleep N: sleeps 1 ms at a time between mark(1) and
 *	mark(2) until it has switched out N times: N context switches (more
 *	only if it is preempted)
 *   tapc-perf-proc spin MS: spends MS milliseconds of CPU time, nearly
 *	all of it in user mode
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The probe point: the test reads its counters here. */
__attribute__((noinline)) void mark(long n)
{
	__asm__ volatile("" : : "r"(n) : "memory");
}

/* Touch @n fresh pages between mark(@at) and mark(@at + 1).  A first
 * mark(@at - 1) warms up: the first hit of a uprobe in a process maps its
 * out-of-line page, a fault of its own. */
static void touch(long n, long at)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (n + 1) * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(1);
	mark(at - 1);
	mark(at);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	mark(at + 1);
}

static void *thread_main(void *arg)
{
	touch((long)arg, 10);
	return NULL;
}

/* The voluntary context switches of the calling thread so far. */
static long switches_out(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		exit(1);
	return ru.ru_nvcsw;
}

/* Sleep until the thread has switched out @n times.  A sleep is not
 * always a switch: on a slow guest the 1 ms timer can expire before the
 * task reaches schedule(), and the nanosleep returns without one. */
static void sleep_switches(long n)
{
	long start = switches_out();

	while (switches_out() - start < n)
		usleep(1000);
}

static void spin(long ms)
{
	struct timespec t0, t;
	volatile long n;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		/* the clock is a system call: seldom */
		for (n = 0; n < 1000000; n++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv)
{
	pthread_t th;

	if (argc == 4 && !strcmp(argv[1], "pages")) {
		touch(atol(argv[2]), 1);
		if (pthread_create(&th, NULL, thread_main, (void *)atol(argv[3])) ||
		    pthread_join(th, NULL))
			return 1;
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "sleep")) {
		mark(0);
		mark(1);
		sleep_switches(atol(argv[2]));
		mark(2);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		spin(atol(argv[2]));
		return 0;
	}
	return 2;
}
