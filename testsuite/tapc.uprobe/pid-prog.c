/*
 * The workload of pid.exp: a process that already runs when the script
 * starts, which the script finds by its process id.  Until FILE exists,
 * each millisecond it calls add(i, 10) and fact(3) and passes the SDT
 * marker pidprog:tick with (i, 7).
 *
 * usage: pid-prog FILE
 */
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) int add(int a, int b)
{
	return a + b;
}

__attribute__((noinline)) long fact(int n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

int main(int argc, char **argv)
{
	const struct timespec ms = { 0, 1000000 };

	if (argc != 2)
		return 2;
	for (int i = 0; access(argv[1], F_OK) != 0; i++) {
		sink += add(i, 10) + fact(3);
		STAP_PROBE2(pidprog, tick, i, 7);
		nanosleep(&ms, NULL);
	}
	return 0;
}
