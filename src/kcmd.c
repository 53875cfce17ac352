/* kbuild's command lines as argv, parsed and run without a shell (see
 * kcmd.h). */
#define _GNU_SOURCE
#include "kcmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* ---- the lists ---------------------------------------------------------- */

struct kcmd_step *kcmd_add_step(struct kcmd_list *l)
{
	l->steps = xrealloc(l->steps, sizeof(*l->steps) * (size_t)(l->nsteps + 1));
	memset(&l->steps[l->nsteps], 0, sizeof(*l->steps));
	return &l->steps[l->nsteps++];
}

struct kcmd_prog *kcmd_add_prog(struct kcmd_step *st)
{
	st->progs = xrealloc(st->progs, sizeof(*st->progs) * (size_t)(st->nprogs + 1));
	memset(&st->progs[st->nprogs], 0, sizeof(*st->progs));
	return &st->progs[st->nprogs++];
}

static void step_free(struct kcmd_step *st)
{
	for (int i = 0; i < st->nprogs; i++) {
		strlist_free(&st->progs[i].argv);
		free(st->progs[i].out);
	}
	free(st->progs);
}

void kcmd_drop_step(struct kcmd_list *l, int i)
{
	step_free(&l->steps[i]);
	memmove(&l->steps[i], &l->steps[i + 1], sizeof(*l->steps) * (size_t)(l->nsteps - i - 1));
	l->nsteps--;
}

void kcmd_list_free(struct kcmd_list *l)
{
	for (int i = 0; i < l->nsteps; i++)
		step_free(&l->steps[i]);
	free(l->steps);
	memset(l, 0, sizeof(*l));
}

/* ---- parsing ------------------------------------------------------------ */

struct parser {
	struct kcmd_list *l;
	struct kcmd_step *step;		/* the pipeline being read, or NULL */
	struct strlist words;		/* the program being read */
	struct strbuf word;
	bool in_word;
	bool piped;			/* a '|' leads into the program */
	char *why;
	size_t whylen;
};

/* Outside quotes these mean something to the shell that an argv cannot
 * say; ';', '&' and '|' are handled on their own. */
static const char shell_specials[] = "$`()<>*?[]{}~#!";

static bool refuse(struct parser *P, const char *what, char c)
{
	snprintf(P->why, P->whylen, "%s%s%c%s", what, c ? " '" : "", c, c ? "'" : "");
	return false;
}

static void end_word(struct parser *P)
{
	if (!P->in_word)
		return;
	strlist_add(&P->words, P->word.buf ? P->word.buf : "");
	strbuf_free(&P->word);
	P->in_word = false;
}

/* The program read so far ends at sep: '|', ';' (also for "&&") or '\0'. */
static bool end_prog(struct parser *P, char sep)
{
	struct kcmd_prog *prog;

	end_word(P);
	if (P->words.count == 0) {
		/* only a trailing ';' may leave nothing behind it */
		if (sep || P->piped)
			return refuse(P, "an empty command", 0);
		return true;
	}
	if (!P->step)
		P->step = kcmd_add_step(P->l);
	prog = kcmd_add_prog(P->step);
	prog->argv = P->words;
	memset(&P->words, 0, sizeof(P->words));
	P->piped = sep == '|';
	if (!P->piped)
		P->step = NULL;
	return true;
}

static bool is_control(char c)
{
	return ((unsigned char)c < 0x20 && c != ' ' && c != '\t') || c == 0x7f;
}

/* A quoted part starting at *pp (on the quote); *pp ends after it. */
static bool quoted(struct parser *P, const char **pp)
{
	char q = **pp;
	const char *p = *pp + 1;

	for (; *p && *p != q; p++) {
		if (is_control(*p))
			return refuse(P, "a control character", 0);
		if (q == '"' && strchr("$`\\", *p))
			return refuse(P, "inside double quotes,", *p);
		strbuf_addc(&P->word, *p);
	}
	if (!*p)
		return refuse(P, "an unterminated quote", q);
	P->in_word = true;
	*pp = p + 1;
	return true;
}

bool kcmd_parse(const char *line, struct kcmd_list *l, char *why, size_t whylen)
{
	struct parser P = { .l = l, .why = why, .whylen = whylen };
	const char *p = line;
	bool ok = true;

	while (ok && *p) {
		char c = *p;

		if (c == ' ' || c == '\t') {
			end_word(&P);
			p++;
		} else if (c == '\'' || c == '"') {
			ok = quoted(&P, &p);
		} else if (c == '\\') {
			if (!p[1] || is_control(p[1]))
				ok = refuse(&P, "a backslash at the end of a line", 0);
			else
				strbuf_addc(&P.word, p[1]);
			P.in_word = true;
			p += 2;
		} else if (c == ';' || c == '|' || (c == '&' && p[1] == '&')) {
			if (c == '|' && p[1] == '|')
				ok = refuse(&P, "the operator '||'", 0);
			else
				ok = end_prog(&P, c == '|' ? '|' : ';');
			p += c == '&' ? 2 : 1;
		} else if (c == '&' || strchr(shell_specials, c)) {
			ok = refuse(&P, "the shell's", c);
		} else if (is_control(c)) {
			ok = refuse(&P, "a control character", 0);
		} else {
			strbuf_addc(&P.word, c);
			P.in_word = true;
			p++;
		}
	}
	ok = ok && end_prog(&P, '\0');
	strbuf_free(&P.word);
	strlist_free(&P.words);
	if (!ok)
		kcmd_list_free(l);
	return ok;
}

/* ---- running -------------------------------------------------------------- */

static char **argv_of(const struct kcmd_prog *prog)
{
	char **argv = xcalloc((size_t)prog->argv.count + 1, sizeof(char *));

	memcpy(argv, prog->argv.items, sizeof(char *) * (size_t)prog->argv.count);
	return argv;
}

/* In the child: the program with its input, output and errors. */
static void exec_prog(const struct kcmd_prog *prog, char **argv, const char *cwd,
		      int in, int out, int err)
{
	if (chdir(cwd) != 0 || dup2(in, STDIN_FILENO) < 0 ||
	    dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "tapc: cannot run %s: %s\n", prog->argv.items[0],
		strerror(errno));
	_exit(127);
}

static bool wait_ok(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

bool kcmd_run_step(const struct kcmd_step *st, const char *cwd, int logfd)
{
	pid_t *pids = xcalloc((size_t)st->nprogs, sizeof(pid_t));
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC), started = 0;
	bool ok = in >= 0;

	for (int i = 0; ok && i < st->nprogs; i++) {
		const struct kcmd_prog *prog = &st->progs[i];
		int pipefd[2] = { -1, -1 }, out = logfd;
		char **argv = argv_of(prog);

		if (i + 1 < st->nprogs)
			ok = pipe2(pipefd, O_CLOEXEC) == 0 && (out = pipefd[1]) >= 0;
		else if (prog->out)
			ok = (out = open(prog->out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
					 O_CLOEXEC, 0644)) >= 0;
		if (ok && (pids[i] = fork()) == 0)
			exec_prog(prog, argv, cwd, in, out, logfd);
		ok = ok && pids[i] > 0;
		started += ok;
		free(argv);
		if (out != logfd && out >= 0)
			close(out);
		close(in);
		in = pipefd[0];
	}
	if (in >= 0)
		close(in);
	for (int i = 0; i < started; i++)
		ok = wait_ok(pids[i]) && ok;
	free(pids);
	return ok;
}
