/* tapc-run's session pieces in user space: the system() command channel
 * split into commands, the commands' process (shell, privileges,
 * descriptors, signals), and the -o/-S output files, -b's per CPU. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/run/background.h"
#include "../../src/run/bulk.h"
#include "../../src/run/outfile.h"
#include "../../src/run/syscmd.h"
#include "check.h"

static char dir[] = "/tmp/tapc-test-session.XXXXXX";

/* ---- the cmd channel ------------------------------------------------ */

struct seen {
	char cmds[8][SYSCMD_MAX + 1];
	int n;
};

static void record(const char *cmd, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8)
		snprintf(s->cmds[s->n], sizeof(s->cmds[0]), "%s", cmd);
	s->n++;
}

static void test_feed(void)
{
	static const char chan[] = "echo a\0ls -l | wc\0\0tail";
	struct syscmd_reader r = { .len = 0 };
	struct seen s = { .n = 0 };
	char big[SYSCMD_MAX + 10];

	/* byte by byte: commands split across reads */
	for (size_t i = 0; i < sizeof(chan) - 1; i++)
		syscmd_feed(&r, chan + i, 1, record, &s);
	CHECK(s.n == 3, "3 whole commands, got %d", s.n);
	CHECK(!strcmp(s.cmds[0], "echo a"), "first: '%s'", s.cmds[0]);
	CHECK(!strcmp(s.cmds[1], "ls -l | wc"), "second: '%s'", s.cmds[1]);
	CHECK(!strcmp(s.cmds[2], ""), "an empty command: '%s'", s.cmds[2]);
	syscmd_feed(&r, "\0", 1, record, &s);
	CHECK(s.n == 4 && !strcmp(s.cmds[3], "tail"), "the rest once its NUL came: %d '%s'",
	      s.n, s.cmds[3]);

	/* the longest the runtime sends, and one byte more */
	memset(big, 'x', sizeof(big));
	big[SYSCMD_MAX] = '\0';
	s.n = 0;
	syscmd_feed(&r, big, SYSCMD_MAX + 1, record, &s);
	CHECK(s.n == 1 && strlen(s.cmds[0]) == SYSCMD_MAX, "383 bytes run: %d", s.n);
	big[SYSCMD_MAX] = 'x';
	big[SYSCMD_MAX + 1] = '\0';
	syscmd_feed(&r, big, 100, record, &s);
	syscmd_feed(&r, big + 100, SYSCMD_MAX + 2 - 100, record, &s);
	syscmd_feed(&r, "ok\0", 3, record, &s);
	CHECK(s.n == 2 && r.overlong == 1 && !strcmp(s.cmds[1], "ok"),
	      "384 bytes counted, not run, the next one whole: %d %llu '%s'",
	      s.n, r.overlong, s.cmds[1]);
}

/* ---- the command's process ------------------------------------------ */

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f;
	size_t n;

	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Run CMD through syscmd_start() and wait for the file it writes last. */
static char *run_and_read(const char *cmd, const struct setuid_state *privs,
			  const char *result)
{
	char done[300];

	snprintf(done, sizeof(done), "%s/done", dir);
	unlink(done);
	unlink(result);
	CHECK(syscmd_start(cmd, privs) == 0, "syscmd_start('%s')", cmd);
	/* the command is nobody's child: wait for its file */
	for (int i = 0; i < 500 && access(done, F_OK) != 0; i++)
		usleep(10000);
	CHECK(access(done, F_OK) == 0, "the command ran: %s", cmd);
	return slurp(result);
}

static void test_command(void)
{
	struct setuid_state me = { .active = false };
	char cmd[1024], result[300];
	sigset_t mask;
	char *out;
	int fd;

	snprintf(result, sizeof(result), "%s/result", dir);
	/* what tapc-run has when it runs commands: an inherited descriptor
	 * without close-on-exec, signals blocked (signalfd) and ignored */
	fd = open("/dev/null", O_RDONLY);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	snprintf(cmd, sizeof(cmd),
		 "{ printf 'a\\nb\\n' | wc -l; [ -e /proc/self/fd/%d ] && echo fd-open || echo fd-closed; "
		 "grep -E '^Sig(Blk|Ign)' /proc/self/status; } >%s; : >%s/done",
		 fd, result, dir);
	out = run_and_read(cmd, &me, result);
	CHECK(!strncmp(out, "2\nfd-closed\n", 12), "a shell; descriptors closed: '%s'", out);
	CHECK(strstr(out, "SigBlk:\t0000000000000000\n") != NULL, "no signal blocked: '%s'", out);
	/* signals 1-31 (glibc keeps 32 and 33 for itself: an ignored one
	 * inherited from the test's parent cannot be reset with signal()) */
	{
		const char *ign = strstr(out, "SigIgn:\t");

		CHECK(ign && strtoull(ign + 8, NULL, 16) % (1ULL << 31) == 0,
		      "no signal ignored: '%s'", out);
	}
	close(fd);

	/* set-user-ID root for another user: the command is that user's for
	 * good (real, effective, saved, filesystem ids; groups too) */
	if (geteuid() == 0) {
		struct setuid_state other = { .active = true, .euid_root = true,
					      .ruid = 65534, .rgid = 65534 };

		chmod(dir, 0777);
		snprintf(cmd, sizeof(cmd),
			 "grep -E '^(Uid|Gid|CapPrm|CapEff)' /proc/self/status >%s; : >%s/done",
			 result, dir);
		out = run_and_read(cmd, &other, result);
		CHECK(!strcmp(out, "Uid:\t65534\t65534\t65534\t65534\n"
			      "Gid:\t65534\t65534\t65534\t65534\n"
			      "CapPrm:\t0000000000000000\n"
			      "CapEff:\t0000000000000000\n"),
		      "the caller's ids only, no capability: '%s'", out);
	} else {
		printf("(not root: the privilege drop is not checked)\n");
	}
}

