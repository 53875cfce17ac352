/*
 * The types a user-space header declares, as SystemTap finds them for
 * @cast(p, "FILE", "<stdio.h>") and @cast_sizeof: a C file that includes
 * the headers is compiled with -g into a scratch shared object, and its
 * DWARF read like a user binary's.  The host's C compiler and headers are
 * used, as SystemTap does.
 *
 * "kernel<linux/sched.h>" names kernel headers: for a type the kernel's
 * own BTF and DWARF lack, they are built as SystemTap does, into a small
 * module by the kernel's kbuild (its compiler and flags), whose DWARF is
 * read like a module's.
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

#include "kinfo.h"
#include "launch.h"
#include "util.h"

struct compiled {
	char *headers;
	bool kernel;			/* kbuild against the kernel's tree */
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
static bool write_source(const char *path, const char *headers, bool kernel,
			 char *why, size_t len)
{
	FILE *f = fopen(path, "wx");
	const char *p = headers;

	if (!f) {
		snprintf(why, len, "cannot create %s: %s", path, strerror(errno));
		return false;
	}
	if (kernel)
		fputs("#include <linux/module.h>\nMODULE_LICENSE(\"GPL\");\n", f);
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


/* make -C BUILD M=DIR modules, the types kept in the DWARF of every
 * type the headers declare, used or not.  The exit status, or -1. */
static int run_kbuild(const char *build, const char *dir, const char *log)
{
	char *mk = xasprintf("%s/Makefile", dir);
	FILE *f = fopen(mk, "wx");
	char *mdir = xasprintf("M=%s", dir);
	char *argv[] = { "make", "-s", "-C", (char *)build, mdir, "modules", NULL };
	int status = -1;

	if (f) {
		fputs("obj-m := tapc_types.o\n"
		      "ccflags-y := -g -fno-eliminate-unused-debug-types\n", f);
		fclose(f);
		status = run_logged(argv, log);
	}
	free(mk);
	free(mdir);
	return status;
}

static void compile_in(struct compiled *c, const char *dir)
{
	const char *build = c->kernel ? kinfo_build_dir() : NULL;
	char *src = xasprintf("%s/%s.c", dir, c->kernel ? "tapc_types" : "types");
	char *out = xasprintf("%s/%s", dir, c->kernel ? "tapc_types.ko" : "types.so");
	char *log = xasprintf("%s/cc.log", dir);
	char err[300];
	int status;

	if (c->kernel && !build) {
		snprintf(c->why, sizeof(c->why), "no build tree of the kernel for %s",
			 c->headers);
	} else if (write_source(src, c->headers, c->kernel, c->why, sizeof(c->why))) {
		status = c->kernel ? run_kbuild(build, dir, log) : run_cc(src, out, log);
		if (status != 0) {
			first_error(log, err, sizeof(err));
			snprintf(c->why, sizeof(c->why), "cannot compile %s for its types (%s: %s%d)%s",
				 c->headers, c->kernel ? "kbuild" : "cc",
				 status < 0 ? "status " : "exit status ", status, err);
		} else if (c->kernel) {
			/* relocated as a module's; the index keeps it open */
			c->ix = dwindex_open(out, "tapc_types", c->why, sizeof(c->why));
		} else {
			/* the index keeps the file open: it may go at once */
			c->ix = dwindex_open_user(out, c->why, sizeof(c->why));
		}
	}
	unlink(src);
	unlink(out);
	unlink(log);
	free(src);
	free(out);
	free(log);
}

static void compile(struct compiled *c)
{
	char *tried;
	char *dir = make_private_dir("tapc-hdr", &tried);

	if (!dir) {
		snprintf(c->why, sizeof(c->why), "cannot create a directory %s: %s", tried,
			 strerror(errno));
		free(tried);
		return;
	}
	compile_in(c, dir);
	if (rmdir(dir) != 0 && c->kernel)	/* what else kbuild left */
		remove_tree(dir);
	free(dir);
}

static const struct dwindex *header_dwarf(const char *headers, size_t len, bool kernel,
					  const char **why)
{
	struct compiled *c;

	for (size_t i = 0; i < n_compiled; i++) {
		c = &compiled[i];
		if (c->kernel == kernel && strlen(c->headers) == len &&
		    !memcmp(c->headers, headers, len)) {
			*why = c->why;
			return c->ix;
		}
	}
	compiled = xrealloc(compiled, (n_compiled + 1) * sizeof(*compiled));
	c = &compiled[n_compiled++];
	memset(c, 0, sizeof(*c));
	c->headers = xstrndup(headers, len);
	c->kernel = kernel;
	compile(c);
	*why = c->why;
	return c->ix;
}

const struct dwindex *uheader_dwarf(const char *headers, size_t len, const char **why)
{
	return header_dwarf(headers, len, false, why);
}

const struct dwindex *kheader_dwarf(const char *headers, size_t len, const char **why)
{
	return header_dwarf(headers, len, true, why);
}
