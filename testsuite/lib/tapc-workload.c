/* tapc-workload: a program whose system calls the script tests know
 * exactly.  The harness compiles it once per run and puts its path where
 * a script's "# tapc-opts:" line says {WORKLOAD} (typically -c
 * "{WORKLOAD} getpid 1000").
 *
 *   tapc-workload STEP [ARG] [STEP [ARG]]...
 *
 * Steps run in order:
 *   getpid N	N raw getpid() system calls (libc may cache getpid)
 *   sleep MS	sleep MS milliseconds
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static long number(const char *step, const char *arg)
{
	char *end;
	long n;

	if (!arg) {
		fprintf(stderr, "tapc-workload: %s needs a number\n", step);
		exit(2);
	}
	n = strtol(arg, &end, 10);
	if (*end || n < 0) {
		fprintf(stderr, "tapc-workload: %s: bad number '%s'\n", step, arg);
		exit(2);
	}
	return n;
}

static void step_getpid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
}

static void step_sleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i += 2) {
		const char *step = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(step, "getpid") == 0) {
			step_getpid(number(step, arg));
		} else if (strcmp(step, "sleep") == 0) {
			step_sleep(number(step, arg));
		} else {
			fprintf(stderr, "tapc-workload: unknown step '%s'\n", step);
			return 2;
		}
	}
	return 0;
}
