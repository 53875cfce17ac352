/* Asking the test VM which kernel it boots. */
#include "remote.h"

#include <errno.h>
#include <fcntl.h>
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

char *remote_vm_release(void)
{
	char *prog = remote_vm_program();
	char *cmd = xasprintf("'%s' release", prog);
	char line[256] = "";
	FILE *p = popen(cmd, "r");
	int status;

	free(cmd);
	if (!p) {
		fprintf(stderr, "tapc: --remote=vm: cannot run %s\n", prog);
		free(prog);
		return NULL;
	}
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	status = pclose(p);
	line[strcspn(line, "\n")] = '\0';
	if (status != 0 || !WIFEXITED(status) || line[0] == '\0') {
		fprintf(stderr, "tapc: --remote=vm: '%s release' found no kernel "
			"for the test VM (see tapc-vm(1))\n", prog);
		free(prog);
		return NULL;
	}
	free(prog);
	return xstrdup(line);
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
