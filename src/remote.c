/* Asking the test VM which kernel it boots, and where its files are. */
#include "remote.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "paths.h"
#include "util.h"

char *remote_vm_program(void)
{
	char *dir = tapc_exe_dir();
	char *path;

	if (dir) {
		if (tapc_in_build_tree(dir))
			path = xasprintf("%s/scripts/tapc-vm", TAPC_SOURCE_DIR);
		else
			path = xasprintf("%s/tapc-vm", dir);
		free(dir);
		if (access(path, X_OK) == 0)
			return path;
		free(path);
	}
	return xstrdup("tapc-vm");
}

/* One "KEY VALUE" line of `tapc-vm debuginfo` into K (others are left
 * for later versions). */
static void kernel_line(struct remote_vm_kernel *k, const char *line)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "release ", offsetof(struct remote_vm_kernel, release) },
		{ "vmlinux ", offsetof(struct remote_vm_kernel, vmlinux) },
		{ "kallsyms ", offsetof(struct remote_vm_kernel, kallsyms) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].key);
		char **field = (char **)((char *)k + keys[i].off);

		if (strncmp(line, keys[i].key, n) == 0 && line[n] && !*field)
			*field = xstrdup(line + n);
	}
}

/* PROG debuginfo, with its standard output on a stream (no shell: the
 * program's path is not shell text); *pid is the child's. */
static FILE *start_debuginfo(const char *prog, pid_t *pid)
{
	int fds[2];
	FILE *p;

	if (pipe(fds) < 0)
		return NULL;
	*pid = fork();
	if (*pid == 0) {
		close(fds[0]);
		if (fds[1] != STDOUT_FILENO) {
			dup2(fds[1], STDOUT_FILENO);
			close(fds[1]);
		}
		execlp(prog, prog, "debuginfo", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (*pid < 0 || !(p = fdopen(fds[0], "r"))) {
		close(fds[0]);
		return NULL;
	}
	return p;
}

bool remote_vm_kernel(struct remote_vm_kernel *k)
{
	char *prog = remote_vm_program();
	char line[4096];
	pid_t pid = -1;
	FILE *p = start_debuginfo(prog, &pid);
	int status = -1;

	memset(k, 0, sizeof(*k));
	if (!p) {
		fprintf(stderr, "tapc: --remote=vm: cannot run %s\n", prog);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		free(prog);
		return false;
	}
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		kernel_line(k, line);
	}
	fclose(p);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (status != 0 || !WIFEXITED(status) || !k->release) {
		fprintf(stderr, "tapc: --remote=vm: '%s debuginfo' found no kernel "
			"for the test VM (see tapc-vm(1))\n", prog);
		free(prog);
		remote_vm_kernel_free(k);
		return false;
	}
	free(prog);
	return true;
}

void remote_vm_kernel_free(struct remote_vm_kernel *k)
{
	free(k->release);
	free(k->vmlinux);
	free(k->kallsyms);
	memset(k, 0, sizeof(*k));
}

/* tapc-vm's status for "not running" (see tapc-vm(1)). */
#define TAPC_VM_STATUS_STOPPED 3

enum remote_vm_guest remote_vm_guest(void)
{
	char *prog = remote_vm_program();
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		/* stdout only: a refused state directory is said on stderr */
		int null = open("/dev/null", O_RDWR);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execl(prog, prog, "status", (char *)NULL);
		execlp("tapc-vm", "tapc-vm", "status", (char *)NULL);
		_exit(127);
	}
	free(prog);
	if (pid < 0)
		return REMOTE_VM_ERROR;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return REMOTE_VM_ERROR;
	if (!WIFEXITED(status))
		return REMOTE_VM_ERROR;
	if (WEXITSTATUS(status) == 0)
		return REMOTE_VM_GUEST;
	if (WEXITSTATUS(status) == TAPC_VM_STATUS_STOPPED)
		return REMOTE_VM_NO_GUEST;
	return REMOTE_VM_ERROR;
}

/* Longest path read back from the guest: PATH_MAX and a newline. */
#define PID_EXE_MAX 4097

/* ARGV's standard output, up to max - 1 bytes, into buf (no shell);
 * its exit status, or -1. */
static int run_capture(char *const argv[], char *buf, size_t max)
{
	int fds[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		close(fds[0]);
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	while ((n = read(fds[0], buf + len, max - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (len += (size_t)n) == max - 1)
			break;
	}
	buf[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *remote_vm_pid_exe(long pid, char **why)
{
	enum remote_vm_guest guest = remote_vm_guest();
	char link[64], *out, *prog;
	int status;

	if (guest != REMOTE_VM_GUEST) {
		*why = guest == REMOTE_VM_ERROR ?
		       xstrdup("--remote=vm: 'tapc-vm status' failed") :
		       xasprintf("process %ld: with --remote=vm a process id names a process "
				 "of the test VM's persistent guest, and none runs "
				 "(tapc-vm start)", pid);
		return NULL;
	}
	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	prog = remote_vm_program();
	out = xmalloc(PID_EXE_MAX);
	{
		char *argv[] = { prog, "exec", "--", "readlink", link, NULL };

		status = run_capture(argv, out, PID_EXE_MAX);
	}
	free(prog);
	out[strcspn(out, "\n")] = '\0';
	if (status != 0 || out[0] != '/') {
		free(out);
		*why = xasprintf("cannot find the executable of process %ld in the test VM's "
				 "guest", pid);
		return NULL;
	}
	return out;
}
