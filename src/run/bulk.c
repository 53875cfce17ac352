/* Bulk mode's per-CPU output channels (bulk.h). */
#define _GNU_SOURCE
#include "bulk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "out_N" with N a CPU number, else -1. */
static long cpu_of(const char *name)
{
	char *end;
	long cpu;

	if (strncmp(name, "out_", 4) != 0 || name[4] < '0' || name[4] > '9')
		return -1;
	errno = 0;
	cpu = strtol(name + 4, &end, 10);
	return errno || *end || cpu > 65535 ? -1 : cpu;
}

static int chan_cmp(const void *a, const void *b)
{
	const struct bulk_chan *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The channels, by CPU: their numbers from the directory's names. */
static int find_channels(struct bulk *b, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "ERROR: tapc-run: cannot read %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		long cpu = cpu_of(e->d_name);
		struct bulk_chan *ch;

		if (cpu < 0)
			continue;
		ch = realloc(b->ch, sizeof(*ch) * (size_t)(b->n + 1));
		if (!ch) {
			closedir(d);
			fputs("ERROR: tapc-run: out of memory\n", stderr);
			return -1;
		}
		b->ch = ch;
		b->ch[b->n++] = (struct bulk_chan){ .cpu = (unsigned)cpu, .fd = -1,
						    .dest = { .fd = -1 } };
	}
	closedir(d);
	if (b->n)
		qsort(b->ch, (size_t)b->n, sizeof(*b->ch), chan_cmp);
	return 0;
}

static int open_chan(struct bulk_chan *ch, const char *dir, const char *pattern,
		     unsigned long long size_max, unsigned long num_max)
{
	char path[400];
	char *file = NULL, *numbered = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/out_%u", dir, ch->cpu);
	ch->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ch->fd < 0) {
		fprintf(stderr, "ERROR: tapc-run: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	/* staprun's names: FILE_N, /dev/null for all, stpd_cpuN without -o;
	 * numbered (-S, switch_file()) FILE_cpuN.0, FILE_cpuN.1, ... */
	if (!pattern)
		n = asprintf(&file, "stpd_cpu%u", ch->cpu);
	else if (strcmp(pattern, "/dev/null") == 0)
		n = (file = strdup(pattern)) ? 0 : -1;
	else if ((n = asprintf(&file, "%s_%u", pattern, ch->cpu)) < 0)
		file = NULL;
	else if ((n = asprintf(&numbered, "%s_cpu%u", pattern, ch->cpu)) < 0)
		numbered = NULL;
	if (n < 0) {
		free(file);
		fputs("ERROR: tapc-run: out of memory\n", stderr);
		return -1;
	}
	/* the outfile keeps both names: bulk_close frees them */
	return outfile_open_as(&ch->dest, file, numbered, size_max, num_max);
}

int bulk_open(struct bulk *b, const char *dir, const char *pattern,
	      unsigned long long size_max, unsigned long num_max)
{
	b->n = 0;
	b->ch = NULL;
	if (find_channels(b, dir) < 0)
		return -1;
	for (int i = 0; i < b->n; i++)
		if (open_chan(&b->ch[i], dir, pattern, size_max, num_max) < 0)
			return -1;
	return 0;
}

bool bulk_done(const struct bulk *b)
{
	for (int i = 0; i < b->n; i++)
		if (!b->ch[i].eof)
			return false;
	return true;
}

int bulk_poll_fds(const struct bulk *b, struct pollfd *pfd, int *chan_of)
{
	int n = 0;

	for (int i = 0; i < b->n; i++) {
		if (b->ch[i].eof)
			continue;
		pfd[n] = (struct pollfd){ .fd = b->ch[i].fd, .events = POLLIN };
		chan_of[n++] = i;
	}
	return n;
}

bool bulk_relay(struct bulk *b, int i)
{
	struct bulk_chan *ch = &b->ch[i];
	char buf[65536];
	ssize_t n = read(ch->fd, buf, sizeof(buf));

	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return true;
		fprintf(stderr, "ERROR: tapc-run: read error: %s\n", strerror(errno));
		ch->eof = true;
		return false;
	}
	if (n == 0) {
		ch->eof = true;
		return true;
	}
	return outfile_write(&ch->dest, buf, (size_t)n) == 0;
}

int bulk_switch(struct bulk *b)
{
	int ret = 0;

	for (int i = 0; i < b->n; i++)
		if (outfile_switch(&b->ch[i].dest) < 0)
			ret = -1;
	return ret;
}

int bulk_close(struct bulk *b)
{
	int ret = 0;

	for (int i = 0; i < b->n; i++) {
		struct bulk_chan *ch = &b->ch[i];

		if (ch->fd >= 0)
			close(ch->fd);
		if (ch->dest.fd >= 0 && outfile_close(&ch->dest) < 0)
			ret = -1;
		free((char *)ch->dest.pattern);
		free((char *)ch->dest.numbered);
	}
	free(b->ch);
	b->ch = NULL;
	b->n = 0;
	return ret;
}