/* ---- -o and -S ------------------------------------------------------ */

static const char *file_text(const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) != 0)
		return "(none)";
	return slurp(path);
}

static void test_outfile(void)
{
	unsigned long long size;
	unsigned long num;
	struct outfile o;
	char pattern[300], chunk[600 * 1024];

	CHECK(outfile_parse_size("5", &size, &num) && size == 5ULL << 20 && num == 0,
	      "-S 5");
	CHECK(outfile_parse_size("1,3", &size, &num) && size == 1ULL << 20 && num == 3,
	      "-S 1,3");
	CHECK(!outfile_parse_size("", &size, &num) && !outfile_parse_size("x", &size, &num) &&
	      !outfile_parse_size("1,", &size, &num) && !outfile_parse_size("1,2x", &size, &num) &&
	      !outfile_parse_size("-1", &size, &num) && !outfile_parse_size(",2", &size, &num),
	      "bad -S refused");

	/* -o FILE: FILE, then FILE.1, FILE.2 on each switch */
	snprintf(pattern, sizeof(pattern), "%s/plain", dir);
	CHECK(outfile_open(&o, pattern, 0, 0) == 0, "open %s", pattern);
	outfile_write(&o, "zero\n", 5);
	outfile_switch(&o);
	outfile_write(&o, "one\n", 4);
	outfile_switch(&o);
	outfile_write(&o, "two\n", 4);
	CHECK(outfile_close(&o) == 0, "close");
	CHECK(!strcmp(file_text("plain"), "zero\n"), "FILE: '%s'", file_text("plain"));
	CHECK(!strcmp(file_text("plain.1"), "one\n"), "FILE.1: '%s'", file_text("plain.1"));
	CHECK(!strcmp(file_text("plain.2"), "two\n"), "FILE.2: '%s'", file_text("plain.2"));

	/* -S 1,2: the next file once one holds more than 1 MiB (checked
	 * before each write, as stapio), only the last two kept */
	snprintf(pattern, sizeof(pattern), "%s/sized", dir);
	CHECK(outfile_open(&o, pattern, 1ULL << 20, 2) == 0, "open -S");
	memset(chunk, 'a', sizeof(chunk));
	/* the second chunk still goes to .0 (600 KiB, not past 1 MiB yet),
	 * the third to .1 */
	for (int i = 0; i < 4; i++)
		outfile_write(&o, chunk, sizeof(chunk));
	CHECK(o.fnum == 1, "4 x 600 KiB: the second file (.1), at %lu", o.fnum);
	outfile_switch(&o);	/* switch_file(): .2, and .0 goes */
	outfile_write(&o, "last\n", 5);
	CHECK(outfile_close(&o) == 0, "close -S");
	CHECK(!strcmp(file_text("sized.0"), "(none)"), "FILE.0 removed");
	{
		char path[300];
		struct stat st;

		snprintf(path, sizeof(path), "%s/sized.1", dir);
		CHECK(stat(path, &st) == 0 && st.st_size == 2 * (off_t)sizeof(chunk),
		      "FILE.1: 2 chunks (%lld bytes)", (long long)st.st_size);
	}
	CHECK(!strcmp(file_text("sized.2"), "last\n"), "FILE.2: '%s'", file_text("sized.2"));

	/* never through a symbolic link */
	snprintf(pattern, sizeof(pattern), "%s/link", dir);
	CHECK(symlink("/dev/null", pattern) == 0, "symlink");
	{
		int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

		dup2(null, STDERR_FILENO);	/* its message is expected */
		CHECK(outfile_open(&o, pattern, 0, 0) < 0, "a symbolic link is refused");
		dup2(saved, STDERR_FILENO);
		close(null);
		close(saved);
	}
}

/* A bulk-mode module's channel directory: out_0 and out_1 (regular files
 * stand in for the per-CPU relay files here). */
