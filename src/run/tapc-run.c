/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tapc-run: load a tapc probe module, relay its output, stop it, unload it.
 *
 *   tapc-run [-o FILE [-S SIZE[,N]]] [-c CMD] [-x PID] [-T SECS] [-v] MODULE.ko [NAME=VALUE...]
 *
 * The module (runtime/linux/) makes /proc/tapc-NAME/{out,err,cmd,ctl}.  We
 * write "start" to ctl, copy out to stdout (or -o FILE, outfile.c) and err
 * to stderr as bytes arrive, run the commands of system() that come on cmd
 * (syscmd.c), feed our stdin to the script's input probes
 * (/proc/systemtap/NAME/__stdin, if the script has them), and write
 * "stop" to ctl when the script called exit()
 * (ctl's state turns "exiting"), on -T, SIGINT/SIGTERM/SIGHUP, or when the
 * -c command ends.  The module then runs its end probes and turns "done";
 * we read out and err to their end, remove the module and print the
 * closing warnings.  Whatever happens after the module is loaded, it is
 * removed before we exit, unless -L or SIGQUIT (Ctrl-\) asked to leave
 * it running for a later -A, as staprun's do.
 *
 * Installed set-user-ID root (tapc-setup-privileges), it runs as the
 * caller and is root only to load and remove the module; what the caller
 * may load is decided as SystemTap's staprun decides it (approve.c,
 * setuid.c, tapc-run(8)).
 */
#define _GNU_SOURCE
#include "approve.h"
#include "background.h"
#include "bulk.h"
#include "input.h"
#include "modimage.h"
#include "outfile.h"
#include "privilege.h"
#include "setuid.h"
#include "syscmd.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

static const char *prog = "tapc-run";
static int verbose;
static bool rename_if_loaded;	/* -R */
static struct setuid_state privs;	/* set-user-ID root for another user? */

struct session {
	char name[256];		/* module name */
	char dir[300];		/* /proc/tapc-NAME */
	int out_fd, err_fd, cmd_fd, ctl_fd;	/* the module's files */
	struct outfile dest;	/* stdout or -o FILE */
	struct bulk bulk;	/* -b: the per-CPU channels, if the module has them */
	struct syscmd_reader cmds;	/* system() commands from cmd */
	struct input input;	/* stdin to the script's input probes */
	int sigfd;		/* the signals we take (non-blocking) */
	bool input_tried;
	bool loaded;
	pid_t child;		/* -c command, or 0 */
	int go_fd;		/* write end of the child's start pipe */
	int exec_fd;		/* read end of the child's exec-failure pipe */
	bool child_failed;	/* the -c command could not be run */
	bool child_via_shell;	/* it runs under /bin/sh -c */
	bool child_released;
	char state[32];		/* from ctl */
	long errors, skipped;
	long suppressed;	/* errors that ended their hit quietly: no failure */
	unsigned long long dropped;	/* output the full ring had no room for */
	unsigned long long cut;		/* of prints longer than a hit's buffer */
	bool stop_sent;
	bool out_eof, err_eof, cmd_eof;
	bool detach_when_running;	/* -L, SIGQUIT: leave it running, unread */
	bool attached;		/* -A: it was loaded and started before */
	bool detached;		/* left running (-L, SIGQUIT) */
	/* the start of the error channel's current line, for logged_error */
	char err_head[5];
	size_t err_col;
	bool logged_error;	/* the module wrote an "ERROR" line */
};

static void vmsg(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-o FILE [-S SIZE[,N]] [-D]] [-c CMD] [-x PID] [-N PID] [-r N:URI] [-T SECS] [-R] [-L] [-v] MODULE.ko [NAME=VALUE...]\n"
		"       %s -A [-o FILE [-S SIZE[,N]]] [-T SECS] [-v] MODULE\n"
		"  -o FILE   write the script's output to FILE instead of stdout (opened\n"
		"            once the module is loaded, never through a symbolic link);\n"
		"            switch_file() or SIGUSR2 goes on to FILE.1, FILE.2, ...\n"
		"  -S SIZE[,N]  write FILE.0, FILE.1, ...: the next file once one holds\n"
		"            more than SIZE MiB; keep only the last N files\n"
		"  -D        with -o: once the module runs, go on in the background (the\n"
		"            flight recorder, tapc -F) and print the pid to signal:\n"
		"            SIGUSR2 for the next file, SIGTERM to stop\n"
		"  -c CMD    run CMD as the target (under /bin/sh only if it needs a shell);\n"
		"            stop when it ends\n"
		"  -x PID    set target() to PID\n"
		"  -N PID    the ns_*() functions answer in process PID's namespaces\n"
		"            (default: this process's)\n"
		"  -r N:URI  remote_id() gives N and remote_uri() URI (tapc --remote)\n"
		"  -T SECS   stop the script after SECS seconds\n"
		"  -R        if a module of the same name is loaded, load this one\n"
		"            under a unique name of the same length\n"
		"  -L        load the module, start it and leave it running (the flight\n"
		"            recorder in memory, tapc -F: its output keeps the latest\n"
		"            lines)\n"
		"  -A        attach to MODULE, loaded and left running before: relay its\n"
		"            output (what it kept first), stop and remove it at the end\n"
		"  -v        tell what happens, on stderr\n"
		"  -h        this help\n"
		"SIGINT, SIGTERM, SIGHUP: stop the script; SIGQUIT (Ctrl-\\): leave it running\n"
		"for -A.\n"
		"Installed set-user-ID root, it lets members of the groups stapusr, stapsys\n"
		"and stapdev run modules, as SystemTap's staprun: see tapc-run(8).\n", prog, prog);
}

