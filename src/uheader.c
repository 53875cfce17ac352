/*
 * The types a user-space header declares, as SystemTap finds them for
 * @cast(p, "FILE", "<stdio.h>") and @cast_sizeof: a C file that includes
 * the headers is compiled with -g into a scratch shared object, and its
 * DWARF read like a user binary's.  The host's C compiler and headers are
 * used, as SystemTap does.
 *
 * The header names come from the script: they reach the compiler only as
 * #include lines of a file in a private directory (mkdtemp, 0700), never
 * a shell, and only names made of the characters of file names are taken.
 */
#include "uheader.h"
#include "fileutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
#include "util.h"

struct compiled {
	char *headers;
	struct dwindex *ix;		/* NULL: it failed, for why */
	char why[512];
};

static struct compiled *compiled;
static size_t n_compiled;

/* A header name as a script may give one: path characters, no "..". */
static bool header_name_ok(const char *name, size_t len)
{
	if (!len || strstr(name, ".."))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./+-", name[i]))
			return false;
	return true;
}

/* The C file including every <header> of the list; false with why. */
static bool write_source(const char *path, const char *headers, char *why, size_t len)
{
	FILE *f = fopen(path, "wx");
	const char *p = headers;

	if (!f) {
		snprintf(why, len, "cannot create %s: %s", path, strerror(errno));
		return false;
	}
	while (*p == '<') {
		const char *end = strchr(p, '>');

		if (!end || !header_name_ok(p + 1, (size_t)(end - p - 1)))
			break;
		fprintf(f, "#include <%.*s>\n", (int)(end - p - 1), p + 1);
		p = end + 1;
	}
	fclose(f);
	if (*p || p == headers) {
		snprintf(why, len, "'%s' is not a list of headers such as <stdio.h>", headers);
		return false;
	}
	return true;
}

/* cc -g SRC -o OUT; its messages in LOG.  The exit status, or -1. */
static int run_cc(const char *src, const char *out, const char *log)
{
	char *argv[] = { "cc", "-g", "-fno-eliminate-unused-debug-types", "-shared",
			 "-fPIC", "-nostdlib", "-o", (char *)out, (char *)src, NULL };

	return run_logged(argv, log);
}

/* The compiler's first error line, for the message. */
static void first_error(const char *log, char *buf, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[400];

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "error")) {
			/* from "error:" on: the scratch file's name says nothing */
			char *from = strstr(line, "fatal error");

			if (!from)
				from = strstr(line, "error");
			from[strcspn(from, "\n")] = '\0';
			snprintf(buf, len, ": %.200s", from);
			break;
		}
	if (f)
		fclose(f);
}

static void compile(struct compiled *c)
{
	char *tried;
	char *dir = make_private_dir("tapc-hdr", &tried);
	char *src = NULL, *so = NULL, *log = NULL;
	char err[300];
	int status;

	if (!dir) {
		snprintf(c->why, sizeof(c->why), "cannot create a directory %s: %s", tried,
			 strerror(errno));
		free(tried);
		return;
	}
	src = xasprintf("%s/types.c", dir);
	so = xasprintf("%s/types.so", dir);
	log = xasprintf("%s/cc.log", dir);
	if (write_source(src, c->headers, c->why, sizeof(c->why))) {
		status = run_cc(src, so, log);
		if (status != 0) {
			first_error(log, err, sizeof(err));
			snprintf(c->why, sizeof(c->why), "cannot compile %s for its types (cc: %s%d)%s",
				 c->headers, status < 0 ? "status " : "exit status ", status, err);
		} else {
			/* the index keeps the file open: it may go at once */
			c->ix = dwindex_open_user(so, c->why, sizeof(c->why));
		}
	}
	unlink(src);
	unlink(so);
	unlink(log);
	rmdir(dir);
	free(src);
	free(so);
	free(log);
	free(dir);
}

const struct dwindex *uheader_dwarf(const char *headers, size_t len, const char **why)
{
	struct compiled *c;

	for (size_t i = 0; i < n_compiled; i++) {
		c = &compiled[i];
		if (strlen(c->headers) == len && !memcmp(c->headers, headers, len)) {
			*why = c->why;
			return c->ix;
		}
	}
	compiled = xrealloc(compiled, (n_compiled + 1) * sizeof(*compiled));
	c = &compiled[n_compiled++];
	memset(c, 0, sizeof(*c));
	c->headers = xstrndup(headers, len);
	compile(c);
	*why = c->why;
	return c->ix;
}
