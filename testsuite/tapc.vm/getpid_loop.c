/*
 * getpid_loop PARAMFILE N: write our pid to PARAMFILE (the kprobe test
 * module's target_pid parameter), then make exactly N getpid() system
 * calls.  The pid is taken with a system call made before the target is
 * set, so that call is not counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long pid, n, i;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s PARAMFILE N\n", argv[0]);
		return 2;
	}
	n = atol(argv[2]);
	pid = syscall(SYS_getpid);
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%ld\n", pid) < 0 || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (syscall(SYS_getpid) != pid)
			return 1;
	/* stop counting before exit, so nothing after the loop is counted */
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "-1\n") < 0 || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("%ld %ld\n", pid, n);
	return 0;
}