static void make_channels(const char *chandir)
{
	char path[400];

	mkdir(chandir, 0700);
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "%s/out_%d", chandir, cpu);
		close(open(path, O_WRONLY | O_CREAT, 0600));
	}
}

/* -b: staprun's names, FILE_N, and once numbered FILE_cpuN.M */
static void test_bulk_names(void)
{
	char chandir[300], pattern[300];
	struct bulk b;

	snprintf(chandir, sizeof(chandir), "%s/chan", dir);
	make_channels(chandir);

	snprintf(pattern, sizeof(pattern), "%s/bk", dir);
	CHECK(bulk_open(&b, chandir, pattern, 0, 0) == 0 && b.n == 2, "bulk_open -o");
	outfile_write(&b.ch[0].dest, "c0\n", 3);
	outfile_write(&b.ch[1].dest, "c1\n", 3);
	bulk_switch(&b);	/* switch_file() */
	outfile_write(&b.ch[1].dest, "c1 next\n", 8);
	CHECK(bulk_close(&b) == 0, "bulk_close");
	CHECK(!strcmp(file_text("bk_0"), "c0\n"), "FILE_0: '%s'", file_text("bk_0"));
	CHECK(!strcmp(file_text("bk_1"), "c1\n"), "FILE_1: '%s'", file_text("bk_1"));
	CHECK(!strcmp(file_text("bk_cpu1.1"), "c1 next\n"), "FILE_cpu1.1: '%s'",
	      file_text("bk_cpu1.1"));
	CHECK(!strcmp(file_text("bk_cpu0.1"), ""), "FILE_cpu0.1: '%s'",
	      file_text("bk_cpu0.1"));

	/* -S 1,2 -b: FILE_cpuN.0 from the start, the oldest removed */
	snprintf(pattern, sizeof(pattern), "%s/bs", dir);
	CHECK(bulk_open(&b, chandir, pattern, 1ULL << 20, 2) == 0, "bulk_open -S");
	outfile_write(&b.ch[0].dest, "zero\n", 5);
	bulk_switch(&b);
	bulk_switch(&b);
	outfile_write(&b.ch[0].dest, "two\n", 4);
	CHECK(bulk_close(&b) == 0, "bulk_close -S");
	CHECK(!strcmp(file_text("bs_0"), "(none)"), "no FILE_0 with -S");
	CHECK(!strcmp(file_text("bs_cpu0.0"), "(none)"), "FILE_cpu0.0 removed");
	CHECK(!strcmp(file_text("bs_cpu1.1"), ""), "FILE_cpu1.1 kept");
	CHECK(!strcmp(file_text("bs_cpu0.2"), "two\n"), "FILE_cpu0.2: '%s'",
	      file_text("bs_cpu0.2"));
}

/* ---- -D: the relay in the background ----------------------------- */

/* The session id of @pid from /proc (-1 when it is gone). */
static long session_of(pid_t pid)
{
	char path[64], line[512], *close_paren;
	long sid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* pid (comm) state ppid pgrp session: comm may hold spaces */
	if (fgets(line, sizeof(line), f) && (close_paren = strrchr(line, ')')))
		sscanf(close_paren + 1, " %*c %*d %*d %ld", &sid);
	fclose(f);
	return sid;
}

/*
 * One go of tapc-run -D as a job runner sees it (tapc-vm's guest agent):
 * the runner's job is a process group, killed whole the moment the job's
 * process exits.  The relay must be out of that group by then.
 */
static void background_once(int round, int *lost)
{
	int out[2];
	pid_t job, relay = 0;
	char text[32] = "";
	ssize_t n;

	if (pipe(out) < 0)
		return;
	job = fork();
	if (job == 0) {
		setpgid(0, 0);
		dup2(out[1], STDOUT_FILENO);
		close(out[0]);
		if (run_in_background("test-session") < 0)
			_exit(1);
		alarm(30);	/* the relay's stand-in, killed below */
		for (;;)
			pause();
	}
	close(out[1]);
	waitpid(job, NULL, 0);
	kill(-job, SIGKILL);	/* as the agent does at a job's end */
	n = read(out[0], text, sizeof(text) - 1);
	close(out[0]);
	if (n > 0)
		relay = (pid_t)atol(text);
	if (relay <= 0 || session_of(relay) != (long)relay) {
		if (!*lost)
			printf("round %d: relay '%.*s' not in a session of its own\n",
			       round, n > 0 ? (int)n : 0, text);
		++*lost;
	}
	if (relay > 0)
		kill(relay, SIGKILL);
}

static void test_background(void)
{
	int lost = 0;

	for (int round = 0; round < 50; round++)
		background_once(round, &lost);
	CHECK(lost == 0, "-D: the relay outlived its job's process group (%d of 50 lost)",
	      lost);
}

int main(void)
{
	char cmd[400];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_feed();
	test_command();
	test_outfile();
	test_bulk_names();
	test_background();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("(could not remove %s)\n", dir);
	return check_summary("session");
}
