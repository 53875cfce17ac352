/* What tapc-run lets its caller load (see approve.h). */
#define _GNU_SOURCE
#include "approve.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "privilege.h"

#define MODULE_NAME_MAX 55	/* the kernel's MODULE_NAME_LEN - 1 */

/* s with bytes a terminal would act on shown as \n, \xNN ... */
static void escape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			n += (size_t)snprintf(out + n, size - n, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			n += (size_t)snprintf(out + n, size - n, "\\x%02x", c);
		else
			out[n++] = (char)c;
	}
	out[n] = '\0';
}

/* staprun's refusal of a module outside the approved directory, with the
 * reason on its last line. */
static int not_approved(const char *dir, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ERROR: Members of the \"stapusr\" and \"stapsys\" groups can "
		"only use unsigned modules within\n  the \"%s\" directory.\n  ", dir);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(".\n", stderr);
	return -1;
}

/* Only root can have put or changed what st describes: owned by root, and
 * writable by no one else (a group-writable one only for group root). */
static bool root_controlled(const struct stat *st)
{
	return st->st_uid == 0 && !(st->st_mode & S_IWOTH) &&
	       (!(st->st_mode & S_IWGRP) || st->st_gid == 0);
}

/* Why the component at path (its fd open, st its status) cannot be part
 * of an approved module's path, or NULL if it can. */
static const char *untrusted(const struct stat *st, bool last)
{
	if (S_ISLNK(st->st_mode))
		return "is a symbolic link";
	if (last ? !S_ISREG(st->st_mode) : !S_ISDIR(st->st_mode))
		return last ? "is not a regular file" : "is not a directory";
	if (st->st_uid != 0)
		return "is not owned by root";
	if (!root_controlled(st))
		return "is writable by users other than root";
	return NULL;
}

/*
 * Open the canonical path (no "." or "..", no symbolic link) one component
 * at a time from /, without following links, checking each directory and
 * the file on the way: nothing can be swapped under us, since only root
 * can change any of them.
 */
static int open_trusted(const char *dir, const char *path)
{
	char *copy = strdup(path), *comp, *save = NULL;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	size_t at = 0;
	struct stat st;

	if (!copy || fd < 0 || fstat(fd, &st) != 0 || untrusted(&st, false)) {
		if (fd >= 0)
			close(fd);
		free(copy);
		return not_approved(dir, "\"/\" cannot be trusted");
	}
	for (comp = strtok_r(copy, "/", &save); comp; ) {
		char *next = strtok_r(NULL, "/", &save);
		bool last = next == NULL;
		int sub = openat(fd, comp, last ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
						: O_PATH | O_NOFOLLOW | O_CLOEXEC);
		const char *why = NULL;

		at = (size_t)(comp - copy) + strlen(comp);
		close(fd);
		fd = sub;
		if (fd < 0)
			why = strerror(errno);
		else if (fstat(fd, &st) != 0)
			why = strerror(errno);
		else
			why = untrusted(&st, last);
		if (why) {
			if (fd >= 0)
				close(fd);
			not_approved(dir, "\"%.*s\" %s", (int)at, path, why);
			free(copy);
			return -1;
		}
		comp = next;
	}
	free(copy);
	/* a blocking descriptor again, for the loader */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* /lib/modules/RELEASE/systemtap, and its canonical path (malloc'd), or
 * NULL after a message. */
static char *approved_dir(char *dir, size_t size)
{
	struct utsname u;
	char *canon;

	if (uname(&u) != 0) {
		fprintf(stderr, "ERROR: tapc-run: uname: %s\n", strerror(errno));
		return NULL;
	}
	snprintf(dir, size, "/lib/modules/%s/systemtap", u.release);
	canon = realpath(dir, NULL);
	if (!canon)
		not_approved(dir, "Unable to canonicalize that directory: %s",
			     strerror(errno));
	return canon;
}

int approve_open(const char *path, unsigned creds)
{
	char dir[PATH_MAX], *canon_dir, *canon;
	size_t len;
	int fd;

	if (privilege_contains(creds, PRIV_STAPDEV)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fprintf(stderr, "ERROR: tapc-run: cannot open module '%s': %s\n",
				path, strerror(errno));
		return fd;
	}
	canon_dir = approved_dir(dir, sizeof(dir));
	if (!canon_dir)
		return -1;
	canon = realpath(path, NULL);
	if (!canon) {
		fprintf(stderr, "ERROR: tapc-run: cannot open module '%s': %s\n",
			path, strerror(errno));
		free(canon_dir);
		return -1;
	}
	len = strlen(canon_dir);
	if (strncmp(canon, canon_dir, len) || canon[len] != '/')
		fd = not_approved(dir, "Module \"%s\" does not exist within that directory",
				  canon);
	else
		fd = open_trusted(dir, canon);
	free(canon);
	free(canon_dir);
	return fd;
}

bool approve_level(const struct modimage *m, const char *path, unsigned creds)
{
	int required = modimage_privilege(m);

	if (privilege_contains(creds, PRIV_STAPDEV))
		return true;
	if (required < 0)
		required = PRIV_STAPDEV;
	if (privilege_contains(creds, (unsigned)required))
		return true;
	fprintf(stderr, "ERROR: Your privilege credentials (%s) are insufficient to "
		"load the module %s (%s required)\n", privilege_name(creds), path,
		privilege_name((unsigned)required));
	return false;
}

bool approve_name(const char *name)
{
	size_t len = strlen(name);

	return len > 0 && len <= MODULE_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == len;
}

/* A value the kernel takes as one word: no space, quote or control
 * character (bytes of UTF-8 text are fine, but 0xa0, which the kernel's
 * isspace() takes for a space). */
static bool plain_value(const char *v)
{
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c <= ' ' || c == 0x7f || c == 0xa0 || c == '"')
			return false;
	}
	return true;
}

bool approve_param(const struct modimage *m, const char *arg, bool strict)
{
	const char *eq = strchr(arg, '=');
	size_t nlen = eq ? (size_t)(eq - arg) : 0;
	char shown[256];

	escape(arg, shown, sizeof(shown));
	if (!eq || nlen == 0) {
		fprintf(stderr, "ERROR: tapc-run: '%s' is not a NAME=VALUE module parameter\n",
			shown);
		return false;
	}
	if (!plain_value(eq + 1) || memchr(arg, '"', nlen)) {
		fprintf(stderr, "ERROR: tapc-run: module parameter '%s' holds a space, a "
			"quote or a control character\n", shown);
		return false;
	}
	if (!strict)
		return true;
	if (isdigit((unsigned char)arg[0]) ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_") != nlen) {
		fprintf(stderr, "ERROR: tapc-run: '%s' is not a NAME=VALUE module parameter\n",
			shown);
		return false;
	}
	if (!strncmp(arg, "_tap", 4)) {
		fprintf(stderr, "ERROR: tapc-run: module parameter '%.*s' is tapc-run's own\n",
			(int)nlen, arg);
		return false;
	}
	if (!modimage_has_param(m, arg, nlen)) {
		fprintf(stderr, "ERROR: tapc-run: the module has no parameter '%.*s'\n",
			(int)nlen, arg);
		return false;
	}
	return true;
}
