/* The output files of -o and -S (see outfile.h). */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool outfile_parse_size(const char *arg, unsigned long long *size_max,
			unsigned long *num_max)
{
	unsigned long long mib;
	unsigned long n = 0;
	char *end;

	if (*arg < '0' || *arg > '9')
		return false;
	errno = 0;
	mib = strtoull(arg, &end, 10);
	if (errno || mib > (ULLONG_MAX >> 20))
		return false;
	if (*end == ',') {
		if (end[1] < '0' || end[1] > '9')
			return false;
		n = strtoul(end + 1, &end, 10);
		if (errno || n > 1000000)
			return false;
	}
	if (*end)
		return false;
	*size_max = mib << 20;
	*num_max = n;
	return true;
}

/* The name of file number @fnum: the pattern (the numbered one when files
 * are numbered) through strftime(3) now, then ".N" when numbered;
 * /dev/null stays itself. */
static char *file_name(const struct outfile *o, unsigned long fnum)
{
	char expanded[PATH_MAX];
	bool numbered = o->size_max || fnum > 0;
	const char *base = numbered && o->numbered ? o->numbered : o->pattern;
	time_t t = time(NULL);
	struct tm tm;
	char *name;

	if (strchr(base, '%')) {
		if (!localtime_r(&t, &tm) ||
		    strftime(expanded, sizeof(expanded), base, &tm) == 0) {
			fprintf(stderr, "ERROR: tapc-run: invalid output file name format '%s'\n",
				base);
			return NULL;
		}
		base = expanded;
	}
	if (!strcmp(o->pattern, "/dev/null"))
		numbered = false;
	if (numbered ? asprintf(&name, "%s.%lu", base, fnum) < 0 :
		       !(name = strdup(base))) {
		fprintf(stderr, "ERROR: tapc-run: out of memory\n");
		return NULL;
	}
	return name;
}

/* Open file number o->fnum; with N, remove the one N files back. */
static int open_current(struct outfile *o)
{
	char *name = file_name(o, o->fnum);
	char **slot;

	if (!name)
		return -1;
	/* O_NONBLOCK: a FIFO without a reader fails instead of hanging */
	o->fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK |
		     O_CLOEXEC, 0666);
	if (o->fd < 0) {
		fprintf(stderr, "ERROR: Couldn't open output file '%s': %s\n", name,
			errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		free(name);
		return -1;
	}
	fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK);
	o->written = 0;
	if (!o->names) {
		free(name);
		return 0;
	}
	/* the slot holds the name of file fnum - N, which goes now */
	slot = &o->names[o->fnum % o->num_max];
	if (*slot) {
		unlink(*slot);
		free(*slot);
	}
	*slot = name;
	return 0;
}

int outfile_open(struct outfile *o, const char *pattern,
		 unsigned long long size_max, unsigned long num_max)
{
	return outfile_open_as(o, pattern, NULL, size_max, num_max);
}

int outfile_open_as(struct outfile *o, const char *pattern, const char *numbered,
		    unsigned long long size_max, unsigned long num_max)
{
	memset(o, 0, sizeof(*o));
	o->pattern = pattern;
	o->numbered = numbered;
	o->fd = STDOUT_FILENO;
	if (!pattern)
		return 0;
	o->size_max = size_max;
	o->num_max = size_max ? num_max : 0;
	if (o->num_max) {
		o->names = calloc(o->num_max, sizeof(*o->names));
		if (!o->names) {
			fprintf(stderr, "ERROR: tapc-run: out of memory\n");
			return -1;
		}
	}
	return open_current(o);
}

int outfile_close(struct outfile *o)
{
	int ret = 0;

	if (o->pattern && o->fd >= 0 && close(o->fd) < 0) {
		fprintf(stderr, "ERROR: tapc-run: writing the output file: %s\n",
			strerror(errno));
		ret = -1;
	}
	o->fd = -1;
	if (o->names) {
		for (unsigned long i = 0; i < o->num_max; i++)
			free(o->names[i]);
		free(o->names);
		o->names = NULL;
	}
	return ret;
}

int outfile_switch(struct outfile *o)
{
	if (!o->pattern)
		return 0;
	if (o->fd >= 0 && close(o->fd) < 0)
		fprintf(stderr, "ERROR: tapc-run: writing the output file: %s\n",
			strerror(errno));
	o->fd = -1;
	o->fnum++;
	return open_current(o);
}

int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int outfile_write(struct outfile *o, const char *buf, size_t n)
{
	/* as stapio: the next file once this one holds more than -S */
	if (o->size_max && o->written > o->size_max && outfile_switch(o) < 0)
		return -1;
	if (o->fd < 0)
		return -1;
	if (write_all(o->fd, buf, n) < 0) {
		fprintf(stderr, "ERROR: tapc-run: cannot write output: %s\n",
			strerror(errno));
		return -1;
	}
	o->written += n;
	return 0;
}
