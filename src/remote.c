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

bool remote_vm_kernel(struct remote_vm_kernel *k)
{
	char *prog = remote_vm_program();
	char *cmd = xasprintf("'%s' debuginfo", prog);
	char line[4096];
	FILE *p = popen(cmd, "r");
	int status;

	memset(k, 0, sizeof(*k));
	free(cmd);
	if (!p) {
		fprintf(stderr, "tapc: --remote=vm: cannot run %s\n", prog);
		free(prog);
		return false;
	}
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		kernel_line(k, line);
	}
	status = pclose(p);
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