/* "dir/foo-bar.ko" -> "foo_bar", as kbuild names the module. */
static int module_name(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t len, i;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".ko"))
		len -= 3;
	if (len == 0 || len >= size)
		return -1;
	for (i = 0; i < len; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[len] = '\0';
	return 0;
}

static int load_renamed(struct session *s, int fd, const char *params);

/*
 * Who the caller is, as staprun decides it: 0 with *creds set, or -1
 * after SystemTap's message for a caller who may load nothing.
 */
static int caller_credentials(unsigned *creds)
{
	if (!privs.euid_root) {
		fprintf(stderr, "ERROR: The effective user ID of %s must be set to the root user.\n"
			"  Check permissions on %s and ensure it is a setuid root program.\n",
			prog, prog);
		return -1;
	}
	*creds = setuid_credentials(&privs);
	if (*creds == PRIV_NONE) {
		fputs("ERROR: You are trying to run systemtap as a normal user.\n"
		      "You should either be root, or be part of group \"stapusr\" and "
		      "possibly the groups \"stapsys\" or \"stapdev\".\n", stderr);
		return -1;
	}
	return 0;
}

/* Room for tz_params()' text. */
#define TZ_PARAMS_LEN 96

/*
 * The local time zone for tz_gmtoff() and tz_name(), as staprun passes
 * it: what localtime(3) says now, appended to @dst (@n bytes) as module
 * parameters.  A name with characters other than letters, digits, '+'
 * and '-' (TZ comes from the caller, who may not be root) or longer than
 * the module's 15 is left out.
 */
