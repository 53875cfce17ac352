/* Pass 5: tapc-run loads the module, relays its output and unloads it.
 * Here tapc finds tapc-run, builds its command line from the options,
 * runs it (through tapc-vm with --remote=vm) and passes signals on. */
#define _GNU_SOURCE
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"
#include "remote.h"
#include "util.h"

/* tapc-vm's own exit statuses (see tapc-vm(1)). */
#define TAPC_VM_EXIT_KERNEL 123
#define TAPC_VM_EXIT_GUEST 125

static volatile sig_atomic_t caught_signal;
static volatile sig_atomic_t hold_signals;
static volatile pid_t child_pid;

static void on_signal(int sig)
{
	caught_signal = sig;
	/* Nothing to clean up yet: end as the signal's default action
	 * would (it stays blocked until this handler returns). */
	if (!hold_signals) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	/* The child stops cleanly on its own terms (tapc-run runs the end
	 * probes; tapc-vm passes the signal into the guest). */
	if (child_pid > 0)
		kill(child_pid, sig);
}

void run_hold_signals(void)
{
	hold_signals = 1;
}

void run_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Ctrl-\ reaches tapc-run too; it leaves the module running
	 * (detaches) and exits, and so do we, after it */
	sigaction(SIGQUIT, &sa, NULL);
}

int run_interrupted(void)
{
	return caught_signal;
}

static void block_signals(int how, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(how, &set, old);
}

int run_fork(void)
{
	sigset_t old;
	pid_t pid;

	block_signals(SIG_BLOCK, &old);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
	} else if (pid > 0) {
		child_pid = pid;
	}
	/* A signal held back meanwhile now reaches on_signal, which passes
	 * it on to the child. */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

void run_child_done(void)
{
	child_pid = 0;
}

