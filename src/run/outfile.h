/* -o FILE and -S SIZE[,N]: the files tapc-run writes the script's output
 * to, and switching to the next one, as SystemTap's stapio does.
 *
 *   -o FILE          FILE (its name put through strftime(3) if it holds
 *                    a '%'); switch_file() or SIGUSR2 goes on to FILE.1,
 *                    FILE.2, ...
 *   -o FILE -S S,N   FILE.0, FILE.1, ...: the next file once one holds
 *                    more than S MiB, or on switch_file()/SIGUSR2; with N,
 *                    only the last N files are kept (the older removed)
 *
 * Files are opened as the caller, never through a symbolic link in their
 * last component, created (mode 0666 less the umask) or truncated.
 * Without -o, output goes to stdout and switching does nothing. */
#ifndef TAPC_RUN_OUTFILE_H
#define TAPC_RUN_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

struct outfile {
	const char *pattern;		/* -o FILE, or NULL for stdout */
	const char *numbered;		/* the base of FILE.N, NULL: pattern */
	unsigned long long size_max;	/* -S: bytes, 0: no -S */
	unsigned long num_max;		/* -S ...,N: files kept, 0: all */
	int fd;
	unsigned long fnum;		/* the current file's number */
	unsigned long long written;	/* bytes in the current file */
	char **names;			/* num_max names, by fnum % num_max */
};

/* -S's argument: "SIZE" or "SIZE,N", SIZE in MiB; false if malformed. */
bool outfile_parse_size(const char *arg, unsigned long long *size_max,
			unsigned long *num_max);

/* Open the first file (FILE, or FILE.0 with -S), or take stdout.  0, or
 * -1 after a message. */
int outfile_open(struct outfile *o, const char *pattern,
		 unsigned long long size_max, unsigned long num_max);

/* outfile_open(), with the numbered files named NUMBERED.0, NUMBERED.1,
 * ... instead of PATTERN.N (bulk mode's FILE_cpuN.M next to FILE_N). */
int outfile_open_as(struct outfile *o, const char *pattern, const char *numbered,
		    unsigned long long size_max, unsigned long num_max);

/* Write @n bytes, going on to the next file first when -S says so.  0,
 * or -1 after a message. */
int outfile_write(struct outfile *o, const char *buf, size_t n);

/* All @len bytes of @buf to @fd, retried across EINTR; -1 on error. */
int write_all(int fd, const char *buf, size_t len);

/* Close this file and open the next one (switch_file(), SIGUSR2); a
 * no-op for stdout.  0, or -1 after a message (output then goes
 * nowhere). */
int outfile_switch(struct outfile *o);

/* Close the file: 0, or -1 after a message (a write that failed late). */
int outfile_close(struct outfile *o);

#endif
