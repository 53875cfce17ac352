/* tapc-run -D: see background.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "background.h"

/* The child's side: its own session, stdio on /dev/null. */
static void detach(int ready_fd)
{
	int null;

	setsid();
	/* the parent may go now: our process group is no longer its */
	close(ready_fd);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return;
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	if (null > STDERR_FILENO)
		close(null);
}

/* The parent's side: wait until the child is detached, tell its pid. */
_Noreturn static void hand_over(int ready_fd, pid_t child)
{
	char byte;

	/* EOF once the child closed its end (or died: then too, go) */
	while (read(ready_fd, &byte, 1) < 0 && errno == EINTR)
		;
	printf("%ld\n", (long)child);
	fflush(stdout);
	_exit(0);
}

int run_in_background(const char *prog)
{
	int ready[2];
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe2(ready, O_CLOEXEC) < 0) {
		fprintf(stderr, "ERROR: %s: cannot fork: %s\n", prog, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ERROR: %s: cannot fork: %s\n", prog, strerror(errno));
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	if (pid > 0) {
		close(ready[1]);
		hand_over(ready[0], pid);
	}
	close(ready[0]);
	detach(ready[1]);
	return 0;
}