int run_logged(char *const argv[], const char *log)
{
	pid_t pid = run_fork();
	int ws = 0;

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (fd < 0 || null < 0)
			_exit(127);
		dup2(null, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		/* A make above us (make check) must not lend us its jobserver. */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		execvp(argv[0], argv);
		fprintf(stderr, "tapc: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	run_child_done();
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
}

bool run_host_can_load(char *why, size_t len)
{
	FILE *f;
	int disabled = 0;

	if (access("/proc/modules", F_OK) != 0) {
		snprintf(why, len, "the running kernel has no module support "
			 "(no /proc/modules)");
		return false;
	}
	f = fopen("/proc/sys/kernel/modules_disabled", "r");
	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = 0;
		fclose(f);
	}
	if (disabled) {
		snprintf(why, len, "module loading is disabled "
			 "(kernel.modules_disabled = 1)");
		return false;
	}
	return true;
}

char *run_loader_path(void)
{
	char *dir = tapc_exe_dir();
	char *path;

	if (dir) {
		if (tapc_in_build_tree(dir))
			path = xasprintf("%s/run/tapc-run", dir);
		else
			path = xasprintf("%s/tapc-run", dir);
		free(dir);
		if (access(path, X_OK) == 0)
			return path;
		free(path);
	}
	return xstrdup("tapc-run");
}

/* A path that means the same file from any directory: the guest runs
 * tapc-run in the same directory, but absolute paths are simpler to read
 * in -v output and survive a cd in -c. */
static char *absolute(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

struct argv_builder {
	char **items;
	int count;
};

static void arg(struct argv_builder *a, const char *s)
{
	a->items = xrealloc(a->items, sizeof(char *) * (size_t)(a->count + 2));
	a->items[a->count++] = xstrdup(s);
	a->items[a->count] = NULL;
}

static void argv_free(struct argv_builder *a)
{
	for (int i = 0; i < a->count; i++)
		free(a->items[i]);
	free(a->items);
}

/* tapc-vm exec (or run) -- in front of tapc-run; false when tapc-vm
 * cannot tell whether its persistent guest runs (it said why). */
static bool remote_prefix(struct argv_builder *a, int verbose, bool input,
			  bool flight_recorder)
{
	enum remote_vm_guest guest = remote_vm_guest();
	bool persistent = guest == REMOTE_VM_GUEST;
	char *vm;

	if (guest == REMOTE_VM_ERROR) {
		fputs("tapc: --remote=vm: 'tapc-vm status' failed; not running "
		      "the module\n", stderr);
		return false;
	}
	if (flight_recorder && !persistent) {
		/* a one-shot guest powers off when tapc-run leaves for the
		 * background: the script would end with it */
		fputs("tapc: -F with --remote=vm runs in the test VM's persistent "
		      "guest: start it with 'tapc-vm start'\n", stderr);
		return false;
	}
	vm = remote_vm_program();
	if (verbose)
		fprintf(stderr, "tapc: running in the test VM: %s\n",
			persistent ? "its persistent guest" :
			"a one-shot guest (tapc-vm start keeps one running)");
	arg(a, vm);
	/* The script decides how long it runs (-T, exit(), Ctrl-C). */
	arg(a, "--timeout");
	arg(a, "0");
	if (input)
		arg(a, "--stdin");
	arg(a, persistent ? "exec" : "run");
	arg(a, "--");
	free(vm);
	return true;
}

static void loader_args(struct argv_builder *a, const struct tapc_options *o, bool rename,
			const char *loader, const char *ko)
{
	char num[32];

	arg(a, loader);
	if (o->vp[4] > 2)
		arg(a, "-v");
	if (rename)
		arg(a, "-R");
	if (o->output_file) {
		char *out = absolute(o->output_file);

		arg(a, "-o");
		arg(a, out);
		free(out);
	}
	if (o->size_option) {
		arg(a, "-S");
		arg(a, o->size_option);
	}
	if (o->flight_recorder)
		arg(a, o->output_file ? "-D" : "-L");
	if (o->command) {
		arg(a, "-c");
		arg(a, o->command);
	}
	if (o->target_pid) {
		snprintf(num, sizeof(num), "%ld", o->target_pid);
		arg(a, "-x");
		arg(a, num);
	}
	if (o->timeout_secs) {
		snprintf(num, sizeof(num), "%ld", o->timeout_secs);
		arg(a, "-T");
		arg(a, num);
	}
	if (o->target_ns_pid) {
		snprintf(num, sizeof(num), "%ld", o->target_ns_pid);
		arg(a, "-N");
		arg(a, num);
	}
	/* remote_id() and remote_uri(): tapc's one remote is the first */
	if (o->remote) {
		char *rem = xasprintf("0:%s", o->remote);

		arg(a, "-r");
		arg(a, rem);
		free(rem);
	}
	arg(a, ko);
	for (int i = 0; i < o->globals.count; i++)
		arg(a, o->globals.items[i]);
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int run_module(const struct tapc_options *o, const char *ko, bool rename_if_loaded,
	       bool input)
{
	struct argv_builder a = { NULL, 0 };
	char *loader = run_loader_path();
	pid_t pid;
	int status;

	if (o->remote && !remote_prefix(&a, o->vp[4], input, o->flight_recorder)) {
		free(loader);
		argv_free(&a);
		return 1;
	}
	loader_args(&a, o, rename_if_loaded, loader, ko);
	if (o->vp[4] > 1) {
		fputs("Running", stderr);
		for (int i = 0; i < a.count; i++)
			fprintf(stderr, " %s", a.items[i]);
		fputc('\n', stderr);
	}
	fflush(stdout);
	pid = run_fork();
	if (pid == 0) {
		execvp(a.items[0], a.items);
		fprintf(stderr, "tapc: cannot run %s: %s\n", a.items[0],
			strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		fprintf(stderr, "tapc: cannot fork: %s\n", strerror(errno));
		status = -1;
	} else {
		status = wait_child(pid);
		run_child_done();
	}
	if (status == 127)
		status = -1;
	else if (status > 0)
		fprintf(stderr, "WARNING: %s exited with status: %d\n",
			a.items[0], status);
	if (status >= TAPC_VM_EXIT_KERNEL && status <= TAPC_VM_EXIT_GUEST &&
	    o->remote)
		status = 1;	/* tapc-vm said what went wrong */
	else if (status > 1)
		status = 1;
	free(loader);
	argv_free(&a);
	return status;
}