static void tz_params(char *dst, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	const char *zone;
	size_t len;

	if (!localtime_r(&t, &tm))
		return;
	snprintf(dst, n, " _tap_tz_gmtoff=%ld", -(long)tm.tm_gmtoff);
	zone = tm.tm_zone ? tm.tm_zone : "";
	len = strspn(zone, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789+-");
	if (len > 0 && len < 16 && zone[len] == '\0')
		snprintf(dst + strlen(dst), n - strlen(dst), " _tap_tz_name=%s",
			 zone);
}

/* Room for the -N and -r parameters. */
#define REMOTE_URI_MAX 128
#define LOADER_PARAMS_LEN (96 + REMOTE_URI_MAX)

/* -r N:URI: N a number from 0, URI plain text (it becomes a module
 * parameter: no space, quote or control character).  false if not. */
static bool parse_remote(const char *arg, long *id, const char **uri)
{
	char *end;

	errno = 0;
	*id = strtol(arg, &end, 10);
	if (errno || end == arg || *end != ':' || *id < 0 || *id > 0x7fffffffL)
		return false;
	*uri = end + 1;
	return strlen(*uri) < REMOTE_URI_MAX &&
	       strspn(*uri, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._:/@+-") == strlen(*uri);
}

/*
 * The module file, opened and checked for a caller with credentials creds
 * (approve.h): its descriptor, with s->name the name the kernel will give
 * it ("name=" of its .modinfo, written by modpost; left alone if the file
 * has none, so that a renamed file still works) and *params its
 * NAME=VALUE parameters (room left for _tap_target and the time zone's);
 * -1 after a message.
 */
static int open_module(struct session *s, const char *path, unsigned creds,
		       char **args, int nargs, char **params)
{
	struct modimage m;
	/* and room for _tap_target, _tap_ns_pid and _tap_flight */
	size_t plen = 64 + 32 + TZ_PARAMS_LEN + LOADER_PARAMS_LEN;
	int fd = approve_open(path, creds);

	*params = NULL;
	if (fd < 0)
		return -1;
	if (modimage_read(fd, &m) < 0) {
		fprintf(stderr, "ERROR: %s: cannot read module '%s': %s\n", prog,
			path, strerror(errno));
		close(fd);
		return -1;
	}
	modimage_name(&m, s->name, sizeof(s->name));
	if (!approve_name(s->name)) {
		fprintf(stderr, "ERROR: %s: bad module name '%s'\n", prog, s->name);
		goto fail;
	}
	if (!approve_level(&m, path, creds))
		goto fail;
	for (int i = 0; i < nargs; i++) {
		if (!approve_param(&m, args[i], privs.active))
			goto fail;
		plen += strlen(args[i]) + 1;
	}
	*params = calloc(1, plen);
	if (!*params)
		goto fail;
	for (int i = 0; i < nargs; i++) {
		strcat(*params, args[i]);
		strcat(*params, " ");
	}
	modimage_free(&m);
	return fd;
fail:
	modimage_free(&m);
	close(fd);
	return -1;
}

/* The load, as root: finit_module() of the checked descriptor (with -R,
 * init_module() of a renamed copy of its bytes when the name is taken).
 * 0, or -1 with errno set. */
static int load_module(struct session *s, int fd, const char *params)
{
	int ret, err;

	if (setuid_raise(&privs) < 0)
		return -1;
	ret = (int)syscall(SYS_finit_module, fd, params, 0);
	if (ret != 0 && errno == EEXIST && rename_if_loaded)
		ret = load_renamed(s, fd, params);
	err = errno;
	setuid_lower(&privs);
	errno = err;
	return ret;
}

/*
 * A module of that name is loaded already (the same cached module run
 * twice at once): load this copy under a name of the same length made
 * unique by our pid, "PREFIXpNNNNNNN" in place of its last 8 characters,
 * as staprun renames stap's modules.  0 with s->name updated, or -1 with
 * errno set.
 */
static int load_renamed(struct session *s, int fd, const char *params)
{
	char name[sizeof(s->name)];
	size_t len = strlen(s->name);
	struct modimage m;
	int ret;

	if (len < 13) {
		errno = EEXIST;
		return -1;
	}
	snprintf(name, sizeof(name), "%.*sp%07ld", (int)(len - 8), s->name,
		 (long)getpid() % 10000000L);
	if (modimage_read(fd, &m) < 0)
		return -1;
	if (modimage_rename(&m, name) < 0) {
		modimage_free(&m);
		errno = EEXIST;
		return -1;
	}
	vmsg("module %s is loaded already: loading this one as %s", s->name, name);
	ret = (int)syscall(SYS_init_module, m.img, m.size, params);
	modimage_free(&m);
	if (ret == 0) {
		snprintf(s->name, sizeof(s->name), "%s", name);
		snprintf(s->dir, sizeof(s->dir), "/proc/tapc-%s", s->name);
	}
	return ret;
}

/*
 * The kernel log from now on, opened before the load: finit_module()
 * returns only an errno, and the reasons (the module's own "cannot load"
 * lines, unknown symbols) are in the log.  -1 when it cannot be read.
 */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A record about module @name that says why it failed, not a taint note. */
static const char *kmsg_reason(char *rec, const char *name)
{
	size_t nlen = strlen(name);
	char *msg = strchr(rec, ';'), *nl;

	if (!msg)
		return NULL;
	msg++;
	nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	if (strncmp(msg, name, nlen) || msg[nlen] != ':')
		return NULL;
	if (strstr(msg, "taints kernel") || strstr(msg, "tainting kernel"))
		return NULL;
	return msg;
}

/* Print what the kernel logged about module @name since @fd was opened. */
static void kmsg_report(int fd, const char *name)
{
	char rec[2048];
	const char *msg;
	ssize_t n;

	if (fd < 0)
		return;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten meanwhile */
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = kmsg_reason(rec, name);
		if (msg)
			fprintf(stderr, "%s: kernel: %s\n", prog, msg);
	}
}

static int ctl_read(struct session *s)
{
	char buf[128];
	ssize_t n = pread(s->ctl_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* the fifth count (prints cut to the hit's buffer) and the sixth
	 * (errors --suppress-handler-errors kept quiet) are newer */
	s->cut = 0;
	s->suppressed = 0;
	if (sscanf(buf, "%31s %ld %ld %llu %llu %ld", s->state, &s->errors, &s->skipped,
		   &s->dropped, &s->cut, &s->suppressed) < 4)
		return -1;
	return 0;
}

static int ctl_write(struct session *s, const char *cmd)
{
	vmsg("asking the module to %s", cmd);
	if (write(s->ctl_fd, cmd, strlen(cmd)) < 0) {
		fprintf(stderr, "ERROR: %s: cannot write '%s' to %s/ctl: %s\n",
			prog, cmd, s->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void request_stop(struct session *s, const char *why)
{
	if (s->stop_sent)
		return;
	vmsg("stopping: %s", why);
	s->stop_sent = true;
	ctl_write(s, "stop");
}

/* Read what one channel has: its byte count, 0 at its end (*eof set)
 * or when it has nothing now, -1 on error. */
static ssize_t channel_read(int from, char *buf, size_t size, bool *eof)
{
	ssize_t n = read(from, buf, size);

	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		fprintf(stderr, "ERROR: %s: read error: %s\n", prog,
			strerror(errno));
		*eof = true;
		return -1;
	}
	if (n == 0)
		*eof = true;
	return n;
}

static void take_signals(struct session *s);

/*
 * The script's output, to stdout or the -o file: false on error.  The
 * signals that came are taken first: output written after a SIGUSR2 was
 * sent (switch_file()) goes to the next file.
 */
static bool relay_out(struct session *s)
{
	char buf[65536];
	ssize_t n;

	take_signals(s);
	n = channel_read(s->out_fd, buf, sizeof(buf), &s->out_eof);

	if (n < 0)
		return false;
	return n == 0 || outfile_write(&s->dest, buf, (size_t)n) == 0;
}

/*
 * As staprun, a session whose module wrote a line starting "ERROR" fails,
 * also when no probe hit counted an error: embedded C's _stp_error() and
 * _stp_softerror() only write the line.  Lines may span reads.
 */
static void note_error_lines(struct session *s, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s->err_col < sizeof(s->err_head))
			s->err_head[s->err_col] = buf[i];
		if (++s->err_col == sizeof(s->err_head) &&
		    memcmp(s->err_head, "ERROR", sizeof(s->err_head)) == 0)
			s->logged_error = true;
		if (buf[i] == '\n')
			s->err_col = 0;
	}
}

/* Errors and warnings, to stderr (whose failures do not matter). */
static bool relay_err(struct session *s)
{
	char buf[16384];
	ssize_t n = channel_read(s->err_fd, buf, sizeof(buf), &s->err_eof);

	if (n > 0) {
		write_all(STDERR_FILENO, buf, (size_t)n);
		note_error_lines(s, buf, (size_t)n);
	}
	return n >= 0;
}

static void run_system(const char *cmd, void *arg)
{
	(void)arg;
	vmsg("system(): %s", cmd);
	if (syscmd_start(cmd, &privs) < 0)
		fprintf(stderr, "WARNING: %s: cannot start system() command '%s': %s\n",
			prog, cmd, strerror(errno));
}

/*
 * system() commands: the output the module had before them is relayed
 * first (the runtime hands a hit's output over before its command), so
 * that what a probe printed before system() precedes what the command
 * prints.  False on error.
 */
static bool relay_cmd(struct session *s)
{
	char buf[4096];
	ssize_t n;

	while (!s->out_eof) {
		size_t before = s->dest.written;
		unsigned long fnum = s->dest.fnum;

		if (!relay_out(s))
			return false;
		if (s->dest.written == before && s->dest.fnum == fnum)
			break;	/* nothing more now */
	}
	n = channel_read(s->cmd_fd, buf, sizeof(buf), &s->cmd_eof);
	if (n > 0)
		syscmd_feed(&s->cmds, buf, (size_t)n, run_system, NULL);
	return n >= 0;
}

/*
 * Run the -c command in this process, so that target() is its pid, as
 * staprun does: words split and expanded as the shell would (quotes,
 * variables, globs), but without running a shell; a command that needs
 * one (pipes, redirections, ';') runs under /bin/sh -c.
 */
static bool needs_shell(const char *cmd)
{
	wordexp_t words;
	bool shell = true;

	if (wordexp(cmd, &words, WRDE_NOCMD) == 0) {
		shell = words.we_wordc == 0;
		wordfree(&words);
	}
	return shell;
}

static void exec_command(const char *cmd)
{
	wordexp_t words;

	if (wordexp(cmd, &words, WRDE_NOCMD) == 0) {
		if (words.we_wordc > 0) {
			execvp(words.we_wordv[0], words.we_wordv);
			fprintf(stderr, "ERROR: %s: cannot run '%s': %s\n", prog,
				words.we_wordv[0], strerror(errno));
			return;
		}
		wordfree(&words);
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "ERROR: %s: cannot run /bin/sh: %s\n", prog, strerror(errno));
}

/*
 * Whether the -c command could not be run: the child writes a byte to
 * its close-on-exec pipe only when exec failed, so end of file with no
 * byte means the command ran.  A command run by /bin/sh that the shell
 * cannot find or execute ends with status 127 or 126, as POSIX says.
 */
static bool command_failed(struct session *s, int wstatus)
{
	char c;
	bool failed = false;

	if (s->exec_fd >= 0) {
		failed = read(s->exec_fd, &c, 1) == 1;
		close(s->exec_fd);
		s->exec_fd = -1;
	}
	if (s->child_via_shell && WIFEXITED(wstatus) &&
	    (WEXITSTATUS(wstatus) == 127 || WEXITSTATUS(wstatus) == 126))
		failed = true;
	return failed;
}

/* The -c command: fork now, exec when released (after begin probes). */
static pid_t start_child(const char *cmd, const sigset_t *oldmask, int *go_fd,
			 int *exec_fd)
{
	int p[2], e[2];
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(e, O_CLOEXEC) < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		close(e[0]);
		close(e[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[1]);
		close(e[0]);
		/* the caller's command, never root's */
		if (setuid_drop(&privs) != 0) {
			if (write(e[1], "x", 1) < 0)
				_exit(127);
			_exit(127);
		}
		/* its own process group, so that all of it can be ended */
		setpgid(0, 0);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		exec_command(cmd);
		if (write(e[1], "x", 1) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);	/* also here: no race with end_child() */
	close(p[0]);
	close(e[1]);
	*go_fd = p[1];
	*exec_fd = e[0];
	return pid;
}

static void release_child(struct session *s)
{
	if (!s->child || s->child_released)
		return;
	vmsg("starting the command, pid %d", (int)s->child);
	if (write(s->go_fd, "g", 1) != 1)
		fprintf(stderr, "WARNING: %s: cannot start the command\n", prog);
	close(s->go_fd);
	s->go_fd = -1;
	s->child_released = true;
}

/* End the -c command if it is still there: it never outlives us. */
static void end_child(struct session *s)
{
	int i, wstatus = 0;
	bool released = s->go_fd < 0;

	if (!s->child)
		return;
	if (!released) {
		close(s->go_fd);	/* never released: it exits by itself */
		s->go_fd = -1;
	} else {
		kill(-s->child, SIGTERM);
	}
	for (i = 0; i < 100; i++) {
		if (waitpid(s->child, &wstatus, WNOHANG) != 0)
			break;
		usleep(20000);
	}
	if (i == 100) {
		kill(-s->child, SIGKILL);
		waitpid(s->child, &wstatus, 0);
	}
	if (released && command_failed(s, wstatus))
		s->child_failed = true;
	s->child = 0;
}

static int remove_module(struct session *s)
{
	int i, err;

	if (setuid_raise(&privs) < 0)
		return -1;
	for (i = 0; i < 100; i++) {
		if (syscall(SYS_delete_module, s->name, O_NONBLOCK) == 0) {
			setuid_lower(&privs);
			vmsg("removed module %s", s->name);
			s->loaded = false;
			return 0;
		}
		if (errno != EAGAIN && errno != EBUSY && errno != EINTR)
			break;
		usleep(50000);
	}
	err = errno;
	setuid_lower(&privs);
	fprintf(stderr, "ERROR: %s: cannot remove module '%s': %s\n", prog,
		s->name, strerror(err));
	return -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_channel(struct session *s, const char *file, int flags)
{
	char path[400];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", s->dir, file);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "ERROR: %s: cannot open %s: %s\n", prog, path,
			strerror(errno));
	return fd;
}

/*
 * The commands of system(), run with the caller's privileges.  The
 * channel must belong to the caller: the module gives its files to the
 * real user who loaded it, so a /proc/tapc-NAME of another user's module
 * is never taken for ours.
 */
static int open_cmd_channel(struct session *s)
{
	int fd = open_channel(s, "cmd", O_RDONLY | O_NONBLOCK);
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_uid != getuid())) {
		fprintf(stderr, "ERROR: %s: %s/cmd does not belong to the session's user\n",
			prog, s->dir);
		close(fd);
		fd = -1;
	}
	return fd;
}

/* SIGCHLD: the -c command ended (or could not be run): stop. */
static void child_ended(struct session *s)
{
	int wstatus;

	if (!s->child || waitpid(s->child, &wstatus, WNOHANG) != s->child)
		return;
	kill(-s->child, SIGTERM);
	s->child = 0;
	if (command_failed(s, wstatus)) {
		s->child_failed = true;
		request_stop(s, "the command could not be run");
	} else {
		request_stop(s, "the command ended");
	}
}

/*
 * SIGQUIT (Ctrl-\), as staprun's: leave the module running, its output
 * kept for a later -A, once it runs (at once if it does), unless it is
 * ending already.  A -c command that runs goes on; one not yet started
 * never is.
 */
static void detach_on_request(struct session *s)
{
	if (s->stop_sent)
		return;
	vmsg("SIGQUIT: leaving the module running");
	s->detach_when_running = true;
	if (!strcmp(s->state, "running"))
		s->detached = true;
}

/*
 * The signals that came (sigfd does not block): SIGCHLD for the -c
 * command, SIGUSR2 for the next output file (switch_file(): taken before
 * each read of the output, so that all output written after the signal
 * was sent goes to the new file), SIGQUIT to detach, the others to stop.
 */
static void take_signals(struct session *s)
{
	struct signalfd_siginfo si;

	while (read(s->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			child_ended(s);
		} else if (si.ssi_signo == SIGUSR2) {
			vmsg("SIGUSR2: the next output file");
			if (outfile_switch(&s->dest) < 0 || bulk_switch(&s->bulk) < 0)
				request_stop(s, "no output file");
		} else if (si.ssi_signo == SIGQUIT) {
			detach_on_request(s);
		} else {
			request_stop(s, strsignal(si.ssi_signo));
		}
	}
}

/* The session runs: start the -c command and feed stdin to the script. */
static void session_running(struct session *s)
{
	release_child(s);
	if (!s->input_tried) {
		s->input_tried = true;
		input_open(&s->input, s->name);
	}
}

/* Relay until the session is done and its channels are drained. */
static int run_session(struct session *s, double timeout)
{
	double deadline = timeout > 0 ? now() + timeout : 0;
	bool ctl_ok = true;
	/* room for the per-CPU channels and the six others */
	struct pollfd *pfd = calloc((size_t)s->bulk.n + 6, sizeof(*pfd));
	int *chan_of = calloc((size_t)s->bulk.n + 1, sizeof(*chan_of));
	int ret = -1;

	if (!s->attached && ctl_write(s, "start") < 0)
		goto out;
	if (!pfd || !chan_of) {
		fprintf(stderr, "ERROR: %s: out of memory\n", prog);
		goto out;
	}
	while (!s->detached && !(s->out_eof && s->err_eof && s->cmd_eof && bulk_done(&s->bulk))) {
		int n, ms = -1, i_out = -1, i_err = -1, i_cmd = -1;
		int i_ctl = -1, i_in = -1, n_bulk;
		/* -L leaves the output where it is, for -A; but a script that
		 * ends before it runs (exit() in a begin probe) ends here */
		bool keep_output = s->detach_when_running && !s->stop_sent;

		/* the per-CPU channels first, at pfd[0 .. n_bulk - 1] */
		n = n_bulk = keep_output ? 0 : bulk_poll_fds(&s->bulk, pfd, chan_of);

		if (!s->out_eof && !keep_output) {
			pfd[n] = (struct pollfd){ .fd = s->out_fd, .events = POLLIN };
			i_out = n++;
		}
		if (!s->err_eof) {
			pfd[n] = (struct pollfd){ .fd = s->err_fd, .events = POLLIN };
			i_err = n++;
		}
		if (!s->cmd_eof) {
			pfd[n] = (struct pollfd){ .fd = s->cmd_fd, .events = POLLIN };
			i_cmd = n++;
		}
		if (ctl_ok) {
			pfd[n] = (struct pollfd){ .fd = s->ctl_fd,
						  .events = POLLIN | POLLPRI };
			i_ctl = n++;
		}
		if (s->input.fd >= 0 && !s->stop_sent) {
			pfd[n] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
			i_in = n++;
		}
		pfd[n] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
		n++;
		if (deadline && !s->stop_sent) {
			double left = deadline - now();

			ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
		}
		if (poll(pfd, (nfds_t)n, ms) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ERROR: %s: poll: %s\n", prog,
				strerror(errno));
			goto out;
		}
		if (deadline && !s->stop_sent && now() >= deadline)
			request_stop(s, "-T time is up");
		take_signals(s);
		if (i_ctl >= 0 && pfd[i_ctl].revents) {
			if (ctl_read(s) < 0) {
				fprintf(stderr,
					"ERROR: %s: cannot read %s/ctl\n",
					prog, s->dir);
				ctl_ok = false;
				request_stop(s, "control file error");
			} else {
				vmsg("module state: %s", s->state);
				if (!strcmp(s->state, "running") && s->detach_when_running)
					s->detached = true;
				else if (!strcmp(s->state, "running"))
					session_running(s);
				else if (!strcmp(s->state, "exiting"))
					request_stop(s, "the script called exit() or failed");
			}
		}
		if (i_in >= 0 && pfd[i_in].revents)
			input_forward(&s->input);
		if (i_out >= 0 && pfd[i_out].revents && !relay_out(s))
			goto out;
		for (int i = 0; i < n_bulk; i++)
			if (pfd[i].revents && !bulk_relay(&s->bulk, chan_of[i]))
				goto out;
		if (i_err >= 0 && pfd[i_err].revents && !relay_err(s))
			goto out;
		if (i_cmd >= 0 && pfd[i_cmd].revents && !relay_cmd(s))
			goto out;
	}
	input_close(&s->input);
	ret = s->detached ? 0 : ctl_read(s);	/* the final counts */
out:
	free(pfd);
	free(chan_of);
	return ret;
}

/*
 * -L and -A, as staprun's: -L loads and leaves (no output file, command
 * or background relay: the output stays in the module); -A attaches to a
 * module by name, without parameters or a target of its own.
 */
static bool modes_valid(const struct session *s, bool attach, bool background,
			const char *outfile, const char *cmd, long target, int nparams)
{
	const char *bad = NULL;

	if (s->detach_when_running && attach)
		bad = "You can't specify -L and -A options together.";
	else if (s->detach_when_running && (outfile || background || cmd))
		bad = "You can't specify -L with -o, -D or -c.";
	else if (attach && nparams > 0)
		bad = "Cannot have module options with attach (-A).";
	else if (attach && (background || cmd || target || rename_if_loaded))
		bad = "You can't specify -A with -D, -c, -x or -R.";
	if (bad) {
		fprintf(stderr, "ERROR: %s\n", bad);
		usage(stderr);
	}
	return !bad;
}

/* -A: the module's files are there and are the caller's (the module gives
 * them to the user who loaded it; root may attach to any). */
static bool attachable(const struct session *s)
{
	struct stat st;

	if (!approve_name(s->name)) {
		fprintf(stderr, "ERROR: %s: bad module name '%s'\n", prog, s->name);
		return false;
	}
	if (lstat(s->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ERROR: Cannot attach to module %s control channel; not running?\n",
			s->name);
		return false;
	}
	if (st.st_uid != getuid() && getuid() != 0) {
		fprintf(stderr, "ERROR: %s: module %s is another user's\n", prog, s->name);
		return false;
	}
	return true;
}

/* -L or SIGQUIT: the module runs on (its files closed); tell how to come
 * back, as staprun does. */
static int leave_running(struct session *s, int status, char *params)
{
	if (outfile_close(&s->dest) < 0)
		status = 1;
	free(params);
	fprintf(stderr, "\nDisconnecting from systemtap module.\n"
		"To reconnect, type \"tapc-run -A %s\"\n", s->name);
	return status;
}

int main(int argc, char **argv)
{
	struct session s = { .out_fd = -1, .err_fd = -1, .cmd_fd = -1,
			     .ctl_fd = -1, .dest = { .fd = STDOUT_FILENO },
			     .input = { .fd = -1 }, .go_fd = -1, .exec_fd = -1 };
	const char *outfile = NULL, *cmd = NULL, *size_arg = NULL;
	unsigned long long size_max = 0;
	unsigned long num_max = 0;
	long target = 0, ns_pid = 0, remote_id = -1;
	const char *remote_uri = NULL;
	double timeout = 0;
	bool background = false;	/* -D */
	bool attach = false;		/* -A */
	char *params = NULL, *end;
	sigset_t mask, oldmask;
	unsigned creds;
	int opt, fd, kmsg_fd, sigfd = -1, status = 0;

	if (setuid_init(&privs) < 0)
		return 1;
	while ((opt = getopt(argc, argv, "+o:S:DLAc:x:N:r:T:Rvh")) != -1) {
		switch (opt) {
		case 'R':
			rename_if_loaded = true;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'S':
			size_arg = optarg;
			if (!outfile_parse_size(optarg, &size_max, &num_max)) {
				fprintf(stderr, "ERROR: Invalid file size option '%s'.\n",
					optarg);
				usage(stderr);
				return 1;
			}
			break;
		case 'D':
			background = true;
			break;
		case 'L':
			s.detach_when_running = true;
			break;
		case 'A':
			attach = true;
			break;
		case 'c':
			cmd = optarg;
			break;
		case 'x':
			errno = 0;
			target = strtol(optarg, &end, 10);
			if (errno || *end || target <= 0) {
				fprintf(stderr, "ERROR: %s: bad pid '%s'\n",
					prog, optarg);
				return 1;
			}
			break;
		case 'N':
			errno = 0;
			ns_pid = strtol(optarg, &end, 10);
			if (errno || *end || ns_pid <= 0 || ns_pid > 0x7fffffffL) {
				fprintf(stderr, "ERROR: %s: bad pid '%s'\n",
					prog, optarg);
				return 1;
			}
			break;
		case 'r':
			if (!parse_remote(optarg, &remote_id, &remote_uri)) {
				fprintf(stderr, "ERROR: %s: bad -r '%s' (expected N:URI)\n",
					prog, optarg);
				return 1;
			}
			break;
		case 'T':
			timeout = strtod(optarg, &end);
			if (*end || !(timeout > 0)) {
				fprintf(stderr, "ERROR: %s: bad -T '%s'\n",
					prog, optarg);
				return 1;
			}
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind >= argc || (cmd && target)) {
		usage(stderr);
		return 1;
	}
	if (size_arg && !outfile) {
		fprintf(stderr, "ERROR: You have to specify output FILE with '-S' option.\n");
		usage(stderr);
		return 1;
	}
	if (background && !outfile) {
		fprintf(stderr, "ERROR: You have to specify output FILE with '-D' option.\n");
		usage(stderr);
		return 1;
	}
	if (background && cmd) {
		/* the background relay is no longer the command's parent */
		fprintf(stderr, "ERROR: You can't specify -c and -D options together.\n");
		usage(stderr);
		return 1;
	}
	if (!modes_valid(&s, attach, background, outfile, cmd, target, argc - optind - 1))
		return 1;
	if (module_name(argv[optind], s.name, sizeof(s.name)) < 0) {
		fprintf(stderr, "ERROR: %s: bad module name '%s'\n", prog,
			argv[optind]);
		return 1;
	}
	if (caller_credentials(&creds) < 0)
		return 1;

	/* module parameters: NAME=VALUE..., and later the target pid */
	if (!attach) {
		fd = open_module(&s, argv[optind], creds, argv + optind + 1,
				 argc - optind - 1, &params);
		if (fd < 0)
			goto fail;
	}
	snprintf(s.dir, sizeof(s.dir), "/proc/tapc-%s", s.name);

	/* From here on, signals are read from sigfd. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGUSR2);	/* switch_file() */
	sigaddset(&mask, SIGQUIT);	/* detach_on_request() */
	/* Blocked, they wait in sigfd even when ignored (a shell starts a
	 * background job with SIGINT and SIGQUIT ignored): as staprun's,
	 * a kill -QUIT still detaches, a kill -INT still stops. */
	sigprocmask(SIG_BLOCK, &mask, &oldmask);
	signal(SIGPIPE, SIG_IGN);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	s.sigfd = sigfd;
	if (sigfd < 0) {
		fprintf(stderr, "ERROR: %s: signalfd: %s\n", prog,
			strerror(errno));
		goto fail;
	}

	if (attach) {
		/* -A: loaded, started and left running by an earlier -L */
		if (!attachable(&s))
			goto fail;
		s.attached = true;
		s.loaded = true;
		goto open_channels;
	}
	if (cmd) {
		s.child_via_shell = needs_shell(cmd);
		s.child = start_child(cmd, &oldmask, &s.go_fd, &s.exec_fd);
		if (s.child < 0) {
			fprintf(stderr, "ERROR: %s: cannot fork: %s\n", prog,
				strerror(errno));
			goto fail;
		}
		target = s.child;
	}
	if (target)
		snprintf(params + strlen(params), 64, "_tap_target=%ld ", target);
	if (ns_pid)
		snprintf(params + strlen(params), 64, "_tap_ns_pid=%ld ", ns_pid);
	if (remote_uri)
		snprintf(params + strlen(params), LOADER_PARAMS_LEN,
			 "_tap_remote_id=%ld _tap_remote_uri=%s ", remote_id,
			 remote_uri);
	if (s.detach_when_running)
		strcat(params, "_tap_flight=1 ");
	tz_params(params + strlen(params), TZ_PARAMS_LEN);

	vmsg("loading %s as module %s, parameters '%s'", argv[optind], s.name,
	     params);
	kmsg_fd = kmsg_open_at_end();
	if (load_module(&s, fd, params) != 0) {
		fprintf(stderr, "ERROR: Couldn't insert module '%s': %s\n",
			argv[optind], strerror(errno));
		kmsg_report(kmsg_fd, s.name);
		if (kmsg_fd >= 0)
			close(kmsg_fd);
		close(fd);
		end_child(&s);
		goto fail;
	}
	if (kmsg_fd >= 0)
		close(kmsg_fd);
	close(fd);
	s.loaded = true;

open_channels:
	/* a bulk-mode module's output goes to its per-CPU files alone */
	if (bulk_open(&s.bulk, s.dir, outfile, size_max, num_max) < 0 ||
	    outfile_open(&s.dest, s.bulk.n ? NULL : outfile, size_max, num_max) < 0) {
		status = 1;
	} else {
		s.ctl_fd = open_channel(&s, "ctl", O_RDWR);
		s.out_fd = open_channel(&s, "out", O_RDONLY | O_NONBLOCK);
		s.err_fd = open_channel(&s, "err", O_RDONLY | O_NONBLOCK);
		s.cmd_fd = open_cmd_channel(&s);
		if (s.ctl_fd < 0 || s.out_fd < 0 || s.err_fd < 0 ||
		    s.cmd_fd < 0 || (background && run_in_background(prog) < 0) ||
		    run_session(&s, timeout) < 0)
			status = 1;
	}
	if (bulk_close(&s.bulk) < 0)
		status = 1;
	if (s.cmd_fd >= 0)
		close(s.cmd_fd);
	if (s.ctl_fd >= 0)
		close(s.ctl_fd);
	if (s.out_fd >= 0)
		close(s.out_fd);
	if (s.err_fd >= 0)
		close(s.err_fd);
	if (s.detached)
		return leave_running(&s, status, params);
	end_child(&s);
	if (remove_module(&s) < 0)
		status = 1;

	if (s.errors || s.suppressed || s.skipped)
		fprintf(stderr,
			"WARNING: Number of errors: %ld, skipped probes: %ld\n",
			s.errors + s.suppressed, s.skipped);
	if (s.dropped)
		fprintf(stderr,
			"WARNING: %llu bytes of output were dropped: the module's output buffer was full (enlarge it with -s MiB or -D TAP_BUFFER_SIZE=BYTES)\n",
			s.dropped);
	if (s.cut)
		fprintf(stderr,
			"WARNING: %llu bytes of output were dropped: a print was longer than a probe hit's print buffer (enlarge it with -D TAP_PRINT_BUFSIZE=BYTES)\n",
			s.cut);
	if (s.errors || s.child_failed || s.logged_error)
		status = 1;
	if (outfile_close(&s.dest) < 0)
		status = 1;
	if (s.cmds.overlong)
		fprintf(stderr, "WARNING: %s: %llu system() commands were too long to run\n",
			prog, s.cmds.overlong);
	free(params);
	return status;
fail:
	free(params);
	return 1;
}
