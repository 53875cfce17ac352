/* system() commands (see syscmd.h). */
#define _GNU_SOURCE
#include "syscmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

void syscmd_feed(struct syscmd_reader *r, const char *buf, size_t n,
		 void (*run)(const char *cmd, void *arg), void *arg)
{
	while (n) {
		const char *nul = memchr(buf, '\0', n);
		size_t take = nul ? (size_t)(nul - buf) : n;

		/* r->len > SYSCMD_MAX: the current command is too long */
		if (r->len <= SYSCMD_MAX) {
			if (take > SYSCMD_MAX - r->len) {
				r->len = SYSCMD_MAX + 1;
			} else {
				memcpy(r->part + r->len, buf, take);
				r->len += take;
			}
		}
		if (!nul)
			return;
		if (r->len > SYSCMD_MAX) {
			r->overlong++;
		} else {
			r->part[r->len] = '\0';
			run(r->part, arg);
		}
		r->len = 0;
		buf += take + 1;
		n -= take + 1;
	}
}

/* Every descriptor from 3 up: close_range(2), or one by one. */
static void close_from_3(void)
{
	struct rlimit rl;

	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		rl.rlim_cur = 65536;
	for (rlim_t fd = 3; fd < rl.rlim_cur; fd++)
		close((int)fd);
}

/* Signals as a freshly started program has them. */
static void default_signals(void)
{
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);	/* fails harmlessly for KILL, STOP, RT */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* In the grandchild: become the caller for good, then the shell. */
static void exec_shell(const char *cmd, const struct setuid_state *privs)
{
	uid_t r, e, s;

	if (setuid_drop(privs) != 0)
		_exit(126);
	/* never run anything with root left in any of the ids */
	if (privs->active && (getresuid(&r, &e, &s) != 0 || r != privs->ruid ||
			      e != privs->ruid || s != privs->ruid))
		_exit(126);
	default_signals();
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "ERROR: tapc-run: cannot run /bin/sh for system(): %s\n",
		strerror(errno));
	_exit(127);
}

int syscmd_start(const char *cmd, const struct setuid_state *privs)
{
	pid_t child = fork();
	int status;

	if (child < 0)
		return -1;
	if (child == 0) {
		pid_t grandchild;

		close_from_3();
		grandchild = fork();
		if (grandchild == 0)
			exec_shell(cmd, privs);
		/* the grandchild is init's to reap, not ours */
		_exit(grandchild < 0 ? 1 : 0);
	}
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = EAGAIN;
		return -1;
	}
	return 0;
}
